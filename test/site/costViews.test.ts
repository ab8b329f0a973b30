/**
 * The matrix's cost per configuration: $/Mtok output and $/request of the cell's shown (best) load point, each
 * unknown with the reason when the hardware block lacks it (never 0).
 */
import {describe, expect, it} from "vitest";

import type {Fact} from "../../src/analysis/index.ts";
import {buildMatrix} from "../../src/site/matrix.ts";

const known = (value: number): Fact => ({value, from: "test", reason: null});
const unknown = (reason: string): Fact => ({value: null, from: null, reason});

type Run = Parameters<typeof buildMatrix>[0][number];

/** A run on `hardware` with two VALID points: concurrency-2 (100 tok/s) and concurrency-4 (140 tok/s, the best). */
function run(bundle: string, hardware: string, cost: Record<string, [Fact, Fact]> | null): Run {
  const point = (id: string, value: number, tps: number) => ({
    id,
    mode: "concurrency",
    value,
    verdict: "VALID" as const,
    n_success: 40,
    metrics: {output_throughput_tok_s: {value: tps}}
  });
  return {
    bundle,
    gates: [{id: "G6", status: "pass"}],
    load_points: [point("concurrency-2", 2, 100), point("concurrency-4", 4, 140)],
    quality: [],
    meta: {model: "m", hardware, engine: "vllm", gpus: 1, labels: {}},
    hardware:
      cost === null
        ? undefined
        : {
            points: Object.entries(cost).map(([id, [perMOutput, perRequest]]) => ({
              point: id,
              cost: {perMOutput, perRequest},
              energy: {joulesPerOutputToken: unknown("no power"), sparse: false, reason: "no power", samples: 0}
            }))
          }
  } as unknown as Run;
}

describe("buildMatrix cost per configuration", () => {
  it("gives the cost of the shown load point, not of another point of the run", () => {
    const m = buildMatrix([
      run("b1", "1× H100", {
        "concurrency-2": [known(0.9), known(0.004)],
        "concurrency-4": [known(0.6), known(0.003)]
      })
    ]);
    const c = m.cell("m", "1× H100")!;
    expect(c.best!.point).toBe("concurrency-4");
    expect(c.cost).toEqual({perMOutput: known(0.6), perRequest: known(0.003)});
  });

  it("keeps an unknown cost unknown with its reason, and without hardware data says so", () => {
    const m = buildMatrix([
      run("b1", "1× H100", {"concurrency-4": [unknown("no price for H100"), unknown("no price for H100")]}),
      run("b2", "1× L40S", null)
    ]);
    expect(m.cell("m", "1× H100")!.cost!.perMOutput).toEqual(unknown("no price for H100"));
    expect(m.cell("m", "1× L40S")!.cost!.perRequest).toEqual(unknown("the analysis was not given the hardware data"));
  });

  it("has no cost when the cell has no load point to show", () => {
    const r = run("b1", "1× H100", {"concurrency-4": [known(0.6), known(0.003)]});
    for (const p of r.load_points) p.verdict = "INVALID";
    const c = buildMatrix([r]).cell("m", "1× H100")!;
    expect([c.best, c.cost]).toEqual([null, null]);
  });
});
