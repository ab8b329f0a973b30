import {configDefaults, defineConfig} from "vitest/config";

// .ci/run sets VITEST_JSON_REPORT so the CI can print "N passed, N failed" from vitest's JSON report.
const json = process.env.VITEST_JSON_REPORT;

/**
 * Two groups, run one after the other: "unit" (everything, files in parallel) and then "serial"
 * (`*.serial.test.ts`: tests against a real engine or measuring timing, which must not compete for
 * the CPU with other test files).
 */
export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: json ? ["default", "json"] : ["default"],
    outputFile: json ? {json} : undefined,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/**/*.serial.test.ts"],
          sequence: {groupOrder: 0}
        }
      },
      {
        extends: true,
        test: {
          name: "serial",
          include: ["test/**/*.serial.test.ts"],
          fileParallelism: false,
          sequence: {groupOrder: 1}
        }
      }
    ]
  }
});
