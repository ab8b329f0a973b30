import {defineConfig} from "vitest/config";

// .ci/run sets VITEST_JSON_REPORT so the CI can print "N passed, N failed" from vitest's JSON report.
const json = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: json ? ["default", "json"] : ["default"],
    outputFile: json ? {json} : undefined
  }
});
