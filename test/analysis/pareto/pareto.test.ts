import {describe, expect, it} from "vitest";

import {paretoFrontier, paretoOf, type ParetoRun, type PointReport} from "../../../src/analysis/index.ts";

describe("paretoFrontier (both axes better higher)", () => {
  const id = (p: {x: number; y: number}) => `${p.x},${p.y}`;
  const xy = (p: {x: number; y: number}) => [p.x, p.y] as const;

  it("is empty for no points and the point itself for one", () => {
    expect(
      paretoFrontier(
        [],
        (p: {x: number}) => p.x,
        () => 0
      )
    ).toEqual([]);
    expect(
      paretoFrontier(
        [{x: 1, y: 1}],
        (p) => p.x,
        (p) => p.y
      )
    ).toEqual([{x: 1, y: 1}]);
  });

  it("drops dominated points and returns the rest by x", () => {
    const pts = [
      {x: 10, y: 100},
      {x: 50, y: 80},
      {x: 40, y: 60},
      {x: 100, y: 20},
      {x: 90, y: 10},
      {x: 5, y: 100}
    ];
    expect(
      paretoFrontier(
        pts,
        (p) => p.x,
        (p) => p.y
      ).map(id)
    ).toEqual(["10,100", "50,80", "100,20"]);
    expect(
      paretoFrontier(
        pts,
        (p) => p.x,
        (p) => p.y
      ).map(xy)
    ).toHaveLength(3);
  });

  it("keeps one of two identical points", () => {
    expect(
      paretoFrontier(
        [
          {x: 1, y: 2},
          {x: 1, y: 2}
        ],
        (p) => p.x,
        (p) => p.y
      )
    ).toHaveLength(1);
  });
});

function point(id: string, verdict: PointReport["verdict"], x: number | null, y: number | null): PointReport {
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
      output_throughput_tok_s: {value: y}
    }
  };
}

function run(
  bundle: string,
  model: string,
  hardware: string,
  gpus: number | null,
  points: PointReport[],
  g6 = "pass"
): ParetoRun {
  return {
    bundle,
    measure_version: "1",
    verdict: "VALID",
    gates: [{id: "G6", slug: "client_health", status: g6 as "pass", reason: "", evidence: {}, threshold: null}],
    load_points: points,
    meta: {model, workloadKey: "w", hardware, engine: "vllm", gpus}
  };
}

describe("paretoOf", () => {
  it("divides throughput by the GPU count and draws a frontier per hardware · engine", () => {
    const p = paretoOf([
      run("a", "m", "2× H100", 2, [
        point("concurrency-1", "VALID", 100, 200),
        point("concurrency-8", "VALID", 40, 800)
      ]),
      run("b", "m", "1× L40S", 1, [point("concurrency-1", "VALID", 60, 90), point("concurrency-8", "VALID", 50, 80)])
    ]);
    expect(p.classes).toHaveLength(1);
    const pts = p.classes[0]!.points;
    expect(pts.find((x) => x.bundle === "a" && x.point === "concurrency-8")!.y).toBe(400);
    expect(p.classes[0]!.frontiers.map((f) => [f.group, f.points.length])).toEqual([
      ["1× L40S · vllm", 1],
      ["2× H100 · vllm", 2]
    ]);
    expect(pts.find((x) => x.bundle === "b" && x.point === "concurrency-8")!.onFrontier).toBe(false);
  });

  it("keeps models apart and excludes INVALID points, missing numbers, unknown GPU counts and unhealthy clients", () => {
    const p = paretoOf([
      run("a", "m1", "1× H100", 1, [
        point("concurrency-1", "INVALID", 100, 200),
        point("concurrency-2", "VALID", null, 300)
      ]),
      run("b", "m2", "1× H100", 1, [point("concurrency-1", "VALID", 100, 200)]),
      run("c", "m2", "1× H100", null, [point("concurrency-1", "VALID", 100, 200)]),
      run("d", "m2", "1× H100", 1, [point("concurrency-1", "VALID", 100, 200)], "fail"),
      run("e", "m2", "CPU: x", null, [point("concurrency-1", "VALID", 10, 20)])
    ]);
    expect(p.classes.map((c) => c.model)).toEqual(["m2"]);
    expect(p.classes[0]!.points.map((x) => [x.bundle, x.divisorKind])).toEqual([
      ["b", "gpu"],
      ["e", "host"]
    ]);
    expect(p.excluded.map((e) => `${e.bundle}:${e.point ?? "*"}: ${e.reason.en}`)).toEqual([
      "a:concurrency-1: INVALID load point",
      "a:concurrency-2: interactivity_tok_s p50 missing",
      "c:*: GPU count unknown: no per-GPU throughput",
      "d:*: client health (G6) fail"
    ]);
  });
});
