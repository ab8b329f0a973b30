import {describe, expect, it} from "vitest";

import {deriveRequest, tokenGaps} from "../../../src/analysis/derive/request.ts";
import type {EventKind, RequestRecord, SseEvent} from "../../../src/analysis/schema/index.ts";

/**
 * Each derived field from a hand-built record, the expected value worked out from the rule in its doc comment
 * (derive/request.ts, derive/tokenEvents.ts). Times in ns; `e(t, kind, tokens)` is one SSE event.
 */
const MS = 1_000_000;
const e = (tMs: number, kind: EventKind, tokens: number | null = null): SseEvent => [tMs * MS, 10, kind, tokens];
const base: RequestRecord = {
  seq: 0,
  id: "r",
  point: "concurrency-1",
  repeat: 0,
  index: 0,
  phase: "measure",
  timeBase: "run",
  tSchedNs: 0,
  tDispNs: 1 * MS,
  tHdrNs: 2 * MS,
  tByte1Ns: 3 * MS,
  tEndNs: 100 * MS,
  events: [],
  httpStatus: 200,
  finishReason: "stop",
  usage: {promptTokens: 10, completionTokens: 2, reasoningTokens: null, cachedTokens: null},
  usageSource: "server_final",
  serverTimings: null,
  transportError: null,
  errorMessage: null,
  promptDigest: null,
  responseDigest: null,
  promptTokensIntended: null,
  maxTokens: null,
  salt: null
};
const d = (events: SseEvent[], over: Partial<RequestRecord> = {}) => deriveRequest({...base, events, ...over});
const usage = (completionTokens: number | null, reasoningTokens: number | null = null) => ({
  promptTokens: 10,
  completionTokens,
  reasoningTokens,
  cachedTokens: null
});
/** Two content events, a finish chunk and [DONE]: a complete answer of two tokens. */
const twoTokens = [e(10, "content"), e(20, "content"), e(30, "finish"), e(31, "done")];

describe("a 2xx status is 200 to 299", () => {
  it("200 and 299 succeed; 199, 300 and no status are HTTP errors", () => {
    const outcomes = [200, 299, 199, 300, null].map((s) => d(twoTokens, {httpStatus: s}).outcome);
    expect(outcomes).toEqual(["success", "success", "http_error", "http_error", "http_error"]);
  });
});

describe("the terminal marker", () => {
  it("[DONE] ends a stream without a finish reason: the terminal time, not the first event", () => {
    const r = d([e(10, "content"), e(50, "done")], {finishReason: null, usage: usage(1)});
    expect(r).toMatchObject({outcome: "success", tEv1: 10 * MS, tTerminal: 50 * MS, tokenEvents: 1});
  });

  it("a finish reason without any terminal event (an import keeping token chunks only) ends at the last event", () => {
    const r = d([e(10, "content"), e(20, "content")], {eventCoverage: "token_chunks", tEndNs: null});
    expect(r.tTerminal).toBe(20 * MS);
    // the record holds no end and not every event: the end is unknown, not the last kept event
    expect(r.tEnd).toBeNull();
    expect(d([e(10, "content"), e(20, "content"), e(21, "done")], {tEndNs: null}).tEnd).toBe(21 * MS);
  });
});

describe("output tokens", () => {
  it("usageSource none: unknown even when a usage object is present", () => {
    expect(d(twoTokens, {usageSource: "none", usage: usage(5)}).out).toBeNull();
  });

  it("per-event deltas sum to the count when the server streamed them without a final usage", () => {
    const events = [e(10, "content", 2), e(20, "content", 3), e(30, "finish"), e(31, "done")];
    expect(d(events, {usageSource: "server_continuous", usage: null}).out).toBe(5);
    // a final usage names no per-event count: without one the count is unknown, the deltas are not summed
    expect(d(events, {usageSource: "server_final", usage: null}).out).toBeNull();
  });

  it("events of more than one token are counted; one-token events are not", () => {
    const events = [e(10, "content", 1), e(20, "content", 2), e(25, "content", 3), e(30, "finish"), e(31, "done")];
    const r = d(events, {usageSource: "server_continuous", usage: usage(6)});
    expect(r.multiTokenEvents).toBe(2);
    expect(r.deltasKnown).toBe(true);
    // one token event without a delta: the deltas are not all known
    const some = [e(10, "content", 1), e(20, "content"), e(30, "finish"), e(31, "done")];
    expect(d(some, {usageSource: "server_continuous", usage: usage(2)}).deltasKnown).toBe(false);
    // deltas are read only from a continuous-usage stream
    expect(d(events, {usage: usage(6)}).deltasKnown).toBe(false);
    // no token event: nothing is known
    expect(d([e(30, "finish"), e(31, "done")], {usageSource: "server_continuous", usage: usage(0)}).deltasKnown).toBe(
      false
    );
  });

  it("reasoning tokens from the reasoning events' deltas only when every one has a delta", () => {
    const events = [e(10, "reasoning", 2), e(15, "reasoning", 1), e(20, "content", 3), e(30, "finish"), e(31, "done")];
    expect(d(events, {usageSource: "server_continuous", usage: usage(6)}).reasoningTokens).toBe(3);
    const unknown = [e(10, "reasoning", 2), e(15, "reasoning"), e(20, "content", 3), e(30, "finish"), e(31, "done")];
    expect(d(unknown, {usageSource: "server_continuous", usage: usage(6)}).reasoningTokens).toBeNull();
    // the server's own count wins
    expect(d(events, {usageSource: "server_continuous", usage: usage(6, 4)}).reasoningTokens).toBe(4);
  });
});

describe("tokens streamed as empty text (a server holding back partial UTF-8)", () => {
  const empties = [e(10, "empty"), e(20, "empty"), e(30, "finish"), e(31, "done")];

  it("are the answer's tokens when the server counted tokens and no text came", () => {
    const r = d(empties, {usage: usage(2)});
    expect(r).toMatchObject({emptyText: true, tokenEvents: 2, tTok1: 10 * MS, outcome: "success"});
    // one counted token on one empty event
    expect(d([e(10, "empty"), e(30, "finish"), e(31, "done")], {usage: usage(1)})).toMatchObject({
      emptyText: true,
      tokenIdx: [0]
    });
  });

  it("are not when the server counted none, or when a token event came", () => {
    expect(d(empties, {usage: usage(0)})).toMatchObject({emptyText: false, outcome: "empty_output"});
    // an empty event that carries a counted delta is a token event itself; the other empty one is not taken
    const mixed = [e(10, "empty", 1), e(20, "empty"), e(30, "finish"), e(31, "done")];
    expect(d(mixed, {usageSource: "server_continuous", usage: usage(1)})).toMatchObject({
      emptyText: false,
      tokenIdx: [0]
    });
    // no empty event at all: a model that stopped at once, its one token on the finish chunk
    expect(d([e(30, "finish"), e(31, "done")], {usage: usage(1)})).toMatchObject({
      emptyText: false,
      eosOnFinish: true,
      tTok1: 30 * MS,
      outcome: "success"
    });
  });

  it("an empty event not taken as a token still counts in the stream's own count", () => {
    // tokens: content, the empty event with a delta, content (3 events); one more empty event without a delta;
    // a length stop, so no end-of-sequence token on the finish chunk: 3 token events + 1 uncounted empty
    const events = [
      e(10, "content"),
      e(15, "empty", 1),
      e(17, "empty"),
      e(20, "content"),
      e(30, "finish"),
      e(31, "done")
    ];
    expect(d(events, {usage: usage(4), finishReason: "length"}).streamTokens).toBe(4);
  });
});

describe("the end-of-sequence token on the finish chunk", () => {
  it("is counted on a natural stop only; without a finish reason the counted tokens end at the last text", () => {
    expect(d(twoTokens, {usage: usage(3)})).toMatchObject({eosOnFinish: true, tTokN: 30 * MS});
    expect(d(twoTokens, {usage: usage(3), finishReason: "length"})).toMatchObject({eosOnFinish: false, tTokN: 20 * MS});
    expect(d(twoTokens, {usage: usage(3), finishReason: null})).toMatchObject({eosOnFinish: false, tTokN: 20 * MS});
  });
});

describe("the stream's own count from per-event deltas (streamedDeltas)", () => {
  const continuous = (events: SseEvent[], out: number, finishReason: string | null = "stop") =>
    d(events, {usageSource: "server_continuous", usage: usage(out), finishReason});

  it("a jump of the running count before later text is streamed", () => {
    // 2 on the first text, 2 on a role-kind event before the next text, 1 on that text: 5 streamed
    const events = [e(10, "content", 2), e(12, "role", 2), e(20, "content", 1), e(30, "finish"), e(31, "done")];
    expect(continuous(events, 5).streamTokens).toBe(5);
  });

  it("a jump after the last text is the server's claim, but one token on a natural stop is the end-of-sequence", () => {
    const one = [e(10, "content", 1), e(20, "content", 1), e(30, "usage", 1), e(31, "done")];
    expect(continuous(one, 3).streamTokens).toBe(3);
    expect(continuous(one, 3, "length").streamTokens).toBe(2);
    const two = [e(10, "content", 1), e(20, "content", 1), e(30, "usage", 2), e(31, "done")];
    expect(continuous(two, 4).streamTokens).toBe(2);
  });
});

describe("a stream held open after its terminal marker", () => {
  it("closed by the client's idle timeout: hung, its end the last event, the hang from the marker", () => {
    const r = d(twoTokens, {tEndNs: 35 * MS, transportError: "timeout_body"});
    expect(r).toMatchObject({outcome: "success", hung: true, tEnd: 31 * MS, hangNs: 5 * MS});
  });

  it("an import without a terminal marker has no hang, whatever its end", () => {
    const events = [e(1000, "content"), e(2000, "content")];
    const r = d(events, {eventCoverage: "token_chunks", finishReason: null, tEndNs: 20_000 * MS});
    expect(r).toMatchObject({outcome: "success", hung: false, hangNs: null, tEnd: 20_000 * MS});
  });
});

describe("the first answer token after the thinking (tAnswer1)", () => {
  it("follows the last reasoning event before the first content, a counted empty-text token before it skipped", () => {
    // reasoning, an empty event with a counted token, reasoning again, then content at 30 ms
    const events = [
      e(10, "reasoning", 1),
      e(15, "empty", 1),
      e(20, "reasoning", 1),
      e(30, "content", 1),
      e(40, "finish"),
      e(41, "done")
    ];
    expect(d(events, {usageSource: "server_continuous", usage: usage(4)}).tAnswer1).toBe(30 * MS);
  });

  it("without content, after the last reasoning event: none here", () => {
    const events = [e(10, "reasoning", 1), e(15, "empty", 1), e(20, "reasoning", 1), e(40, "finish"), e(41, "done")];
    expect(d(events, {usageSource: "server_continuous", usage: usage(3), finishReason: "length"}).tAnswer1).toBeNull();
  });
});

describe("what the first mutation run of derive left alive", () => {
  it("a thinking model that reasons again after answering: the answer starts at its first content", () => {
    const events = [
      e(10, "reasoning", 1),
      e(20, "content", 1),
      e(30, "reasoning", 1),
      e(40, "content", 1),
      e(50, "finish"),
      e(51, "done")
    ];
    expect(d(events, {usageSource: "server_continuous", usage: usage(4)}).tAnswer1).toBe(20 * MS);
  });

  it("an error text beside a stream that did not end is a truncated stream, not a page that was no stream", () => {
    expect(d([e(10, "content")], {finishReason: null, errorMessage: "socket hang up"}).outcome).toBe(
      "truncated_stream"
    );
  });

  it("no token event: reasoning tokens unknown, not 0", () => {
    const r = d([e(30, "finish"), e(31, "done")], {
      usageSource: "server_continuous",
      usage: usage(0),
      finishReason: "length"
    });
    expect(r.reasoningTokens).toBeNull();
  });

  it("one token after the last text is the end-of-sequence only on a natural stop, and there is none without a finish reason", () => {
    const events = [e(10, "content", 1), e(20, "content", 1), e(30, "usage", 1), e(31, "done")];
    expect(d(events, {usageSource: "server_continuous", usage: usage(3), finishReason: null}).streamTokens).toBe(2);
  });

  it("per-token gaps skip a token event that carries no token", () => {
    // 1 token at 10 ms, 0 at 20 ms (nothing new), 2 at 40 ms: one gap of (40 − 10) / 2 = 15 ms for 2 tokens
    const gaps: [number, number][] = [];
    tokenGaps([e(10, "content", 1), e(20, "content", 0), e(40, "content", 2)], (g, n) => gaps.push([g / MS, n]));
    expect(gaps).toEqual([[15, 2]]);
  });
});
