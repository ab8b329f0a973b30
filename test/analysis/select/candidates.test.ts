import {describe, expect, it} from "vitest";

import {candidatesOf} from "../../../src/analysis/index.ts";
import {buildMatrix, matrixGroups} from "../../../src/site/matrix.ts";

/** A run of two VALID points, the faster of them over-saturated, with an experiment's labels. */
function run(labels: Record<string, string>, set: {measure_version?: string | null; workloadKey?: string} = {}) {
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
    measure_version: set.measure_version === undefined ? "2" : set.measure_version,
    gates: [{id: "G6", status: "pass"}],
    load_points: [point("concurrency-2", 2, 100, false), point("concurrency-4", 4, 140, true)],
    quality: [],
    meta: {
      model: "m",
      workloadKey: set.workloadKey ?? "in=256 out=64",
      hardware: "CPU: x",
      engine: "llama.cpp",
      gpus: null,
      labels
    }
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

describe("comparable sets", () => {
  it("a candidate carries its set (measure version, model, workload); unknown measure version: none", () => {
    expect(candidatesOf(run({}))[0]!.set).toBe('["2","m","in=256 out=64"]');
    expect(candidatesOf(run({}, {measure_version: null}))[0]!.set).toBeNull();
  });

  it("the matrix has one performance table per measure version and workload, never a best across them", () => {
    const a = {...run({}), bundle: "a"};
    const b = {...run({}, {workloadKey: "in=128 out=64"}), bundle: "b"};
    const c = {...run({}, {measure_version: "1"}), bundle: "c"};
    const groups = matrixGroups([a, b, c]);
    expect(groups.map((g) => [g.measureVersion, g.workload, g.matrix.cell("m", "CPU: x")!.bundles])).toEqual([
      ["1", "in=256 out=64", ["c"]],
      ["2", "in=128 out=64", ["b"]],
      ["2", "in=256 out=64", ["a"]]
    ]);
  });
});
