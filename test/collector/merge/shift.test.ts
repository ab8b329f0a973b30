import {describe, expect, it} from "vitest";

import {ClientSample, RequestRecord} from "../../../src/analysis/schema/index.ts";
import {REQUEST_TIMES, shiftClient, shiftRequest} from "../../../collector/merge/shift.ts";
import {streamed} from "../../support/bundle.ts";

/**
 * Every field of a request record is either a run-relative time (shifted onto the merged timeline) or
 * not. A field added to the schema must be put in one of the two lists, or this test fails.
 */
const NOT_TIMES = [
  "seq",
  "shard",
  "id",
  "point",
  "repeat",
  "index",
  "phase",
  "timeBase",
  "socketReused",
  "body",
  "httpStatus",
  "finishReason",
  "usage",
  "usageSource",
  "serverTimings",
  "transportError",
  "errorMessage",
  "promptDigest",
  "responseDigest",
  "promptTokensIntended",
  "maxTokens",
  "salt",
  "promptText",
  "responseText",
  "reasoningText",
  "workload",
  "promptSegments",
  "caseId",
  "tier",
  "nullReasons",
  "eventCoverage"
];
/** Shifted apart from REQUEST_TIMES: arrays holding times. */
const TIME_ARRAYS = ["events", "attempts"];

describe("shifting a shard's records onto the merged timeline (issue 17)", () => {
  it("knows every field of the request schema", () => {
    const known = [...REQUEST_TIMES, ...TIME_ARRAYS, ...NOT_TIMES].sort();
    expect(Object.keys(RequestRecord.shape).sort()).toEqual(known);
  });

  it("moves every time by the offset and nothing else: durations are unchanged", () => {
    const r = {
      ...streamed("x", 10, {tokens: 3}),
      tCallNs: 9_000_000,
      attempts: [{tCallNs: 1, tEndNs: 2, socketReused: true, transportError: "conn_reset" as const, errorMessage: null}]
    };
    const s = shiftRequest(r, 1000, 2);
    expect(s.shard).toBe(2);
    for (const f of REQUEST_TIMES) if (typeof r[f] === "number") expect(s[f]).toBe((r[f] as number) + 1000);
    expect(s.events.map((e) => e[0])).toEqual(r.events.map((e) => e[0] + 1000));
    expect(s.events.map((e) => e.slice(1))).toEqual(r.events.map((e) => e.slice(1)));
    expect(s.attempts).toEqual([{...r.attempts[0], tCallNs: 1001, tEndNs: 1002}]);
    expect(s.tEndNs! - s.tSchedNs!).toBe(r.tEndNs! - r.tSchedNs!);
    expect(s.usage).toEqual(r.usage);
  });

  it("leaves times relative to each request's own start alone (imports)", () => {
    const r = {...streamed("x", 10), timeBase: "request" as const};
    expect(shiftRequest(r, 1000, 0)).toEqual({...r, shard: 0});
  });

  it("moves a loop sample's window end and its stalls, and knows every field of the sample", () => {
    expect(Object.keys(ClientSample.shape)).toContain("stalls");
    const s = shiftClient(
      {
        kind: "loop",
        tNs: 500,
        windowNs: 100,
        loopDelayP50Ms: 0.1,
        loopDelayP99Ms: 1,
        loopDelayMaxMs: 3,
        elu: 0.2,
        inFlight: 1,
        openSockets: 1,
        rssBytes: 1,
        cpuUserUs: 1,
        cpuSystemUs: 1,
        stalls: [[450, 3]]
      },
      10,
      1
    );
    expect(s).toMatchObject({shard: 1, tNs: 510, windowNs: 100, stalls: [[460, 3]]});
  });
});
