import {describe, expect, it} from "vitest";

import {analyzeValid, failedRequest, request, runOf, tokenEvents, type BundleSpec} from "../../support/bundle.ts";

/**
 * Goodput (src/analysis/metrics/goodput.ts and goodput_pct / goodput_rps in throughput.ts) against values
 * worked out by hand. Default SLOs: TTFT ≤ 2000 ms, ITL ≤ 60 ms, E2E ≤ 30000 ms. Times are ms.
 */

/** Request i scheduled at i · 5 s: 10 one-token events from +ttft every 10 ms, closed 1 ms after the last. */
const fast = (i: number, ttft = 100, out = 10) =>
  request(`r${i}`, i * 5000, tokenEvents(out, i * 5000 + ttft, 10), {index: i, out});

describe("goodput_pct and goodput_rps: failures stay in the denominator", () => {
  // 20 measured requests: r4 and r9 fail (HTTP 500), r14 is slow (TTFT 2100 ms > 2000), the other 17 are
  // good (TTFT 100, ITL (190 − 100)/9 = 10 ms, E2E 190 ms). Window: 0 → r19's end 95000 + 191 = 95.191 s.
  const spec = (): BundleSpec => ({
    requests: Array.from({length: 20}, (_, i) =>
      i === 4 || i === 9 ? failedRequest(`r${i}`, i * 5000, {index: i}) : fast(i, i === 14 ? 2100 : 100)
    )
  });

  it("2 failed + 1 slow out of 20 → goodput 17/20 = 85 %, success rate 18/20 = 90 %", async () => {
    const r = await analyzeValid(spec());
    expect(r.load_points[0]).toMatchObject({n: 20, n_success: 18});
    expect(runOf(r, "goodput_pct").value).toBeCloseTo(85, 9);
    expect(runOf(r, "goodput_pct").note).toBeUndefined();
    expect(runOf(r, "success_rate_pct").value).toBeCloseTo(90, 9);
  });

  it("goodput_rps = good / window = 17 / 95.191 s", async () => {
    const r = await analyzeValid(spec());
    expect(runOf(r, "window_s").value).toBeCloseTo(95.191, 9);
    expect(runOf(r, "goodput_rps").value).toBeCloseTo(17 / 95.191, 9);
    expect(runOf(r, "request_throughput_rps").value).toBeCloseTo(18 / 95.191, 9);
  });

  it("an ITL or an E2E miss is a miss too", async () => {
    // SLO E2E lowered to 1000 ms. r0 good (E2E 190); r1: 10 tokens 70 ms apart → ITL 630/9 = 70 > 60
    // (E2E 730 passes); r2: TTFT 600, 10 tokens 50 ms apart → E2E 600 + 450 = 1050 > 1000 (ITL 50 passes)
    // → 1 good of 3
    const r = await analyzeValid({
      config: {slo: {e2e_ms: 1000}},
      requests: [
        fast(0),
        request("r1", 5000, tokenEvents(10, 5100, 70), {index: 1}),
        request("r2", 10000, tokenEvents(10, 10600, 50), {index: 2})
      ]
    });
    expect(runOf(r, "goodput_pct").value).toBeCloseTo(100 / 3, 9);
    expect(runOf(r, "success_rate_pct").value).toBeCloseTo(100, 9);
  });
});

describe("short outputs and unjudgeable requests", () => {
  it("a 1-token answer has no ITL: it misses by default, passes when the clause is not applicable", async () => {
    // r0–r2 good; r3 yields 1 token → 3/4 = 75 % by default, 4/4 = 100 % with short_output: not_applicable
    const requests = [fast(0), fast(1), fast(2), fast(3, 100, 1)];
    expect(runOf(await analyzeValid({requests}), "goodput_pct").value).toBeCloseTo(75, 9);
    const lenient = await analyzeValid({requests, config: {slo: {short_output: "not_applicable"}}});
    expect(runOf(lenient, "goodput_pct").value).toBeCloseTo(100, 9);
  });

  it("a success without an output count stays in the denominator as a miss, with a note", async () => {
    // r0–r2 good; r3 passes TTFT and E2E but has no usage, so its ITL cannot be judged: 3/4 = 75 % (a lower bound)
    // window: 0 → r3's end 15000 + 191 = 15.191 s → goodput_rps 3/15.191
    const r = await analyzeValid({
      requests: [fast(0), fast(1), fast(2), {...fast(3), usage: null, usageSource: "none"}]
    });
    const pct = runOf(r, "goodput_pct");
    expect(pct.value).toBeCloseTo(75, 9);
    expect(pct.note).toMatch(/lower bound: 1 successful requests could not be judged/);
    const rps = runOf(r, "goodput_rps");
    expect(rps.value).toBeCloseTo(3 / 15.191, 9);
    expect(rps.note).toMatch(/lower bound/);
  });

  it("a success without an output count that already misses TTFT is judged: a plain miss, no note", async () => {
    // r1: TTFT 2500 > 2000 → bad whatever its ITL; 1/2 = 50 %
    const r = await analyzeValid({requests: [fast(0), {...fast(1, 2500), usage: null, usageSource: "none"}]});
    expect(runOf(r, "goodput_pct")).toMatchObject({value: 50});
    expect(runOf(r, "goodput_pct").note).toBeUndefined();
  });

  it("when no success can be judged, goodput is unknown (null with a reason), not 0", async () => {
    const r = await analyzeValid({
      requests: [0, 1, 2].map((i) => ({...fast(i), usage: null, usageSource: "none" as const}))
    });
    expect(runOf(r, "success_rate_pct").value).toBeCloseTo(100, 9);
    for (const id of ["goodput_pct", "goodput_rps"])
      expect(runOf(r, id), id).toMatchObject({
        value: null,
        reason: "none of the 3 successful requests can be judged: output token count unknown"
      });
  });
});
