import {describe, expect, it} from "vitest";

import {transportOutcome} from "../../../src/analysis/derive/outcome.ts";
import {deriveRequest} from "../../../src/analysis/derive/request.ts";
import {judgeSlo} from "../../../src/analysis/metrics/goodput.ts";
import {e2eDispatchMs, e2eMs, ttftFirstByteMs, ttftMs} from "../../../src/analysis/metrics/latency.ts";
import {decodeTokS, outputTokens, inputTokens} from "../../../src/analysis/metrics/speed.ts";
import {SloSpec, type JsonBody, type RequestRecord} from "../../../src/analysis/schema/index.ts";

/** An embeddings request: scheduled at 0, written at 1 ms, headers at 40 ms, body ended at 42 ms. */
const body: JsonBody = {bytes: 900, json: true, inputs: 1, vectors: [256], nonFinite: 0, head: ""};
const base: RequestRecord = {
  seq: 0,
  id: "e",
  point: "concurrency-2",
  repeat: 0,
  index: 0,
  phase: "measure",
  timeBase: "run",
  tSchedNs: 0,
  tDispNs: 1_000_000,
  tHdrNs: 40_000_000,
  tByte1Ns: 40_500_000,
  tEndNs: 42_000_000,
  events: [],
  body,
  httpStatus: 200,
  finishReason: null,
  usage: {promptTokens: 12, completionTokens: null, reasoningTokens: null, cachedTokens: null},
  usageSource: "server_final",
  serverTimings: null,
  transportError: null,
  errorMessage: null,
  promptDigest: null,
  responseDigest: null,
  promptTokensIntended: 12,
  maxTokens: null,
  salt: null
};
const derive = (over: Partial<RequestRecord> = {}, b: Partial<JsonBody> = {}) =>
  deriveRequest({...base, ...over, body: {...body, ...b}});

describe("a non-streamed embeddings answer", () => {
  it("succeeds with one finite vector per input; E2E runs to the end of the body, nothing else is invented", () => {
    const d = derive();
    expect(d).toMatchObject({success: true, nonStreamed: true, out: null, in: 12, tokenEvents: 0, tTok1: null});
    expect(e2eMs.value(d)).toBe(42); // 42 ms − 0
    expect(e2eDispatchMs.value(d)).toBe(41); // 42 ms − 1 ms
    expect(ttftFirstByteMs.value(d)).toBe(40.5);
    expect(inputTokens.value(d)).toBe(12);
    // a stream's facts are unknown (null), never zero
    expect(ttftMs.value(d)).toBeNull();
    expect(outputTokens.value(d)).toBeNull();
    expect(decodeTokS.value(d)).toBeNull();
  });

  it.each<[string, Partial<RequestRecord>, Partial<JsonBody>, string]>([
    ["HTTP 503", {httpStatus: 503}, {}, "http_error"],
    ["a body that is not JSON", {}, {json: false, vectors: null}, "parse_error"],
    ["no data array of embeddings", {}, {vectors: null}, "invalid_embedding"],
    ["one vector fewer than the inputs", {}, {inputs: 2, vectors: [256]}, "invalid_embedding"],
    ["one vector more than the inputs", {}, {vectors: [256, 256]}, "invalid_embedding"],
    ["vectors of two lengths", {}, {inputs: 2, vectors: [256, 255]}, "invalid_embedding"],
    ["an empty vector", {}, {vectors: [0]}, "invalid_embedding"],
    ["a NaN entry", {}, {nonFinite: 1}, "invalid_embedding"],
    ["headers timed out", {transportError: "timeout_headers", httpStatus: null}, {}, "timeout_headers"],
    ["a DNS failure", {transportError: "dns", httpStatus: null}, {}, "conn_refused"],
    ["a body over the size limit", {transportError: "event_too_large"}, {}, "parse_error"],
    ["a reset in the body", {transportError: "conn_reset"}, {json: false, vectors: null}, "conn_reset"]
  ])("%s → %s… is the outcome", (_, over, b, outcome) => {
    const d = derive(over, b);
    expect(d.outcome).toBe(outcome);
    expect(d.success).toBe(false);
  });

  it("keeps the transport's times and the server's counts, and no stream facts at all", () => {
    const d = derive({
      tSchedNs: null,
      tCallNs: 900_000,
      tConnNs: 950_000,
      tTlsNs: 980_000,
      attempts: [
        {tCallNs: 500_000, tEndNs: 600_000, socketReused: true, transportError: "conn_reset", errorMessage: null}
      ],
      usage: {promptTokens: 12, completionTokens: null, reasoningTokens: null, cachedTokens: 3}
    });
    expect(d).toMatchObject({tStart: 1_000_000, tCall: 500_000, tConn: 950_000, tTls: 980_000, cached: 3});
    expect(e2eMs.value(d)).toBe(41); // without a schedule, from dispatch: 42 − 1 ms
    expect(d).toMatchObject({
      tokenIdx: [],
      deltasKnown: false,
      emptyText: false,
      eosOnFinish: false,
      hung: false,
      hasReasoning: false,
      chunksKnown: true
    });
    const bare = derive({tCallNs: 700_000, attempts: [], usage: null, usageSource: "none"});
    expect([bare.tCall, bare.in, bare.cached, bare.tConn, bare.tTls, bare.success]).toEqual([
      700_000,
      null,
      null,
      null,
      null,
      true
    ]);
  });

  it.each([
    [199, false],
    [200, true],
    [299, true],
    [300, false],
    [null, false]
  ])("HTTP status %s: success %s", (status, ok) => {
    expect(derive({httpStatus: status}).success).toBe(ok);
  });

  it("a transport error decides the outcome on its own, except a close timeout (the body ended)", () => {
    expect(transportOutcome("close_timeout")).toBeNull();
    expect(transportOutcome(null)).toBeNull();
    expect(transportOutcome("timeout_total")).toBe("timeout_total");
    expect(transportOutcome("conn_refused")).toBe("conn_refused");
    expect(transportOutcome("write_error")).toBe("transport_error");
    expect(transportOutcome("other")).toBe("transport_error");
  });

  it("two inputs with two vectors of one length succeed", () => {
    expect(derive({}, {inputs: 2, vectors: [8, 8]}).success).toBe(true);
  });

  it("the SLO judges E2E only: no TTFT or ITL clause can miss", () => {
    const slo = SloSpec.parse({ttft_ms: 1, itl_ms: 1, e2e_ms: 50});
    expect(judgeSlo(derive(), slo)).toEqual({good: true, missed: [], shortOutput: false});
    const late = judgeSlo(derive({tEndNs: 60_000_000}), slo);
    expect(late).toEqual({good: false, missed: ["e2e 60 ms > 50 ms"], shortOutput: false});
    expect(judgeSlo(derive({httpStatus: 500}), slo).missed).toEqual(["failed: http_error"]);
  });
});
