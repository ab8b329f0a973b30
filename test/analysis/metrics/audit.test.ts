import {describe, expect, it} from "vitest";

import {isSummary} from "../../../src/analysis/index.ts";
import {analyzeSpec, ev, gateOf, metricOf, point, request, tokenEvents} from "../../support/bundle.ts";

/** The audit's hand-built inputs (issue 10), each with the value worked out on paper. */
const summary = (v: unknown) => {
  if (!isSummary(v as never)) throw new Error("expected a distribution");
  return v as {p50: number | null; n: number; mean: number | null; note?: string};
};

describe("the counted tokens end where the server's count ends (item 1)", () => {
  it("20 one-token chunks 10 ms apart, then a finish chunk 10 ms later with usage 21: TPOT 10.0 ms", async () => {
    // first token at 100 ms, the 20th at 290 ms, the finish chunk (EOS token) at 300 ms:
    // TPOT = (300 − 100) / (21 − 1) = 10 ms; decode = 20 / 0.2 s = 100 tok/s
    const events = [...tokenEvents(20, 100, 10), ev(300, "finish"), ev(300.1, "usage"), ev(300.2, "done")];
    const requests = Array.from({length: 5}, (_, i) =>
      request(
        `r${i}`,
        i * 1000,
        events.map(([t, b, k, d]) => [t + i * 1000 * 1e6, b, k, d]),
        {
          out: 21,
          finishReason: "stop"
        }
      )
    );
    const r = await analyzeSpec({
      requests,
      config: {workload: {ignore_eos: false}, slo: {percentile: "p50"}, gates: {min_samples: 5}}
    });
    expect(summary(metricOf(r, "tpot_ms")).p50).toBeCloseTo(10, 9);
    expect(summary(metricOf(r, "decode_tok_s")).p50).toBeCloseTo(100, 9);
    expect(summary(metricOf(r, "e2e_ms")).p50).toBeCloseTo(300, 9);
  });

  it("with a length stop the finish chunk carries no token: TPOT over the text events only", async () => {
    // 20 tokens, the last at 290 ms, finish_reason length, usage 20: TPOT = (290 − 100) / 19 = 10 ms
    const events = [...tokenEvents(20, 100, 10), ev(300, "finish"), ev(300.2, "done")];
    const r = await analyzeSpec({requests: [request("a", 0, events, {out: 20, finishReason: "length"})]});
    expect(summary(metricOf(r, "tpot_ms")).mean).toBeCloseTo(10, 9);
    expect(summary(metricOf(r, "e2e_ms")).mean).toBeCloseTo(290, 9);
  });
});

describe("a server count the stream contradicts is flagged (item 2)", () => {
  it("16 one-token content events with usage 24 (no per-event counts): G8 warns, decode carries a note", async () => {
    const requests = Array.from({length: 5}, (_, i) =>
      request(`r${i}`, i * 1000, [...tokenEvents(16, i * 1000 + 100, 10), ev(i * 1000 + 260, "finish")], {
        out: 24,
        finishReason: "length"
      })
    );
    const r = await analyzeSpec({requests, config: {workload: {ignore_eos: false}}});
    expect(gateOf(r, "G8").status).toBe("warn");
    expect(gateOf(r, "G8").reason).toMatch(/120 tokens for 80 streamed events/); // 5 × 24 vs 5 × 16
    const decode = summary(metricOf(r, "decode_tok_s"));
    // from usage: (24 − 1) / 0.15 s = 153.3 tok/s; the stream alone would give (16 − 1) / 0.15 = 100
    expect(decode.mean).toBeCloseTo(153.333333, 5);
    expect(decode.note).toMatch(/disagree with the stream/);
  });
});

describe("a hang after the finish reason keeps the request a success and the window honest (item 3)", () => {
  it("one stream idles 120 s after its finish_reason: the window ends at its last event", async () => {
    // a closed loop of 24 requests back to back, 111 ms each (10 tokens from 10 ms, 10 ms apart, finish at
    // 110 ms, end at 111 ms); request 0 hangs: its transport ended 120 s later with timeout_body, while the
    // next one was already running (a slot freed by its finish would be reused by the collector the same way)
    const requests = Array.from({length: 24}, (_, i) => {
      const t0 = i * 111;
      const events = [...tokenEvents(10, t0 + 10, 10), ev(t0 + 110, "finish"), ev(t0 + 110.1, "usage")];
      return request(`r${i}`, t0, events, {
        out: 10,
        index: i,
        ...(i === 0 ? {endMs: 120_110, transportError: "timeout_body" as const} : {endMs: t0 + 111})
      });
    });
    const r = await analyzeSpec({requests, points: [point("concurrency", 1)]});
    const p = r.load_points[0]!;
    expect(p.n_success).toBe(24);
    // window: from the first start (0) to the last end (23 × 111 + 111 = 2664 ms), not to 120 s
    expect((metricOf(r, "window_s") as {value: number}).value).toBeCloseTo(2.664, 9);
    expect((metricOf(r, "request_throughput_rps") as {value: number}).value).toBeCloseTo(24 / 2.664, 9);
    expect(gateOf(r, "G29").status).toBe("warn");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("INCONCLUSIVE");
  });
});

describe("a model that stops at once (busy-machine flake of the real case suite)", () => {
  it("a stream of only a 'stop' finish chunk with usage 1 is a success with an empty answer", async () => {
    // the first (and only) generated token is the end-of-sequence token: it rides on the finish chunk at 40 ms
    const r = await analyzeSpec({
      requests: [
        request("a", 0, [ev(10, "role"), ev(40, "finish"), ev(40.1, "usage"), ev(40.2, "done")], {
          out: 1,
          finishReason: "stop"
        })
      ]
    });
    const p = r.load_points[0]!;
    expect(p.outcomes).toEqual({success: 1});
    expect(summary(metricOf(r, "ttft_ms")).mean).toBeCloseTo(40, 9);
  });

  it("a 'stop' finish chunk alone whose usage claims 32 tokens is empty_output: none of them arrived", async () => {
    // the hostile-bundle audit: every content event removed, usage 32 kept. The end-of-sequence token rides on the
    // finish chunk only when the rest of the count arrived as text (or the count is that one token); it counted
    // as a one-token success whose TTFT was the finish chunk's time (356 ms against a typical 46)
    const r = await analyzeSpec({
      requests: [
        request("a", 0, [ev(10, "role"), ev(40, "finish"), ev(40.1, "usage"), ev(40.2, "done")], {
          out: 32,
          finishReason: "stop"
        })
      ]
    });
    expect(r.load_points[0]!.outcomes).toEqual({empty_output: 1});
    expect(summary(metricOf(r, "ttft_ms")).n).toBe(0);
  });

  it("the same with finish_reason length and no token is still empty_output", async () => {
    const r = await analyzeSpec({
      requests: [
        request("a", 0, [ev(10, "role"), ev(40, "finish"), ev(40.2, "done")], {out: 0, finishReason: "length"})
      ]
    });
    expect(r.load_points[0]!.outcomes).toEqual({empty_output: 1});
  });
});
