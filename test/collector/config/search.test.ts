import {describe, expect, it} from "vitest";

import {ConfigError, parseRunConfig} from "../../../collector/config/load.ts";
import {searchBlocks} from "../../../src/analysis/schema/config.ts";

const head = "target: {base_url: http://127.0.0.1:1/v1, model: m}\n";
const problems = (text: string) => {
  try {
    parseRunConfig(text, "run.yaml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe("load: {mode: search}", () => {
  it("fills the defaults: step 1 for concurrency, relative 0.05 for rates, 12 probes, 100 requests", () => {
    const c = parseRunConfig(
      `${head}load:\n  - {mode: search, over: concurrency, range: [1, 64]}\n  - {mode: search, over: poisson, range: [0.5, 40]}\n`,
      "run.yaml"
    );
    const [a, b] = searchBlocks(c);
    expect([a!.precision, a!.max_probes, a!.requests, a!.objective]).toEqual([{step: 1}, 12, 100, "slo"]);
    expect(b!.precision).toEqual({relative: 0.05});
  });

  it("reports a search block's own mistakes, not the load-point branch's", () => {
    const p = problems(`${head}load: {mode: search, over: concurrency, range: [8, 2], objective: goodput, steps: 3}\n`);
    expect(p.map((x) => x.path).sort()).toEqual(["load.min_goodput", "load.range", "load.steps"].sort());
  });
});
