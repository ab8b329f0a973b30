import {describe, expect, it} from "vitest";

import {analyzeValid, ev, failedRequest, MS, point, request, summaryOf, tokenEvents} from "../../support/bundle.ts";

/**
 * Latency metrics (src/analysis/metrics/latency.ts) against values worked out by hand from hand-built
 * requests. Times in the comments are ms from the run's origin; every expected value is written out.
 */

const ns = (msValue: number) => Math.round(msValue * MS);

/** The one value of a request metric over a point holding one request (n = 1: its mean is the value). */
const only = (r: Awaited<ReturnType<typeof analyzeValid>>, id: string) => {
  const s = summaryOf(r, id);
  expect(s.n, id).toBe(1);
  return s.mean;
};

describe("TTFT and E2E from the schedule in open loop (rate mode)", () => {
  // scheduled 100, the client starts it (t_call) 112, TCP connected 120, TLS done 124, bytes in the socket
  // (t_disp) 130, headers 140, first body byte 145, a role-only chunk 150, content 200, 210, 220, a finish
  // chunk 230 (finish_reason length: no token on it), usage 231, [DONE] 232, stream closed 240
  const events = [ev(150, "role"), ...tokenEvents(3, 200, 10), ev(230, "finish"), ev(231, "usage"), ev(232, "done")];
  const bundle = () =>
    analyzeValid({
      points: [point("rate", 10)],
      requests: [
        request("a", 100, events, {
          point: "rate-10",
          tCallNs: ns(112),
          tConnNs: ns(120),
          tTlsNs: ns(124),
          tDispNs: ns(130),
          tHdrNs: ns(140),
          tByte1Ns: ns(145),
          endMs: 240,
          out: 3
        })
      ]
    });

  it("ttft_ms runs from the schedule, ttft_dispatch_ms from the dispatch", async () => {
    const r = await bundle();
    expect(only(r, "ttft_ms")).toBeCloseTo(100, 9); // 200 − 100 (t_tok1 − t_sched)
    expect(only(r, "ttft_dispatch_ms")).toBeCloseTo(70, 9); // 200 − 130 (t_tok1 − t_disp)
    expect(only(r, "ttft_content_ms")).toBeCloseTo(100, 9); // no reasoning: the first content delta, 200 − 100
  });

  it("the first event and the first byte are diagnostics that a role-only chunk moves", async () => {
    const r = await bundle();
    expect(only(r, "ttft_first_event_ms")).toBeCloseTo(50, 9); // role chunk 150 − 100
    expect(only(r, "ttft_first_byte_ms")).toBeCloseTo(45, 9); // 145 − 100
  });

  it("e2e_ms ends at the last token event; request_time_ms at the stream's close", async () => {
    const r = await bundle();
    expect(only(r, "e2e_ms")).toBeCloseTo(120, 9); // last content 220 − 100: finish, usage and [DONE] do not move it
    expect(only(r, "e2e_dispatch_ms")).toBeCloseTo(90, 9); // 220 − 130
    expect(only(r, "request_time_ms")).toBeCloseTo(140, 9); // close 240 − 100
  });

  it("dispatch lag, connection setup, connect and TLS split the time before the bytes leave (bundle v2)", async () => {
    const r = await bundle();
    expect(only(r, "dispatch_lag_ms")).toBeCloseTo(12, 9); // t_call − t_sched = 112 − 100
    expect(only(r, "connection_setup_ms")).toBeCloseTo(18, 9); // t_disp − t_call = 130 − 112
    expect(only(r, "connect_ms")).toBeCloseTo(8, 9); // t_conn − t_call = 120 − 112
    expect(only(r, "tls_ms")).toBeCloseTo(4, 9); // t_tls − t_conn = 124 − 120
  });
});

describe("TTFT from the slot-free time in closed loop", () => {
  it("the second request starts when the first one's slot freed, not when it was dispatched", async () => {
    // concurrency 1: r0 scheduled and dispatched at 0, tokens 40, 50, 60, closed 61 → its slot frees at 61;
    // r1 is scheduled at 61 (the slot-free time), dispatched 63, tokens 111, 121, closed 122
    const r = await analyzeValid({
      requests: [
        request("r0", 0, tokenEvents(3, 40, 10)),
        request("r1", 61, tokenEvents(2, 111, 10), {tDispNs: ns(63), tHdrNs: ns(64), index: 1})
      ]
    });
    const ttft = summaryOf(r, "ttft_ms");
    // r0: 40 − 0 = 40; r1: 111 − 61 = 50
    expect(ttft).toMatchObject({n: 2, min: 40, max: 50});
    expect(ttft.mean).toBeCloseTo(45, 9);
    // from dispatch: r0 40 − 0 = 40, r1 111 − 63 = 48
    expect(summaryOf(r, "ttft_dispatch_ms")).toMatchObject({n: 2, min: 40, max: 48});
    // E2E: r0 60 − 0 = 60, r1 121 − 61 = 60
    expect(summaryOf(r, "e2e_ms")).toMatchObject({n: 2, min: 60, max: 60});
  });

  it("without a recorded schedule the start is the dispatch: both views coincide", async () => {
    // dispatched 200, first token 230: 30 ms from either start
    const r = await analyzeValid({requests: [request("a", 200, tokenEvents(2, 230, 10), {tSchedNs: null})]});
    expect(only(r, "ttft_ms")).toBeCloseTo(30, 9);
    expect(only(r, "ttft_dispatch_ms")).toBeCloseTo(30, 9);
  });
});

describe("which event ends TTFT", () => {
  it("a role-only chunk (and an empty delta) end ttft_first_event_ms but not ttft_ms", async () => {
    // scheduled 0: role-only chunk 5, empty content delta 20, first real content 80, then 90
    const events = [ev(5, "role"), ev(20, "empty"), ...tokenEvents(2, 80, 10), ev(95, "done")];
    const r = await analyzeValid({requests: [request("a", 0, events, {out: 2})]});
    expect(only(r, "ttft_first_event_ms")).toBeCloseTo(5, 9); // 5 − 0
    expect(only(r, "ttft_ms")).toBeCloseTo(80, 9); // 80 − 0
  });

  it("reasoning first: ttft_ms at the first reasoning delta, ttft_content_ms at the first content delta", async () => {
    // scheduled 0: reasoning 50, 60, 70; content 200, 210; usage counts all 5
    const events = [...tokenEvents(3, 50, 10, {kind: "reasoning"}), ...tokenEvents(2, 200, 10), ev(215, "done")];
    const r = await analyzeValid({requests: [request("a", 0, events, {out: 5})]});
    expect(only(r, "ttft_ms")).toBeCloseTo(50, 9); // 50 − 0
    expect(only(r, "ttft_content_ms")).toBeCloseTo(200, 9); // 200 − 0
    expect(only(r, "e2e_ms")).toBeCloseTo(210, 9); // last token event 210 − 0
  });

  it("a tool call is visible output: ttft_content_ms ends at it, after the reasoning", async () => {
    // scheduled 0: reasoning 30, tool-call arguments 90, 100
    const events = [ev(30, "reasoning"), ...tokenEvents(2, 90, 10, {kind: "tool_call"}), ev(105, "done")];
    const r = await analyzeValid({requests: [request("a", 0, events, {out: 3})]});
    expect(only(r, "ttft_ms")).toBeCloseTo(30, 9);
    expect(only(r, "ttft_content_ms")).toBeCloseTo(90, 9);
  });
});

describe("dispatch lag by bundle version", () => {
  // scheduled 100, t_call 103, connected 106 (http: no TLS), t_disp 110, tokens 150, 160
  const base = {tDispNs: ns(110), tHdrNs: ns(120)};

  it("bundle v2: dispatch_lag_ms = t_call − t_sched; connection setup is apart", async () => {
    const r = await analyzeValid({
      requests: [request("a", 100, tokenEvents(2, 150, 10), {...base, tCallNs: ns(103), tConnNs: ns(106)})]
    });
    expect(only(r, "dispatch_lag_ms")).toBeCloseTo(3, 9); // 103 − 100
    expect(only(r, "connection_setup_ms")).toBeCloseTo(7, 9); // 110 − 103
    expect(only(r, "connect_ms")).toBeCloseTo(3, 9); // 106 − 103
    expect(summaryOf(r, "tls_ms").n).toBe(0); // no TLS handshake recorded: no value, not 0
  });

  it("bundle v1 (no t_call): dispatch_lag_ms = t_disp − t_sched, connection setup unknown", async () => {
    const r = await analyzeValid({
      manifest: {schemaVersion: 1},
      requests: [request("a", 100, tokenEvents(2, 150, 10), base)]
    });
    expect(r.schema_version).toBe(1);
    expect(only(r, "dispatch_lag_ms")).toBeCloseTo(10, 9); // 110 − 100
    expect(summaryOf(r, "connection_setup_ms")).toMatchObject({n: 0, mean: null});
    expect(summaryOf(r, "connect_ms")).toMatchObject({n: 0, mean: null});
  });

  it("a re-sent request is late from its first attempt's start", async () => {
    // scheduled 100; attempt 1 starts 101 on a reused socket and fails at 104; attempt 2 starts 105,
    // connects 106, dispatches 108: lag = 101 − 100 = 1, setup = 108 − 101 = 7, connect = 106 − 101 = 5
    const r = await analyzeValid({
      requests: [
        request("a", 100, tokenEvents(2, 150, 10), {
          tCallNs: ns(105),
          tConnNs: ns(106),
          tDispNs: ns(108),
          tHdrNs: ns(120),
          attempts: [
            {tCallNs: ns(101), tEndNs: ns(104), socketReused: true, transportError: "conn_reset", errorMessage: null}
          ]
        })
      ]
    });
    expect(only(r, "dispatch_lag_ms")).toBeCloseTo(1, 9);
    expect(only(r, "connection_setup_ms")).toBeCloseTo(7, 9);
    expect(only(r, "connect_ms")).toBeCloseTo(5, 9);
  });

  it("dispatch lag counts failed requests too; TTFT only successes", async () => {
    // a: scheduled 0, t_call 4, tokens from 50 → lag 4, TTFT 50
    // b: scheduled 1000, t_call 1006, HTTP 500 without events → lag 6, no TTFT
    const r = await analyzeValid({
      requests: [
        request("a", 0, tokenEvents(2, 50, 10), {tCallNs: ns(4), tDispNs: ns(5), tHdrNs: ns(6)}),
        failedRequest("b", 1000, {index: 1, tCallNs: ns(1006), tDispNs: ns(1007), tHdrNs: ns(1008), endMs: 1010})
      ]
    });
    const lag = summaryOf(r, "dispatch_lag_ms");
    expect(lag).toMatchObject({n: 2, min: 4, max: 6});
    expect(lag.mean).toBeCloseTo(5, 9); // (4 + 6) / 2
    expect(summaryOf(r, "ttft_ms")).toMatchObject({n: 1, min: 50, max: 50});
  });
});

describe("percentiles of TTFT: nearest rank with floors", () => {
  const TTFTS = [12, 7, 30, 18, 25, 3, 41, 9, 15, 22, 60, 5, 33, 27, 11, 48, 19, 36, 90, 14];
  // request i scheduled at i s, one token at i s + TTFT, a second 10 ms later
  const bundle = (ttfts: number[]) =>
    analyzeValid({
      requests: ttfts.map((t, i) => request(`r${i}`, i * 1000, tokenEvents(2, i * 1000 + t, 10), {index: i}))
    });

  it("n = 20: P95 is the 19th smallest, P90 the 18th, P50 the mean of the 10th and 11th; P99 withheld", async () => {
    // sorted: 3 5 7 9 11 12 14 15 18 19 | 22 25 27 30 33 36 41 48 60 90
    // P95: ⌈0.95 · 20⌉ = 19 → 60; P90: ⌈0.9 · 20⌉ = 18 → 48; P50: (19 + 22) / 2 = 20.5; P99 needs n ≥ 100
    const s = summaryOf(await bundle(TTFTS), "ttft_ms");
    expect(s).toMatchObject({n: 20, p95: 60, p90: 48, p50: 20.5, p99: null, min: 3, max: 90});
    expect(s.mean).toBeCloseTo(525 / 20, 9); // Σ = 525
    expect(s.withheld.p99).toMatch(/n=20 < 100/);
  });

  it("n = 19: P95 is withheld (it would be the maximum); P90 is the 18th smallest; the median the 10th", async () => {
    // without the 90: sorted 3 5 7 9 11 12 14 15 18 | 19 | 22 25 27 30 33 36 41 48 60
    // P95: ⌈0.95 · 19⌉ = 19 = n → withheld; P90: ⌈0.9 · 19⌉ = 18 → 48; P50: 10th → 19
    const s = summaryOf(await bundle(TTFTS.filter((t) => t !== 90)), "ttft_ms");
    expect(s).toMatchObject({n: 19, p95: null, p90: 48, p50: 19});
    expect(s.withheld.p95).toMatch(/n=19 < 20/);
  });

  it("the median of an even n is the mean of the two middle values", async () => {
    // 6 values sorted 7 12 | 18 30 | 41 60 → (18 + 30) / 2 = 24; P90 needs n ≥ 10
    const s = summaryOf(await bundle([30, 7, 60, 18, 41, 12]), "ttft_ms");
    expect(s).toMatchObject({n: 6, p50: 24, p90: null});
  });

  it("below 5 values no median is printed", async () => {
    const s = summaryOf(await bundle([30, 7, 60, 18]), "ttft_ms");
    expect(s).toMatchObject({n: 4, p50: null});
    expect(s.mean).toBeCloseTo(115 / 4, 9);
  });
});
