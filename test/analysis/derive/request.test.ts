import {describe, expect, it} from "vitest";

import {inFlightProfile} from "../../../src/analysis/accumulate/inflight.ts";
import {chunkGaps, deriveRequest, tokenGaps} from "../../../src/analysis/derive/request.ts";
import type {RequestRecord, SseEvent} from "../../../src/analysis/schema/index.ts";

const base: RequestRecord = {
  seq: 0,
  id: "r",
  point: "concurrency-1",
  repeat: 0,
  index: 0,
  phase: "measure",
  timeBase: "run",
  tSchedNs: 0,
  tDispNs: 1000,
  tHdrNs: 2000,
  tByte1Ns: 3000,
  tEndNs: 100_000,
  events: [],
  httpStatus: 200,
  finishReason: "length",
  usage: {promptTokens: 10, completionTokens: 3, reasoningTokens: null, cachedTokens: null},
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
const req = (events: SseEvent[], over: Partial<RequestRecord> = {}) => deriveRequest({...base, events, ...over});

describe("deriving per-request facts", () => {
  it("TTFT ignores role-only, usage and finish events; the first event of any kind is kept apart", () => {
    const d = req([
      [3000, 50, "role", null],
      [9000, 60, "content", null],
      [12000, 60, "content", null],
      [13000, 60, "finish", null],
      [14000, 80, "usage", null],
      [15000, 14, "done", null]
    ]);
    expect(d).toMatchObject({success: true, tEv1: 3000, tTok1: 9000, tTokN: 12000, out: 3, tokenEvents: 2});
  });

  it("reasoning counts for TTFT but not for the first visible token", () => {
    const d = req([
      [5000, 50, "reasoning", null],
      [8000, 50, "content", null],
      [9000, 14, "done", null]
    ]);
    expect(d.tTok1).toBe(5000);
    expect(d.tContent1).toBe(8000);
    expect(d.hasReasoning).toBe(true);
  });

  it("classifies failures: in-band error, truncated stream, empty output, HTTP error, transport error", () => {
    const tok: SseEvent = [5000, 50, "content", null];
    expect(req([tok, [6000, 40, "error", null], [7000, 14, "done", null]]).outcome).toBe("inband_error");
    expect(req([tok], {finishReason: null}).outcome).toBe("truncated_stream");
    expect(req([[7000, 14, "done", null]]).outcome).toBe("empty_output");
    expect(req([], {httpStatus: 429, finishReason: null}).outcome).toBe("http_error");
    expect(req([tok], {finishReason: null, transportError: "conn_reset"}).outcome).toBe("conn_reset");
    expect(req([tok, [5500, 10, "parse_error", null], [7000, 14, "done", null]]).outcome).toBe("parse_error");
    expect(req([tok], {finishReason: "stop"}).outcome).toBe("success");
    expect(req([], {finishReason: null, errorMessage: "HTTP 200 (content-type: text/html): <html>"}).outcome).toBe(
      "parse_error"
    );
    expect(req([], {finishReason: null}).outcome).toBe("truncated_stream");
  });

  it("output tokens come from usage, never from chunk counts; unknown usage is null", () => {
    const events: SseEvent[] = [
      [5000, 50, "content", null],
      [6000, 50, "content", null],
      [7000, 14, "done", null]
    ];
    expect(req(events, {usage: null, usageSource: "none"}).out).toBeNull();
    expect(req(events).out).toBe(3);
  });
});

describe("gap samples", () => {
  it("chunk gaps are one per consecutive token-bearing pair", () => {
    const gaps: number[] = [];
    chunkGaps(
      [
        [0, 1, "role", null],
        [10, 1, "content", null],
        [30, 1, "content", null],
        [35, 1, "usage", null],
        [60, 1, "content", null]
      ],
      (g) => gaps.push(g)
    );
    expect(gaps).toEqual([20, 30]);
  });

  it("per-token gaps split each chunk gap by its token delta; usage jumps attach to the next token event; zero deltas merge", () => {
    const out: [number, number][] = [];
    tokenGaps(
      [
        [0, 1, "role", 0],
        [10, 1, "content", 2],
        [30, 1, "content", 4],
        [35, 1, "usage", 2],
        [60, 1, "content", 0],
        [90, 1, "content", 1]
      ],
      (g, n) => out.push([g, n])
    );
    expect(out).toEqual([
      [5, 4],
      [15, 2],
      [30, 1]
    ]);
  });
});

describe("requests in flight", () => {
  it("computes the time-weighted mean and the peak; ends before starts at equal times", () => {
    const p = inFlightProfile(Float64Array.of(0, 0, 10), Float64Array.of(10, 20, 20), 0, 20);
    expect(p.peak).toBe(2);
    expect(p.mean).toBe(2);
    expect(inFlightProfile(new Float64Array(), new Float64Array(), 0, 1)).toEqual({mean: null, peak: 0});
  });
});
