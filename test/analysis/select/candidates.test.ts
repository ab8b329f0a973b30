import {describe, expect, it} from "vitest";

import {candidatesOf} from "../../../src/analysis/index.ts";
import {buildMatrix} from "../../../src/site/matrix.ts";

/** A run of two VALID points, the faster of them over-saturated, with an experiment's labels. */
function run(labels: Record<string, string>) {
  const point = (id: string, value: number, tps: number, over: boolean) => ({
    id,
    mode: "concurrency",
    value,
    verdict: "VALID" as const,
    n_success: 40,
    metrics: {output_throughput_tok_s: {value: tps}},
    saturation: {
      over_saturated: over,
      reasons: over ? ["queueing grows through the point"] : [],
      queue_growth: null,
      plateau: null
    }
  });
  return {
    bundle: "b1",
    gates: [{id: "G6", status: "pass"}],
    load_points: [point("concurrency-2", 2, 100, false), point("concurrency-4", 4, 140, true)],
    quality: [],
    meta: {model: "m", hardware: "CPU: x", engine: "llama.cpp", gpus: null, labels}
  } as unknown as Parameters<typeof candidatesOf>[0] & Parameters<typeof buildMatrix>[0][number];
}

describe("experiment variants as configurations", () => {
  it("each candidate names its experiment variant (from the bundle's labels) and carries over-saturation", () => {
    const cs = candidatesOf(run({experiment: "spec-ab", variant: "llama-spec-on", spec: "on"}));
    expect(cs.map((c) => [c.point, c.variant?.name, c.variant?.experiment, c.overSaturated])).toEqual([
      ["concurrency-2", "llama-spec-on", "spec-ab", false],
      ["concurrency-4", "llama-spec-on", "spec-ab", true]
    ]);
    expect(candidatesOf(run({}))[0]!.variant).toBeNull();
  });

  it("the matrix's best point skips an over-saturated one although it has more throughput", () => {
    const m = buildMatrix([run({variant: "v"})]);
    const best = m.cell("m", "CPU: x")!.best!;
    expect([best.point, best.throughputPerGpu, best.variant?.name]).toEqual(["concurrency-2", 100, "v"]);
  });
});
