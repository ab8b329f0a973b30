import {describe, expect, it} from "vitest";

import {
  DEFAULT_CONSTRAINTS,
  qualityRates,
  selectConfigs,
  type Candidate,
  type Constraints,
  type QualityRecord
} from "../../../src/analysis/index.ts";

const lat = (p95: number | null) => ({p50: p95 === null ? null : p95 / 2, p90: null, p95, p99: null});

function cand(over: Partial<Candidate> & {bundle: string}): Candidate {
  return {
    set: over.model === null ? null : JSON.stringify(["2", over.model ?? "m", "in=512 out=64"]),
    point: "concurrency-4",
    model: "m",
    hardware: "1× H100",
    engine: "vllm",
    variant: null,
    overSaturated: false,
    verdict: "VALID",
    clientHealth: "pass",
    nSuccess: 100,
    throughputPerGpu: 500,
    divisorKind: "gpu",
    interactivity: 50,
    latency: {ttft_ms: lat(300), itl_ms: lat(20), e2e_ms: lat(3000)},
    withheld: {ttft_ms: {}, itl_ms: {}, e2e_ms: {}},
    quality: [],
    ...over
  };
}

const k = (over: Partial<Constraints> = {}): Constraints => ({...DEFAULT_CONSTRAINTS, ...over});

describe("selectConfigs", () => {
  it("answers no recommendation when there is nothing to choose from", () => {
    const s = selectConfigs([], k());
    expect(s.recommended).toEqual([]);
    expect(s.noRecommendation?.map((r) => r.en)).toEqual(["no measured configurations"]);
  });

  it("ranks qualifying configurations by throughput per GPU within each model and recommends each model's best", () => {
    const s = selectConfigs(
      [
        cand({bundle: "a", throughputPerGpu: 400}),
        cand({bundle: "b", throughputPerGpu: 900}),
        cand({bundle: "c", model: "other", throughputPerGpu: 100})
      ],
      k()
    );
    expect(s.qualifying.map((r) => `${r.candidate.bundle}#${r.rank}`)).toEqual(["b#1", "a#2", "c#1"]);
    expect(s.recommended.map((r) => r.candidate.bundle)).toEqual(["b", "c"]);
    expect(s.noRecommendation).toBeNull();
  });

  it("gives every reason a configuration is excluded", () => {
    const s = selectConfigs(
      [
        cand({
          bundle: "x",
          verdict: "INCONCLUSIVE",
          clientHealth: "fail",
          nSuccess: 12,
          latency: {ttft_ms: lat(2500), itl_ms: lat(null), e2e_ms: lat(1)},
          withheld: {ttft_ms: {}, itl_ms: {p95: "n=12 < 20"}, e2e_ms: {}}
        })
      ],
      k()
    );
    expect(s.excluded[0]!.reasons.map((r) => r.text.en)).toEqual([
      "load point verdict INCONCLUSIVE",
      "client health (G6) fail",
      "12 successful requests < 20 required",
      "TTFT p95 2500 ms > 2000 ms",
      "ITL p95 withheld (n=12 < 20): the SLO cannot be checked"
    ]);
    expect(s.noRecommendation?.map((r) => r.en)).toEqual([
      "1 of 1 configurations: client health not shown",
      "1 of 1 configurations: too few samples",
      "1 of 1 configurations: SLO exceeded",
      "1 of 1 configurations: SLO percentile withheld (too few samples for it)",
      "1 of 1 configurations: not VALID"
    ]);
  });

  it("never lets unevaluated quality meet a minimum, and checks the chosen scorer only", () => {
    const rated = cand({
      bundle: "q",
      quality: [
        {scorer: "gsm8k", qualityVersion: "1", pass: 30, fail: 70, notEvaluated: 0, n: 100, rate: 0.3},
        {scorer: "needle", qualityVersion: "1", pass: 90, fail: 10, notEvaluated: 0, n: 100, rate: 0.9}
      ]
    });
    const unrated = cand({bundle: "u"});
    const any = selectConfigs([rated, unrated], k({minQuality: 0.5}));
    expect(any.qualifying).toEqual([]);
    expect(any.excluded.map((e) => e.reasons.map((r) => r.code))).toEqual([
      ["quality_below"],
      ["quality_not_evaluated"]
    ]);
    const needle = selectConfigs([rated, unrated], k({minQuality: 0.5, qualityScorer: "needle"}));
    expect(needle.recommended.map((r) => r.candidate.bundle)).toEqual(["q"]);
  });

  it("a pass rate of fewer than 5 scored items, or a scorer that ran but judged nothing, cannot meet a minimum", () => {
    const rate = (scorer: string, pass: number, fail: number, notEvaluated = 0) => ({
      scorer,
      qualityVersion: "1",
      pass,
      fail,
      notEvaluated,
      n: pass + fail,
      rate: pass + fail > 0 ? pass / (pass + fail) : null
    });
    const one = cand({bundle: "one", quality: [rate("gsm8k", 1, 0)]}); // 1/1 = 100 % of one item
    const four = cand({bundle: "four", quality: [rate("gsm8k", 4, 0)]});
    const five = cand({bundle: "five", quality: [rate("gsm8k", 5, 0)]});
    const silent = cand({bundle: "silent", quality: [rate("gsm8k", 10, 0), rate("judge", 0, 0, 50)]});
    const s = selectConfigs([one, four, five, silent], k({minQuality: 0.9}));
    expect(s.recommended.map((r) => r.candidate.bundle)).toEqual(["five"]);
    const codes = new Map(s.excluded.map((e) => [e.candidate.bundle, e.reasons.map((r) => r.code)]));
    expect([codes.get("one"), codes.get("four"), codes.get("silent")]).toEqual([
      ["quality_not_evaluated"],
      ["quality_not_evaluated"],
      ["quality_not_evaluated"]
    ]);
    expect(s.excluded.find((e) => e.candidate.bundle === "silent")!.reasons[0]!.text.en).toMatch(/judge n=0/);
  });

  it("filters by hardware and model, and refuses to rank an unknown throughput", () => {
    const s = selectConfigs(
      [cand({bundle: "a"}), cand({bundle: "b", hardware: "1× L40S"}), cand({bundle: "c", throughputPerGpu: null})],
      k({hardware: ["1× H100"], model: "m"})
    );
    expect(s.qualifying.map((r) => r.candidate.bundle)).toEqual(["a"]);
    expect(s.excluded.map((e) => [e.candidate.bundle, e.reasons.map((r) => r.code)])).toEqual([
      ["b", ["hardware"]],
      ["c", ["throughput_unknown"]]
    ]);
  });

  it("applies the SLO at the chosen percentile, with no limit when a limit is null", () => {
    const c = cand({bundle: "a", latency: {ttft_ms: lat(3000), itl_ms: lat(20), e2e_ms: lat(1)}});
    expect(selectConfigs([c], k()).qualifying).toHaveLength(0);
    expect(selectConfigs([c], k({percentile: "p50"})).qualifying).toHaveLength(1);
    expect(selectConfigs([c], k({slo: {ttft_ms: null, itl_ms: 60, e2e_ms: null}})).qualifying).toHaveLength(1);
  });
});

describe("qualityRates", () => {
  const rec = (scorer: string, verdict: QualityRecord["verdict"], qualityVersion = "1"): QualityRecord => ({
    seq: 0,
    qualityVersion,
    caseId: "c",
    scorer,
    itemId: "i",
    requestId: null,
    point: null,
    tier: null,
    promptDigest: null,
    response: null,
    extracted: null,
    expected: null,
    verdict,
    reason: null,
    details: {}
  });

  it("counts not evaluated apart from pass and fail and keeps quality versions apart", () => {
    const r = qualityRates([
      rec("gsm8k", "pass"),
      rec("gsm8k", "fail"),
      rec("gsm8k", "not_evaluated"),
      rec("gsm8k", "pass", "2"),
      rec("needle", "not_evaluated")
    ]);
    expect(r.map((q) => [q.scorer, q.qualityVersion, q.n, q.rate, q.notEvaluated])).toEqual([
      ["gsm8k", "1", 2, 0.5, 1],
      ["gsm8k", "2", 1, 1, 0],
      ["needle", "1", 0, null, 1]
    ]);
  });

  it("never picks an over-saturated load point, however fast (it is not a sustained capacity)", () => {
    const s = selectConfigs(
      [
        cand({bundle: "a", point: "concurrency-8", throughputPerGpu: 900, overSaturated: true}),
        cand({bundle: "a", point: "concurrency-4", throughputPerGpu: 600, variant: {experiment: "e", name: "v1"}})
      ],
      k()
    );
    expect(s.recommended.map((r) => r.candidate.point)).toEqual(["concurrency-4"]);
    expect(s.recommended[0]!.candidate.variant).toEqual({experiment: "e", name: "v1"});
    const ex = s.excluded.find((e) => e.candidate.point === "concurrency-8")!;
    expect(ex.reasons.map((r) => r.code)).toEqual(["over_saturated"]);
  });
});

describe("selectConfigs ranks only within a comparable set (audit: the site ranked other workloads together)", () => {
  const set = (mv: string, workload: string) => JSON.stringify([mv, "m", workload]);
  it("a faster run under another workload or measure version is not ranked against, nor recommended over, this one", () => {
    const s = selectConfigs(
      [
        cand({bundle: "v1-w256", throughputPerGpu: 900, set: set("1", "in=256 out=64")}),
        cand({bundle: "v2-w256", throughputPerGpu: 500, set: set("2", "in=256 out=64")}),
        cand({bundle: "v2-w256-b", throughputPerGpu: 400, set: set("2", "in=256 out=64")}),
        cand({bundle: "v2-w128", throughputPerGpu: 700, set: set("2", "in=128 out=64")})
      ],
      DEFAULT_CONSTRAINTS
    );
    // three sets, each ranked on its own: one recommendation per set
    expect(s.qualifying.map((r) => `${r.candidate.bundle}#${r.rank}`).sort()).toEqual([
      "v1-w256#1",
      "v2-w128#1",
      "v2-w256#1",
      "v2-w256-b#2"
    ]);
    expect(s.recommended.map((r) => r.candidate.bundle).sort()).toEqual(["v1-w256", "v2-w128", "v2-w256"]);
  });

  it("a candidate whose model or measure version is unknown is excluded with that reason, not ranked", () => {
    const s = selectConfigs([cand({bundle: "no-model", model: null}), cand({bundle: "ok"})], DEFAULT_CONSTRAINTS);
    expect(s.recommended.map((r) => r.candidate.bundle)).toEqual(["ok"]);
    expect(s.excluded.map((e) => [e.candidate.bundle, e.reasons.map((r) => r.code)])).toEqual([
      ["no-model", ["set_unknown"]]
    ]);
  });
});
