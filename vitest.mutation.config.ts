import {configDefaults, defineConfig} from "vitest/config";

/**
 * The tests a mutation run (`npm run test:mutation`) may use: fast, in-process unit tests that reach
 * src/analysis. No `*.serial.test.ts`, no site or engine tests, no test that starts a server or spawns
 * the CLI against one: each of these tests runs once per mutant that it covers.
 */
export default defineConfig({
  test: {
    environment: "node",
    // one module graph for all test files: Stryker runs each mutant's covering tests as one vitest run, and
    // re-importing the analyzer for every test file was most of its cost (the whole suite: 2 min 5 s isolated,
    // 21 s not). These tests keep no module state that another file could see (they all pass this way).
    // `test:mutation --static` isolates again: a static mutant is switched on as its module loads.
    isolate: process.env.INFERSCOPE_MUTATION_ISOLATE === "1",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: [
      "test/analysis/**/*.test.ts",
      "test/peers/**/*.test.ts",
      "test/quality/**/*.test.ts",
      "test/charts/**/*.test.ts",
      "test/cases/{needleHeatmap,plan,tokenize}.test.ts",
      "test/collector/config/*.test.ts",
      "test/collector/fake/plan.test.ts",
      "test/collector/http/{events,sse}.test.ts",
      "test/collector/run/{dispatch,prompt,schedule}.test.ts",
      "test/collector/telemetry/telemetry.test.ts",
      "test/{docs,readme,schema}.test.ts"
    ],
    // scale.test.ts imports half a million requests: a scale check, not a mutant killer
    exclude: [...configDefaults.exclude, "test/**/*.serial.test.ts", "test/peers/scale.test.ts"]
  }
});
