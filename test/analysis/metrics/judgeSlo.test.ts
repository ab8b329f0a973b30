import {describe, expect, it} from "vitest";

import {deriveRequest, type DerivedRequest} from "../../../src/analysis/derive/request.ts";
import {judgeSlo} from "../../../src/analysis/metrics/goodput.ts";
import {SloSpec} from "../../../src/analysis/schema/config.ts";
import type {RequestRecord} from "../../../src/analysis/schema/records.ts";
import {failedRequest, request, tokenEvents} from "../../support/bundle.ts";

/**
 * judgeSlo, one request at a time, against verdicts worked out by hand. SLO: TTFT ≤ 100 ms, ITL ≤ 10 ms,
 * E2E ≤ 200 ms. A request scheduled at 0 with n one-token events from `first` ms, `gap` ms apart has
 * TTFT = first, E2E = first + (n − 1)·gap and ITL = (n − 1)·gap / (n − 1) = gap (every value exact in binary).
 */
const SLO = SloSpec.parse({ttft_ms: 100, itl_ms: 10, e2e_ms: 200});
const derived = (r: Omit<RequestRecord, "seq">): DerivedRequest => deriveRequest({seq: 0, ...r});
const streamOf = (n: number, first: number, gap: number, over: Parameters<typeof request>[3] = {}) =>
  derived(request("r", 0, tokenEvents(n, first, gap), over));

describe("judgeSlo: each clause at, above and without its bound", () => {
  it("exactly at every bound is good (≤, not <): TTFT 100, E2E 200, ITL 10", () => {
    expect(judgeSlo(streamOf(11, 100, 10), SLO)).toEqual({good: true, missed: [], shortOutput: false});
  });

  it("1 ms over each bound misses that clause, with the measured value and the bound in the reason", () => {
    // TTFT 101 > 100; E2E 101 + 10·10 = 201 > 200; ITL 10 passes
    expect(judgeSlo(streamOf(11, 101, 10), SLO)).toEqual({
      good: false,
      missed: ["ttft 101 ms > 100 ms", "e2e 201 ms > 200 ms"],
      shortOutput: false
    });
    // ITL 11 > 10 (TTFT 50, E2E 50 + 5·11 = 105 pass)
    expect(judgeSlo(streamOf(6, 50, 11), SLO)).toEqual({
      good: false,
      missed: ["itl 11.0 ms > 10 ms"],
      shortOutput: false
    });
  });

  it("a failed request is a miss naming its failure class, whatever its times", () => {
    const j = judgeSlo(derived(failedRequest("f", 0)), SLO);
    expect(j).toEqual({good: false, missed: ["failed: http_error"], shortOutput: false});
  });

  it("an unknown TTFT or E2E is a miss, never a pass", () => {
    const ok = streamOf(11, 100, 10);
    // no first-token time: TTFT unknown, and so is the decode span (E2E 200 is known and passes)
    expect(judgeSlo({...ok, tTok1: null}, SLO)).toEqual({
      good: false,
      missed: ["ttft unknown", "itl unknown: token times missing"],
      shortOutput: false
    });
    expect(judgeSlo({...ok, tTokN: null}, SLO)).toEqual({
      good: false,
      missed: ["e2e unknown", "itl unknown: token times missing"],
      shortOutput: false
    });
  });
});

describe("judgeSlo: requests without an inter-token latency", () => {
  it("one output token: the ITL clause fails by default and is skipped when declared not applicable", () => {
    const one = streamOf(1, 100, 10);
    expect(judgeSlo(one, SLO)).toEqual({good: false, missed: ["itl undefined (1 output token)"], shortOutput: true});
    expect(judgeSlo(one, {...SLO, short_output: "not_applicable"})).toEqual({
      good: true,
      missed: [],
      shortOutput: true
    });
  });

  it("two output tokens are not a short output: they have an ITL (one gap)", () => {
    // TTFT 50, second token 10 ms later: ITL 10, E2E 60
    expect(judgeSlo(streamOf(2, 50, 10), SLO)).toEqual({good: true, missed: [], shortOutput: false});
  });

  it("several tokens in one event have no decode span: a miss that says so (not 'fewer than 2 tokens')", () => {
    const r = derived(request("r", 0, tokenEvents(1, 100, 0, {delta: 5}), {out: 5}));
    expect(judgeSlo(r, SLO)).toEqual({
      good: false,
      missed: ["itl undefined (all 5 tokens arrived in one event: no decode span)"],
      shortOutput: false
    });
    // declaring short outputs not applicable does not excuse 5 tokens
    expect(judgeSlo(r, {...SLO, short_output: "not_applicable"}).good).toBe(false);
  });

  it("no output count: unjudgeable (null) when the other clauses pass, a plain miss when one already failed", () => {
    const noUsage = {usage: null, usageSource: "none" as const};
    expect(judgeSlo(streamOf(11, 100, 10, noUsage), SLO)).toEqual({
      good: null,
      missed: ["itl unknown: output token count missing"],
      shortOutput: false
    });
    expect(judgeSlo(streamOf(11, 150, 10, noUsage), SLO)).toEqual({
      good: false,
      missed: ["ttft 150 ms > 100 ms", "e2e 250 ms > 200 ms"],
      shortOutput: false
    });
  });
});
