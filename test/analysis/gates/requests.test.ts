import {describe, expect, it} from "vitest";

import {sampleSize, successClassification} from "../../../src/analysis/gates/requests.ts";
import type {GateContext, PointFacts} from "../../../src/analysis/gates/types.ts";
import {RunConfigSpec} from "../../../src/analysis/schema/index.ts";
import {
  analyzeSpec,
  cleanRun,
  ev,
  gateOf,
  lane,
  metricOf,
  point,
  request,
  tokenEvents,
  type BundleSpec
} from "../../support/bundle.ts";

type Failure = "http_error" | "inband_error" | "truncated_stream" | "empty_output";

/** A failed request in the 100 ms slot that starts at `schedMs` (it holds the slot until the next one starts). */
function failed(id: string, schedMs: number, kind: Failure, index: number) {
  const s = schedMs;
  const end = {endMs: s + 100, index};
  switch (kind) {
    case "http_error":
      return request(id, s, [], {...end, httpStatus: 500, out: null, finishReason: null, errorMessage: "boom"});
    case "inband_error": // tokens, then an error event, then [DONE]
      return request(id, s, [...tokenEvents(3, s + 5, 5), ev(s + 20, "error"), ev(s + 21, "done")], {
        ...end,
        finishReason: null
      });
    case "truncated_stream": // tokens, then EOF: neither [DONE] nor a finish_reason
      return request(id, s, tokenEvents(3, s + 5, 5), {...end, finishReason: null});
    case "empty_output": // a terminal marker without any token
      return request(id, s, [ev(s + 5, "finish"), ev(s + 6, "done")], {...end, out: 0, finishReason: "stop"});
  }
}

/** `n` back-to-back requests on one slot, those at `at` replaced by failures of the given kinds. */
function runWith(n: number, at: Record<number, Failure>, over: Partial<BundleSpec> = {}): BundleSpec {
  const requests = lane("r", n).map((r, i) => (at[i] ? failed(`r${i}`, i * 100, at[i]!, i) : r));
  return cleanRun(requests, over);
}

describe("G2 success classification", () => {
  it("passes when every measured request succeeded", async () => {
    const r = await analyzeSpec(runWith(20, {}));
    expect(gateOf(r, "G2").status).toBe("pass");
    expect(gateOf(r, "G2").reason).toBe("all 20 measured requests succeeded");
  });

  it("classifies an HTTP 500 as http_error", async () => {
    const r = await analyzeSpec(runWith(21, {3: "http_error"}, {config: {gates: {max_error_rate: 0.05}}}));
    expect(gateOf(r, "G2").status).toBe("info");
    expect(gateOf(r, "G2").reason).toBe("20/21 succeeded; http_error 1");
  });

  it("classifies an in-band error event followed by [DONE] as inband_error, not a success", async () => {
    const r = await analyzeSpec(runWith(21, {3: "inband_error"}, {config: {gates: {max_error_rate: 0.05}}}));
    expect(gateOf(r, "G2").reason).toBe("20/21 succeeded; inband_error 1");
  });

  it("classifies tokens without [DONE] or finish_reason as truncated_stream", async () => {
    const r = await analyzeSpec(runWith(21, {3: "truncated_stream"}, {config: {gates: {max_error_rate: 0.05}}}));
    expect(gateOf(r, "G2").reason).toBe("20/21 succeeded; truncated_stream 1");
  });

  it("classifies a terminal marker without any token as empty_output", async () => {
    const r = await analyzeSpec(runWith(21, {3: "empty_output"}, {config: {gates: {max_error_rate: 0.05}}}));
    expect(gateOf(r, "G2").reason).toBe("20/21 succeeded; empty_output 1");
  });

  it("discloses failures without changing the verdict, and keeps them out of latency", async () => {
    // 4 failures of 24 = 16.7 % ≤ 20 % allowed here; 20 successes meet the P95 floor
    const r = await analyzeSpec(
      runWith(
        24,
        {2: "http_error", 5: "inband_error", 8: "truncated_stream", 11: "empty_output"},
        {config: {gates: {max_error_rate: 0.2}}}
      )
    );
    expect(gateOf(r, "G2").status).toBe("info");
    expect(gateOf(r, "G2").reason).toBe(
      "20/24 succeeded; http_error 1, inband_error 1, truncated_stream 1, empty_output 1"
    );
    expect((metricOf(r, "ttft_ms") as {n: number}).n).toBe(20);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("is not evaluable for a declared load point without measured requests", async () => {
    const r = await analyzeSpec(runWith(20, {}, {points: [point("concurrency", 1), point("concurrency", 2)]}));
    const g = gateOf(r, "G2");
    expect(g.status).toBe("not_evaluable");
    expect(g.points).toEqual([
      {point: "concurrency-1", status: "pass", reason: "all 20 measured requests succeeded"},
      {point: "concurrency-2", status: "not_evaluable", reason: "no measured requests"}
    ]);
  });
});

describe("G3 error rate", () => {
  it("passes an error rate of exactly 1 % (1 of 100 failed)", async () => {
    const r = await analyzeSpec(runWith(100, {50: "http_error"}));
    expect(gateOf(r, "G3").status).toBe("pass");
    expect(gateOf(r, "G3").reason).toBe("1/100 failed (1.0 %)");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails an error rate of 2 % (2 of 100 failed), making the run INVALID", async () => {
    const r = await analyzeSpec(runWith(100, {30: "http_error", 60: "truncated_stream"}));
    expect(gateOf(r, "G3").status).toBe("fail");
    expect(gateOf(r, "G3").reason).toBe("2/100 failed (2.0 %) > 1.0 %");
    // reported per failure class with the point
    expect(r.load_points[0]!.outcomes).toEqual({success: 98, http_error: 1, truncated_stream: 1});
    expect(r.verdict).toBe("INVALID");
  });

  it("fails just above the threshold: 1 of 99 failed = 1.01 % > 1 %", async () => {
    const r = await analyzeSpec(runWith(99, {50: "inband_error"}));
    expect(gateOf(r, "G3").status).toBe("fail");
    expect(r.verdict).toBe("INVALID");
  });

  it("uses gates.max_error_rate: 1 of 20 = 5 % passes a 5 % threshold", async () => {
    const r = await analyzeSpec(
      runWith(20, {7: "http_error"}, {config: {gates: {max_error_rate: 0.05, min_samples: 5}}})
    );
    expect(gateOf(r, "G3").status).toBe("pass");
    expect(gateOf(r, "G3").threshold).toBe("≤ 5.0 %");
  });

  it("uses gates.max_error_rate: 2 of 20 = 10 % fails a 5 % threshold", async () => {
    const r = await analyzeSpec(
      runWith(20, {7: "http_error", 9: "http_error"}, {config: {gates: {max_error_rate: 0.05, min_samples: 5}}})
    );
    expect(gateOf(r, "G3").status).toBe("fail");
    expect(gateOf(r, "G3").reason).toBe("2/20 failed (10.0 %) > 5.0 %");
    expect(r.verdict).toBe("INVALID");
  });

  it("is not evaluable without measured requests, which leaves the run INCONCLUSIVE", async () => {
    // only warmup requests: nothing measured
    const warm = lane("w", 20, {phase: "warmup"});
    const r = await analyzeSpec(cleanRun(warm, {points: [point("concurrency", 1, {warmup: 20})]}));
    expect(gateOf(r, "G3").status).toBe("not_evaluable");
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.verdict_reasons).toContain("G3 error_rate: no measured requests (not evaluable)");
  });
});

describe("G4 sample size", () => {
  it("passes n = 20 successes with the defaults (min_samples 20, P95 floor 20)", async () => {
    const r = await analyzeSpec(runWith(20, {}));
    // floors: P50 5, P90 10, P95 20, P99 100 → only the P99 is withheld at n = 20
    expect(gateOf(r, "G4").status).toBe("pass");
    expect(gateOf(r, "G4").reason).toBe("n=20; withheld: P99");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns at n = 19 (< 20), making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(runWith(19, {}));
    expect(gateOf(r, "G4").status).toBe("warn");
    expect(gateOf(r, "G4").reason).toBe("n=19 < 20; withheld: P95, P99");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("counts successes, not measured requests: 20 measured with 1 failure is n = 19", async () => {
    // 1 of 20 = 5 % passes G3 at a 5 % threshold; 19 successes are below the P95 floor
    const r = await analyzeSpec(runWith(20, {4: "http_error"}, {config: {gates: {max_error_rate: 0.05}}}));
    expect(gateOf(r, "G4").reason).toBe("n=19 < 20; withheld: P95, P99");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("with min_samples 5 and the default slo.percentile p95, n = 5 is INCONCLUSIVE (floor max(5, 20) = 20)", async () => {
    const r = await analyzeSpec(runWith(5, {}, {config: {gates: {min_samples: 5}}}));
    const g = gateOf(r, "G4");
    expect(g.threshold).toBe("≥ 20 successful requests (min_samples 5, P95 floor 20)");
    expect(g.status).toBe("warn");
    expect(g.reason).toBe("n=5 < 20; withheld: P90, P95, P99");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("with min_samples 5 and slo.percentile p50, n = 5 passes (floor max(5, 5) = 5)", async () => {
    const r = await analyzeSpec(runWith(5, {}, {config: {gates: {min_samples: 5}, slo: {percentile: "p50"}}}));
    expect(gateOf(r, "G4").status).toBe("pass");
    expect(gateOf(r, "G4").reason).toBe("n=5; withheld: P90, P95, P99");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("with min_samples 5 and slo.percentile p50, n = 4 warns", async () => {
    const r = await analyzeSpec(runWith(4, {}, {config: {gates: {min_samples: 5}, slo: {percentile: "p50"}}}));
    expect(gateOf(r, "G4").status).toBe("warn");
    expect(gateOf(r, "G4").reason).toBe("n=4 < 5; withheld: P50, P90, P95, P99");
  });

  it("with slo.percentile p90, n = 9 warns and n = 10 passes", async () => {
    const config = {gates: {min_samples: 5}, slo: {percentile: "p90" as const}};
    expect(gateOf(await analyzeSpec(runWith(9, {}, {config})), "G4").status).toBe("warn");
    expect(gateOf(await analyzeSpec(runWith(10, {}, {config})), "G4").status).toBe("pass");
  });

  it("with slo.percentile p99, n = 99 warns and n = 100 passes", async () => {
    const config = {slo: {percentile: "p99" as const}};
    const below = gateOf(await analyzeSpec(runWith(99, {}, {config})), "G4");
    expect(below.status).toBe("warn");
    expect(below.reason).toBe("n=99 < 100; withheld: P99");
    const at = gateOf(await analyzeSpec(runWith(100, {}, {config})), "G4");
    expect(at.status).toBe("pass");
    expect(at.reason).toBe("n=100");
  });

  it("a min_samples above the percentile floor rules: min_samples 30 warns at n = 29, passes at n = 30", async () => {
    const config = {gates: {min_samples: 30}};
    const below = gateOf(await analyzeSpec(runWith(29, {}, {config})), "G4");
    expect(below.threshold).toBe("≥ 30 successful requests (min_samples 30, P95 floor 20)");
    expect(below.reason).toBe("n=29 < 30; withheld: P99");
    expect(gateOf(await analyzeSpec(runWith(30, {}, {config})), "G4").status).toBe("pass");
  });

  it("min_samples 1 is a config error: RunConfigSpec rejects it", () => {
    const parsed = RunConfigSpec.safeParse({
      target: {base_url: "http://127.0.0.1:8000/v1", model: "m"},
      load: {mode: "concurrency", values: [1]},
      gates: {min_samples: 1}
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe(
      "min_samples below 5 cannot support a median (the median floor is 5)"
    );
  });

  it("a bundle whose resolved config says min_samples: 1 fails G1 and is INVALID", async () => {
    const r = await analyzeSpec({
      ...runWith(20, {}),
      beforeSeal: (f) =>
        (f["config.resolved.yaml"] = f["config.resolved.yaml"]!.replace("min_samples: 20", "min_samples: 1"))
    });
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(gateOf(r, "G1").reason).toMatch(/config\.resolved\.yaml.*min_samples below 5/);
    expect(r.verdict).toBe("INVALID");
  });
});

describe("G2 and G4 state the numbers their status rests on", () => {
  const ctx = {config: {gates: {min_samples: 20}, slo: {percentile: "p95"}}} as unknown as GateContext;
  const point = (measured: number, successes: number, outcomes: Record<string, number>) =>
    ({point: {id: "concurrency-1"}, totals: {measured, successes}, outcomes}) as unknown as PointFacts;

  it("G2's failures come with the outcome counts", () => {
    const outcomes = {success: 19, http_error: 1};
    expect(successClassification.evaluatePoint(point(20, 19, outcomes), ctx)).toEqual({
      status: "info",
      reason: "19/20 succeeded; http_error 1",
      evidence: {outcomes}
    });
  });

  it("G4 gives n, below the floor and at it", () => {
    expect(sampleSize.evaluatePoint(point(19, 19, {}), ctx)).toEqual({
      status: "warn",
      reason: "n=19 < 20; withheld: P95, P99",
      evidence: {n: 19}
    });
    expect(sampleSize.evaluatePoint(point(20, 20, {}), ctx)).toEqual({
      status: "pass",
      reason: "n=20; withheld: P99",
      evidence: {n: 20}
    });
  });
});
