import {describe, expect, it} from "vitest";

import {inFlightProfile} from "../../../src/analysis/metrics/inflight.ts";
import {
  chunkGaps,
  deriveRequest,
  tokenEventGaps,
  tokenGaps,
  type DeriveOptions
} from "../../../src/analysis/derive/request.ts";
import {dispatchLagMs, e2eMs, requestTimeMs, ttftMs} from "../../../src/analysis/metrics/latency.ts";
import {tpotMs} from "../../../src/analysis/metrics/speed.ts";
import type {RequestRecord, SseEvent} from "../../../src/analysis/schema/index.ts";
import {analyzeValid, ev, request, summaryOf, tokenEvents} from "../../support/bundle.ts";

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
const req = (events: SseEvent[], over: Partial<RequestRecord> = {}, o: DeriveOptions = {}) =>
  deriveRequest({...base, events, ...over}, o);

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

/** `n` events of one kind from `firstNs`, `gapNs` apart, each with token delta `delta`. */
const run = (n: number, kind: SseEvent[2], firstNs: number, gapNs: number, delta: number | null = null): SseEvent[] =>
  Array.from({length: n}, (_, i): SseEvent => [firstNs + i * gapNs, 10, kind, delta]);
const usageOf = (completionTokens: number | null) => ({
  promptTokens: 10,
  completionTokens,
  reasoningTokens: null,
  cachedTokens: null
});

describe("empty-text tokens", () => {
  it("a completions stream whose 32 tokens all arrive as empty text, usage 32, is a success from its first event", () => {
    // 32 empty events at 5000, 6000, …, 36000 ns, a finish 40000, [DONE] 41000; scheduled at 0
    // → emptyText: the 32 empty events are the token events; TTFT = 5000 ns − 0 = 0.005 ms, E2E = 36000 ns
    const d = req([...run(32, "empty", 5000, 1000), [40000, 20, "finish", null], [41000, 14, "done", null]], {
      usage: usageOf(32)
    });
    expect(d).toMatchObject({success: true, emptyText: true, tokenEvents: 32, tTok1: 5000, tTokN: 36000, out: 32});
    expect(ttftMs.value(d)).toBeCloseTo(0.005, 12);
    expect(e2eMs.value(d)).toBeCloseTo(0.036, 12);
  });

  it("the same stream without a server count is empty output: empty text alone is no token", () => {
    const d = req([...run(32, "empty", 5000, 1000), [41000, 14, "done", null]], {usage: null, usageSource: "none"});
    expect(d).toMatchObject({success: false, outcome: "empty_output", emptyText: false, tTok1: null});
  });

  it("bundle v1 wrote empty text as `role`: on the completions endpoint those events are empty text", () => {
    // 4 `role` events at 5000, 6000, 7000, 8000 ns, usage 4
    const events = [...run(4, "role", 5000, 1000), [9000, 14, "done", null] as SseEvent];
    const asV1 = deriveRequest({...base, events, usage: usageOf(4)}, {roleIsEmptyText: true});
    expect(asV1).toMatchObject({success: true, emptyText: true, tokenEvents: 4, tTok1: 5000, tTokN: 8000});
    // read as role-only chunks (chat, or bundle v2) they never carry a token
    expect(req(events, {usage: usageOf(4)}).outcome).toBe("empty_output");
  });

  it("the analyzer applies the v1 reading only to collected v1 bundles of the completions endpoint", async () => {
    // scheduled 0, 4 `role` events at 50, 60, 70, 80 ms, usage 4: TTFT 50 ms, TPOT (80 − 50)/3 = 10 ms
    const spec = (schemaVersion: 1 | 2) => ({
      config: {target: {base_url: "http://127.0.0.1:8000/v1", model: "m", endpoint: "completions" as const}},
      manifest: {schemaVersion, provenance: {kind: "collected" as const}},
      requests: [request("a", 0, [...tokenEvents(4, 50, 10, {kind: "role"}), ev(90, "done")], {out: 4})]
    });
    const v1 = await analyzeValid(spec(1));
    expect(v1.load_points[0]).toMatchObject({n: 1, n_success: 1});
    expect(summaryOf(v1, "ttft_ms").mean).toBeCloseTo(50, 9);
    expect(summaryOf(v1, "tpot_ms").mean).toBeCloseTo(10, 9);
    const v2 = await analyzeValid(spec(2));
    expect(v2.load_points[0]).toMatchObject({n: 1, n_success: 0, outcomes: {empty_output: 1}});
  });

  it("with per-event deltas, an empty event with delta 1 is a token event; with delta 0 it is not", () => {
    // content 5000 (+1), empty 6000 (+1: a token whose text is held back), content 7000 (+1), finish 8000 (+0)
    const counted = req(
      [
        [5000, 10, "content", 1],
        [6000, 10, "empty", 1],
        [7000, 10, "content", 1],
        [8000, 10, "finish", 0]
      ],
      {usageSource: "server_continuous", usage: usageOf(3)}
    );
    expect(counted).toMatchObject({tokenIdx: [0, 1, 2], tokenEvents: 3, nonEmptyEvents: 2, deltasKnown: true});
    const gaps: number[] = [];
    tokenEventGaps(counted, (g) => gaps.push(g));
    expect(gaps).toEqual([1000, 1000]); // the empty event splits the 2000 ns into two chunk gaps
    const uncounted = req(
      [
        [5000, 10, "content", 1],
        [6000, 10, "empty", 0],
        [7000, 10, "content", 1],
        [8000, 10, "finish", 0]
      ],
      {usageSource: "server_continuous", usage: usageOf(2)}
    );
    expect(uncounted).toMatchObject({tokenIdx: [0, 2], tokenEvents: 2});
  });
});

describe("the end-of-sequence token on the finish chunk (no per-event deltas)", () => {
  // content 5000, 6000, 7000; a finish chunk 8000; usage 8500; [DONE] 9000
  const events: SseEvent[] = [
    ...run(3, "content", 5000, 1000),
    [8000, 20, "finish", null],
    [8500, 80, "usage", null],
    [9000, 14, "done", null]
  ];

  it("a natural stop with more tokens than token events: the finish chunk carries the EOS token", () => {
    // usage 4 > 3 token events, finish_reason stop → the counted tokens end at the finish chunk (8000)
    const d = req(events, {finishReason: "stop", usage: usageOf(4)});
    expect(d).toMatchObject({eosOnFinish: true, tokenEvents: 4, tTokN: 8000});
    expect(tpotMs.value(d)).toBeCloseTo(0.001, 12); // (8000 − 5000) ns / (4 − 1) = 1000 ns
  });

  it("a natural stop whose count equals the token events: no EOS token on the finish chunk", () => {
    const d = req(events, {finishReason: "stop", usage: usageOf(3)});
    expect(d).toMatchObject({eosOnFinish: false, tokenEvents: 3, tTokN: 7000});
  });

  it("never on a length stop, even when the count exceeds the token events", () => {
    const d = req(events, {finishReason: "length", usage: usageOf(4)});
    expect(d).toMatchObject({eosOnFinish: false, tokenEvents: 3, tTokN: 7000});
  });

  it("with per-event deltas the finish chunk's own delta decides", () => {
    const withDelta = (finishDelta: number): SseEvent[] => [
      ...run(3, "content", 5000, 1000, 1),
      [8000, 20, "finish", finishDelta],
      [9000, 14, "done", null]
    ];
    const one = {finishReason: "stop", usageSource: "server_continuous" as const, usage: usageOf(4)};
    expect(req(withDelta(1), one)).toMatchObject({eosOnFinish: true, tTokN: 8000});
    expect(req(withDelta(0), {...one, usage: usageOf(3)})).toMatchObject({eosOnFinish: false, tTokN: 7000});
  });
});

describe("streams that hang after their terminal marker", () => {
  // content 5000, 6000; finish 7000; usage 7500
  const answered: SseEvent[] = [
    ...run(2, "content", 5000, 1000),
    [7000, 20, "finish", null],
    [7500, 80, "usage", null]
  ];

  it("close_timeout after [DONE]: a success that ends at its last event; the hang runs from the terminal marker", () => {
    // [DONE] 7600, the client closed it at 10 000 007 000 ns; the first terminal marker is the finish at 7000
    // → tEnd = 7600 (last event), hangNs = 10 000 007 000 − 7000 = 10 000 000 000 (10 s)
    const d = req([...answered, [7600, 14, "done", null]], {
      finishReason: "stop",
      usage: usageOf(2),
      transportError: "close_timeout",
      tEndNs: 10_000_007_000
    });
    expect(d).toMatchObject({success: true, hung: true, tTerminal: 7000, tEnd: 7600, hangNs: 10_000_000_000});
    expect(requestTimeMs.value(d)).toBeCloseTo(0.0076, 12); // 7600 − 0 ns
  });

  it("timeout_body after a finish_reason (no [DONE]): still a success, hang measured from the finish", () => {
    // idle timeout fired 120 s after the finish: tEndNs 120 000 007 000 → hangNs 120 000 000 000, tEnd 7500
    const d = req(answered, {
      finishReason: "stop",
      usage: usageOf(2),
      transportError: "timeout_body",
      tEndNs: 120_000_007_000
    });
    expect(d).toMatchObject({outcome: "success", hung: true, tEnd: 7500, hangNs: 120_000_000_000});
  });

  it("timeout_body before any terminal marker is a failure", () => {
    const d = req(run(2, "content", 5000, 1000), {finishReason: null, transportError: "timeout_body", tEndNs: 9000});
    expect(d).toMatchObject({success: false, outcome: "timeout_body", hung: false});
  });

  it("without a transport error, a close later than close_ms after the last event is a hang too", () => {
    // closeNs 10 000 ns: closed 15 000 ns after the last event → hung; 5 000 ns after → an ordinary close
    const late = req(answered, {finishReason: "stop", usage: usageOf(2), tEndNs: 22_500}, {closeNs: 10_000});
    expect(late).toMatchObject({hung: true, tEnd: 7500, hangNs: 22_500 - 7000});
    const prompt = req(answered, {finishReason: "stop", usage: usageOf(2), tEndNs: 12_500}, {closeNs: 10_000});
    expect(prompt).toMatchObject({hung: false, tEnd: 12_500, hangNs: null});
  });
});

describe("the client's start of a request", () => {
  it("a re-sent request's tCall is its first attempt's", () => {
    // attempt 1 began at 100 on a reused socket and failed (conn_reset) at 400; attempt 2 began at 500
    const d = req([[5000, 10, "content", null]], {
      finishReason: "stop",
      tCallNs: 500,
      tDispNs: 900,
      attempts: [{tCallNs: 100, tEndNs: 400, socketReused: true, transportError: "conn_reset", errorMessage: null}]
    });
    expect(d.tCall).toBe(100);
    expect(dispatchLagMs.value(d)).toBeCloseTo(0.0001, 12); // 100 − 0 ns
  });

  it("without attempts it is tCallNs; a v1 record without tCallNs has none and lags to the dispatch", () => {
    expect(req([[5000, 10, "content", null]], {tCallNs: 500}).tCall).toBe(500);
    const v1 = req([[5000, 10, "content", null]]);
    expect(v1.tCall).toBeNull();
    expect(dispatchLagMs.value(v1)).toBeCloseTo(0.001, 12); // t_disp 1000 − t_sched 0 ns
  });
});
