import {describe, expect, it} from "vitest";

import {
  analyzeValid,
  failedRequest,
  MS,
  point,
  request,
  runOf,
  tokenEvents,
  type BundleSpec
} from "../../support/bundle.ts";

/**
 * Run-level metrics (src/analysis/metrics/throughput.ts) over the measurement window, against values
 * worked out by hand. Times in the comments are ms from the run's origin.
 */

const ns = (msValue: number) => Math.round(msValue * MS);
const usage = (promptTokens: number | null, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  reasoningTokens: null,
  cachedTokens: null
});
const at = (id: string, schedMs: number, out: number, inTokens: number, endMs: number, index: number) =>
  request(id, schedMs, tokenEvents(out, schedMs + 100, 1), {point: "concurrency-2", out, in: inTokens, endMs, index});

/**
 * A closed loop of 2 with 2 warmups, then 4 measured requests (dispatched at their schedule):
 *   w0  warmup   0 → 900            w1  warmup   0 → 950
 *   r0  1000 → 1300  out 10, in 100
 *   r1  1000 → 1600  out 20, in 200
 *   r2  1300 → 1800  out 30, in  50   (r0's slot)
 *   r3  1600 → 1650  HTTP 503         (r1's slot)
 *   c0  cooldown 1800 → 2500
 * window: first measured start 1000 → last measured end 1800 = 0.8 s (warmups and cooldown excluded)
 */
const spec = (): BundleSpec => ({
  points: [point("concurrency", 2, {warmup: 2})],
  requests: [
    {...at("w0", 0, 5, 10, 900, 0), phase: "warmup"},
    {...at("w1", 0, 5, 10, 950, 1), phase: "warmup"},
    at("r0", 1000, 10, 100, 1300, 0),
    at("r1", 1000, 20, 200, 1600, 1),
    at("r2", 1300, 30, 50, 1800, 2),
    failedRequest("r3", 1600, {point: "concurrency-2", index: 3, httpStatus: 503, endMs: 1650}),
    {...at("c0", 1800, 5, 10, 2500, 4), phase: "cooldown"}
  ]
});

describe("the measurement window and the rates over it", () => {
  it("window_s runs from the first measured start to the last measured end", async () => {
    const r = await analyzeValid(spec());
    expect(r.load_points[0]).toMatchObject({n: 4, n_success: 3, n_warmup: 2});
    expect(runOf(r, "window_s").value).toBeCloseTo(0.8, 12); // 1800 − 1000 ms
  });

  it("request_throughput_rps = successful / window; success_rate_pct = successful / measured", async () => {
    const r = await analyzeValid(spec());
    expect(runOf(r, "request_throughput_rps").value).toBeCloseTo(3 / 0.8, 9); // 3.75 req/s
    expect(runOf(r, "success_rate_pct").value).toBeCloseTo(75, 9); // 100 · 3/4
  });

  it("output_throughput_tok_s = Σ out / window; input_output_throughput_tok_s = Σ (in + out) / window", async () => {
    const r = await analyzeValid(spec());
    // Σ out = 10 + 20 + 30 = 60 → 75 tok/s; Σ in = 100 + 200 + 50 = 350 → (60 + 350)/0.8 = 512.5 tok/s
    expect(runOf(r, "output_throughput_tok_s").value).toBeCloseTo(75, 9);
    expect(runOf(r, "input_output_throughput_tok_s").value).toBeCloseTo(512.5, 9);
  });

  it("achieved_concurrency is the time-weighted mean in flight (dispatch to end) over the window", async () => {
    // 1000–1300: r0, r1 → 2 · 300 = 600;  1300–1600: r1, r2 → 2 · 300 = 600 (r0 ends as r2 starts)
    // 1600–1650: r2, r3 → 2 · 50 = 100;    1650–1800: r2 → 1 · 150 = 150
    // (600 + 600 + 100 + 150) / 800 = 1450 / 800 = 1.8125
    expect(runOf(await analyzeValid(spec()), "achieved_concurrency").value).toBeCloseTo(1.8125, 9);
  });

  it("interactivity_share_tok_s = output throughput / achieved concurrency", async () => {
    // 75 tok/s / 1.8125 = 41.3793… tok/s per request in flight
    expect(runOf(await analyzeValid(spec()), "interactivity_share_tok_s").value).toBeCloseTo(75 / 1.8125, 9);
  });

  it("achieved_rate_rps = (n − 1) / (last dispatch − first dispatch)", async () => {
    // dispatches 1000, 1000, 1300, 1600: (4 − 1) / 0.6 s = 5 req/s
    expect(runOf(await analyzeValid(spec()), "achieved_rate_rps").value).toBeCloseTo(5, 9);
  });

  it("a failed request that ends last still closes the window", async () => {
    // r3 now fails at 1600 and closes at 2000: window 1000 → 2000 = 1 s; 3 successes → 3 req/s
    const s = spec();
    s.requests[5] = failedRequest("r3", 1600, {point: "concurrency-2", index: 3, httpStatus: 503, endMs: 2000});
    const r = await analyzeValid(s);
    expect(runOf(r, "window_s").value).toBeCloseTo(1, 12);
    expect(runOf(r, "request_throughput_rps").value).toBeCloseTo(3, 9);
    expect(runOf(r, "output_throughput_tok_s").value).toBeCloseTo(60, 9);
  });

  it("in open loop the window starts at the first schedule, even when that request left late", async () => {
    // rate 2: r0 scheduled 0, dispatched 300, tokens 400…, closed 500; r1 scheduled 500, dispatched 500,
    // closed 900 → window 0 → 900 = 0.9 s; 2 successes → 2/0.9 req/s
    const r = await analyzeValid({
      points: [point("rate", 2)],
      requests: [
        request("r0", 0, tokenEvents(3, 400, 10), {point: "rate-2", tDispNs: ns(300), tHdrNs: ns(301), endMs: 500}),
        request("r1", 500, tokenEvents(3, 600, 10), {point: "rate-2", index: 1, endMs: 900})
      ]
    });
    expect(runOf(r, "window_s").value).toBeCloseTo(0.9, 12);
    expect(runOf(r, "request_throughput_rps").value).toBeCloseTo(2 / 0.9, 9);
    // dispatches 300 and 500: (2 − 1)/0.2 s = 5 req/s, although the schedule asked for 2
    expect(runOf(r, "achieved_rate_rps").value).toBeCloseTo(5, 9);
  });
});

describe("token throughputs are null, not an undercount, when a count is missing", () => {
  it("a successful request without a prompt count: input_output is null, output is not", async () => {
    const s = spec();
    s.requests[3] = {...at("r1", 1000, 20, 200, 1600, 1), usage: usage(null, 20)};
    const r = await analyzeValid(s);
    expect(runOf(r, "output_throughput_tok_s").value).toBeCloseTo(75, 9); // Σ out still 60 over 0.8 s
    expect(runOf(r, "input_output_throughput_tok_s")).toMatchObject({
      value: null,
      reason: "1 token counts missing among successful requests"
    });
  });

  it("a successful request without an output count: both are null", async () => {
    const s = spec();
    s.requests[3] = at("r1", 1000, 20, 200, 1600, 1);
    s.requests[3] = {...s.requests[3], usage: null, usageSource: "none"};
    const r = await analyzeValid(s);
    expect(runOf(r, "output_throughput_tok_s")).toMatchObject({
      value: null,
      reason: "1 successful requests lack an output token count"
    });
    expect(runOf(r, "input_output_throughput_tok_s").value).toBeNull();
    expect(runOf(r, "request_throughput_rps").value).toBeCloseTo(3.75, 9); // the request still succeeded
  });
});
