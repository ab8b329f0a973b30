import {describe, expect, it} from "vitest";

import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import {itlTokenMs, tokensPerEvent} from "../../../src/analysis/metrics/chunks.ts";
import type {SseEvent} from "../../../src/analysis/schema/records.ts";
import {
  decodeSpanMs,
  decodeTokS,
  e2eOutputTokS,
  interactivityTokS,
  prefillTokS,
  serverDecodeTokS,
  serverPrefillTokS,
  tpotMs
} from "../../../src/analysis/metrics/speed.ts";
import {
  achievedConcurrency,
  achievedRateRps,
  goodputRps,
  interactivityShareTokS,
  outputThroughputTokS,
  requestThroughputRps,
  tokensPerChunk,
  windowS
} from "../../../src/analysis/metrics/throughput.ts";
import type {PointTotals} from "../../../src/analysis/metrics/types.ts";

type Timings = Partial<Record<"promptN" | "promptMs" | "predictedN" | "predictedMs", number | null>>;

/**
 * Each metric's value function at its edges, on hand-made inputs (times in ms, converted to ns): where a
 * value exists it is worked out by hand; where an input is missing, zero or contradictory the value is
 * null (unknown), never 0, Infinity or NaN.
 */
const MS = 1e6;
const d = (o: {
  out?: number | null;
  in?: number | null;
  cached?: number | null;
  start?: number | null;
  disp?: number | null;
  tok1?: number | null;
  tokN?: number | null;
  timings?: Timings | null;
}): DerivedRequest => {
  const ns = (x: number | null | undefined) => (x === null || x === undefined ? null : x * MS);
  const timings =
    o.timings === undefined || o.timings === null
      ? null
      : {promptN: null, promptMs: null, predictedN: null, predictedMs: null, cacheN: null, ...o.timings};
  return {
    out: o.out === undefined ? 11 : o.out,
    in: o.in === undefined ? 100 : o.in,
    cached: o.cached ?? null,
    tStart: ns(o.start === undefined ? 0 : o.start),
    tDisp: ns(o.disp === undefined ? 0 : o.disp),
    tTok1: ns(o.tok1 === undefined ? 100 : o.tok1),
    tTokN: ns(o.tokN === undefined ? 200 : o.tokN),
    record: {serverTimings: timings}
  } as unknown as DerivedRequest;
};

describe("decode span and the speeds built on it", () => {
  it("11 tokens, first at 100 ms, last at 200 ms: span 100 ms, TPOT = ITL 10 ms, decode = interactivity 100 tok/s", () => {
    const r = d({});
    expect(decodeSpanMs(r)).toBe(100);
    expect(tpotMs.value(r)).toBe(10);
    expect(decodeTokS.value(r)).toBe(100);
    expect(interactivityTokS.value(r)).toBe(100);
  });

  it("2 tokens are enough: one gap of 40 ms → TPOT 40, decode 25 tok/s", () => {
    const r = d({out: 2, tok1: 100, tokN: 140});
    expect(tpotMs.value(r)).toBe(40);
    expect(decodeTokS.value(r)).toBe(25);
  });

  it.each([
    ["1 output token", {out: 1}],
    ["no output count", {out: null}],
    ["no first-token time", {tok1: null}],
    ["no last-token time", {tokN: null}],
    ["all tokens at one instant", {tok1: 150, tokN: 150}],
    ["last token before the first (corrupt)", {tok1: 150, tokN: 140}]
  ])("%s: no span, and every decode speed is unknown", (_, o) => {
    const r = d(o);
    expect(decodeSpanMs(r)).toBeNull();
    expect(tpotMs.value(r)).toBeNull();
    expect(decodeTokS.value(r)).toBeNull();
    expect(interactivityTokS.value(r)).toBeNull();
  });
});

describe("prefill speed: computed prompt tokens over dispatch → first token", () => {
  it("1000 prompt tokens, 200 cached, first token 100 ms after dispatch → 800 / 0.1 s = 8000 tok/s", () => {
    expect(prefillTokS.value(d({in: 1000, cached: 200, disp: 50, tok1: 150}))).toBe(8000);
  });

  it.each([
    ["no dispatch time (the schedule is not the span)", {disp: null}],
    ["no prompt count", {in: null}],
    ["no first token", {tok1: null}],
    ["every prompt token cached", {in: 500, cached: 500}],
    ["first token at the dispatch instant", {disp: 100, tok1: 100}]
  ])("%s → unknown", (_, o) => {
    expect(prefillTokS.value(d(o))).toBeNull();
  });
});

describe("the server's own speeds (llama.cpp timings)", () => {
  it("prompt_n 512 in 256 ms → 2000 tok/s; predicted_n 64 in 320 ms → 200 tok/s", () => {
    const r = d({timings: {promptN: 512, promptMs: 256, predictedN: 64, predictedMs: 320}});
    expect(serverPrefillTokS.value(r)).toBe(2000);
    expect(serverDecodeTokS.value(r)).toBe(200);
  });

  it.each([
    ["no timings", null],
    ["counts missing", {promptMs: 256, predictedMs: 320}],
    ["times missing", {promptN: 512, predictedN: 64}],
    ["zero time", {promptN: 512, promptMs: 0, predictedN: 64, predictedMs: 0}],
    ["zero tokens", {promptN: 0, promptMs: 256, predictedN: 0, predictedMs: 320}]
  ])("%s → unknown", (_, timings) => {
    const r = d({timings});
    expect(serverPrefillTokS.value(r)).toBeNull();
    expect(serverDecodeTokS.value(r)).toBeNull();
  });
});

describe("legacy output tok/s including TTFT", () => {
  it("10 tokens, start 100 ms, last token 600 ms → 10 / 0.5 s = 20 tok/s", () => {
    expect(e2eOutputTokS.value(d({out: 10, start: 100, tokN: 600}))).toBe(20);
  });
  it.each([
    ["no start", {start: null}],
    ["no output count", {out: null}],
    ["zero span", {start: 200, tokN: 200}]
  ])("%s → unknown", (_, o) => {
    expect(e2eOutputTokS.value(d(o))).toBeNull();
  });
});

/** A load point of 20 measured requests, 18 successful with 1800 output tokens over 10 s, 4 in flight. */
const totals = (o: Partial<PointTotals> = {}): PointTotals => ({
  mode: "concurrency",
  target: 4,
  measured: 20,
  nonStreamed: 0,
  successes: 18,
  good: 15,
  unjudged: 0,
  shortOutputs: 0,
  outputTokens: 1800,
  inputTokens: 2000,
  successesMissingOut: 0,
  successesMissingIn: 0,
  tokenEvents: 600,
  multiTokenEvents: 0,
  chunksUnknown: 0,
  windowS: 10,
  meanInFlight: 4,
  dispatchRate: 2,
  ...o
});

describe("run metrics over the window", () => {
  it("18 successes and 1800 tokens in 10 s → 1.8 req/s, 180 tok/s; 4 in flight → 45 tok/s per request in flight", () => {
    expect(requestThroughputRps.value(totals())).toEqual({value: 1.8});
    expect(outputThroughputTokS.value(totals())).toEqual({value: 180});
    expect(achievedConcurrency.value(totals())).toEqual({value: 4});
    expect(interactivityShareTokS.value(totals())).toEqual({value: 45});
    expect(achievedRateRps.value(totals())).toEqual({value: 2});
    expect(achievedRateRps.value(totals({dispatchRate: null}))).toEqual({
      value: null,
      reason: "fewer than 2 dispatch times"
    });
    expect(tokensPerChunk.value(totals())).toEqual({value: 3});
    expect(windowS.value(totals())).toEqual({value: 10});
  });

  it("a zero or unknown window gives no rate, with the window's own reason or a default", () => {
    expect(requestThroughputRps.value(totals({windowS: 0}))).toEqual({
      value: null,
      reason: "measurement window unknown"
    });
    expect(outputThroughputTokS.value(totals({windowS: null, windowReason: "clock not shared"}))).toEqual({
      value: null,
      reason: "clock not shared"
    });
    expect(windowS.value(totals({windowS: null}))).toEqual({value: null, reason: "unknown"});
    expect(achievedConcurrency.value(totals({meanInFlight: null}))).toEqual({
      value: null,
      reason: "request times unknown"
    });
  });

  it("an unknown window stays the reason for goodput_rps even when some requests are unjudged", () => {
    expect(goodputRps.value(totals({windowS: null, unjudged: 3}))).toEqual({
      value: null,
      reason: "measurement window unknown"
    });
  });

  it("the per-request share of throughput needs a concurrency above zero", () => {
    expect(interactivityShareTokS.value(totals({meanInFlight: 0}))).toEqual({
      value: null,
      reason: "concurrency unknown"
    });
    expect(interactivityShareTokS.value(totals({meanInFlight: null}))).toEqual({
      value: null,
      reason: "concurrency unknown"
    });
  });

  it("tokens per chunk: unknown for imports without every event, without token events or output counts", () => {
    expect(tokensPerChunk.value(totals({chunksUnknown: 2}))).toEqual({
      value: null,
      reason: "2 imported requests record only their first and last token events"
    });
    expect(tokensPerChunk.value(totals({tokenEvents: 0}))).toEqual({value: null, reason: "no token-bearing events"});
    expect(tokensPerChunk.value(totals({successesMissingOut: 1}))).toEqual({
      value: null,
      reason: "output token counts missing"
    });
  });
});

/** Two content events 30 ms apart, the second carrying 3 tokens (continuous usage). */
const evs: SseEvent[] = [
  [100 * MS, 50, "content", 1],
  [130 * MS, 50, "content", 3]
];

describe("chunk metrics", () => {
  it("per-token ITL needs the server's per-event token counts: without them it emits nothing", () => {
    const emitted: number[] = [];
    const base = d({});
    itlTokenMs.samples({...base, deltasKnown: false, tokenIdx: [0, 1], record: {events: evs}} as DerivedRequest, (v) =>
      emitted.push(v)
    );
    expect(emitted).toEqual([]);
    // with counts: the second event carries 3 tokens 30 ms after the first → 3 samples of 10 ms
    itlTokenMs.samples({...base, deltasKnown: true, tokenIdx: [0, 1], record: {events: evs}} as DerivedRequest, (v) =>
      emitted.push(v)
    );
    expect(emitted).toEqual([10, 10, 10]);
  });

  it("tokens per event: out over token-bearing events, unknown when there are none", () => {
    expect(tokensPerEvent.value({...d({out: 12}), tokenEvents: 4, chunksKnown: true} as DerivedRequest)).toBe(3);
    expect(tokensPerEvent.value({...d({out: 12}), tokenEvents: 0, chunksKnown: true} as DerivedRequest)).toBeNull();
    expect(tokensPerEvent.value({...d({out: 12}), tokenEvents: 4, chunksKnown: false} as DerivedRequest)).toBeNull();
  });
});
