import {describe, expect, it} from "vitest";

import {paretoOf, type Fact, type ParetoRun, type PointReport} from "../../../src/analysis/index.ts";

const known = (value: number): Fact => ({value, from: "test", reason: null});
const unknown = (reason: string): Fact => ({value: null, from: null, reason});

function point(id: string, x: number | null, verdict: PointReport["verdict"] = "VALID"): PointReport {
  return {
    id,
    mode: "concurrency",
    value: Number(id.split("-")[1]),
    repeats: 1,
    n: 40,
    n_success: 40,
    n_warmup: 0,
    verdict,
    verdict_reasons: [],
    outcomes: {},
    failures: [],
    finish_reasons: {},
    usage_sources: {},
    metrics: {
      interactivity_tok_s: {
        n: 40,
        mean: x,
        std: null,
        min: null,
        max: null,
        p50: x,
        p90: null,
        p95: null,
        p99: null,
        method: "nearest-rank",
        withheld: {}
      },
      output_throughput_tok_s: {value: 1000}
    }
  };
}

/** A run on one H100 whose points cost `usd[id]` $/Mtok output (a Fact per point id). */
function run(bundle: string, points: PointReport[], usd: Record<string, Fact> | null): ParetoRun {
  const hardware =
    usd === null
      ? undefined
      : ({points: Object.entries(usd).map(([point, perMOutput]) => ({point, cost: {perMOutput}}))} as unknown);
  return {
    bundle,
    measure_version: "1",
    verdict: "VALID",
    gates: [{id: "G6", slug: "client_health", status: "pass", reason: "", evidence: {}, threshold: null}],
    load_points: points,
    meta: {model: "m", workloadKey: "w", hardware: "1× H100", engine: "vllm", gpus: 1},
    hardware: hardware as ParetoRun["hardware"]
  };
}

describe("paretoOf with $/Mtok output on the y axis (lower is better)", () => {
  // (interactivity, $/Mtok): c-1 (10, 0.20), c-2 (40, 0.60), c-4 (50, 0.50), c-8 (100, 1.50).
  // c-2 is beaten by c-4 (more interactivity, lower cost); the rest trade one for the other.
  const a = run(
    "a",
    [point("concurrency-1", 10), point("concurrency-2", 40), point("concurrency-4", 50), point("concurrency-8", 100)],
    {
      "concurrency-1": known(0.2),
      "concurrency-2": known(0.6),
      "concurrency-4": known(0.5),
      "concurrency-8": known(1.5)
    }
  );

  it("plots the cost as y and draws the frontier of the cheaper-and-more-interactive points", () => {
    const p = paretoOf([a], {y: "cost"});
    expect([p.y, p.better, p.withoutCost]).toEqual(["cost", "lower", []]);
    const cls = p.classes[0]!;
    expect(cls.points.map((q) => [q.point, q.x, q.y, q.onFrontier])).toEqual([
      ["concurrency-1", 10, 0.2, true],
      ["concurrency-2", 40, 0.6, false],
      ["concurrency-4", 50, 0.5, true],
      ["concurrency-8", 100, 1.5, true]
    ]);
    expect(cls.frontiers[0]!.points.map((q) => q.point)).toEqual(["concurrency-1", "concurrency-4", "concurrency-8"]);
  });

  it("keeps the throughput view as the default (y higher is better)", () => {
    const p = paretoOf([a]);
    expect([p.y, p.better, p.withoutCost]).toEqual(["throughput", "higher", []]);
    expect(p.classes[0]!.points.map((q) => q.y)).toEqual([1000, 1000, 1000, 1000]);
  });

  it("leaves points without a known cost out of the cost view, listed apart with the reason", () => {
    const b = run(
      "b",
      [point("concurrency-1", 20), point("concurrency-2", 30), point("concurrency-4", 30, "INVALID")],
      {
        "concurrency-1": known(0.3),
        "concurrency-2": unknown("no price for H100 in prices.yaml")
      }
    );
    const c = run("c", [point("concurrency-1", 25), point("concurrency-2", null)], null);
    const p = paretoOf([b, c], {y: "cost"});
    expect(p.classes[0]!.points.map((q) => `${q.bundle}:${q.point}`)).toEqual(["b:concurrency-1"]);
    // b:concurrency-2 (price unknown) and c:concurrency-1 (no hardware block); not the INVALID point, nor the
    // point without interactivity (it is off every view)
    const line = (e: {bundle: string; point: string | null; reason: {en: string}}) =>
      `${e.bundle}:${e.point}: ${e.reason.en}`;
    expect(p.withoutCost.map(line)).toEqual([
      "b:concurrency-2: cost unknown: no price for H100 in prices.yaml",
      "c:concurrency-1: cost unknown: the analysis was not given the hardware data"
    ]);
    expect(p.excluded.map(line)).toEqual([
      "b:concurrency-4: INVALID load point",
      "c:concurrency-2: interactivity_tok_s p50 missing"
    ]);
    expect(paretoOf([b, c]).withoutCost).toEqual([]);
  });

  it("has no class when no point has a known cost", () => {
    const p = paretoOf([run("d", [point("concurrency-1", 20)], {"concurrency-1": unknown("no GPU on this host")})], {
      y: "cost"
    });
    expect(p.classes).toEqual([]);
    expect(p.withoutCost).toHaveLength(1);
  });
});
