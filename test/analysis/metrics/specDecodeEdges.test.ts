import {describe, expect, it} from "vitest";

import {answerDecodeTokS} from "../../../src/analysis/metrics/reasoning.ts";
import {specDecodeBlock} from "../../../src/analysis/metrics/specBlock.ts";
import {SpecScrapeLog, specTimingsFacts} from "../../../src/analysis/metrics/specDecode.ts";
import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import type {LoadPoint} from "../../../src/analysis/schema/manifest.ts";
import type {ServerScrape} from "../../../src/analysis/schema/records.ts";

/**
 * The edges of the speculative-decoding fold and block (metrics/specDecode.ts, specBlock.ts) and of the answer's
 * decode speed, each worked by hand: which samples count, where a span's bounds fall, and which source and
 * reason each value takes when the others are missing.
 */
type Sample = ServerScrape["samples"][number];
const S = 1e9;
const scrape = (tS: number, samples: Sample[]): ServerScrape => ({
  seq: 0,
  tNs: tS * S,
  durationMs: 1,
  ok: true,
  error: null,
  samples
});
const m = {model_name: "m"};
const counters = (d: number, dt: number, a: number): Sample[] => [
  ["vllm:spec_decode_num_drafts_total", m, d],
  ["vllm:spec_decode_num_draft_tokens_total", m, dt],
  ["vllm:spec_decode_num_accepted_tokens_total", m, a]
];
const perPos = (values: [string | null, number][]): Sample[] =>
  values.map(([pos, v]): Sample => [
    "vllm:spec_decode_num_accepted_tokens_per_pos_total",
    pos === null ? null : {...m, position: pos},
    v
  ]);
const gauges = (len: number | null, rate: number | null): Sample[] => [
  ...(len === null ? [] : [["sglang:spec_accept_length", m, len] as Sample]),
  ...(rate === null ? [] : [["sglang:spec_accept_rate", m, rate] as Sample])
];

describe("speculative-decoding counters: which samples count", () => {
  it("a per-position sample counts only at an integer position 0–63; others, and one without labels, are left out", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, counters(0, 0, 0)));
    const odd: [string | null, number][] = [
      ["0", 5],
      ["63", 2],
      ["64", 100],
      ["-1", 100],
      ["1.5", 100],
      ["x", 100],
      [null, 100]
    ];
    log.add(scrape(2, [...counters(10, 30, 9), ...perPos(odd)]));
    const c = log.window([1 * S, 1.5 * S]).counters!;
    // position 0: 5, position 63: 2, every other position empty (a hole, read as 0 against the baseline)
    expect(c.perPos[0]).toBe(5);
    expect(c.perPos[63]).toBe(2);
    expect(c.perPos).toHaveLength(64);
    expect(c.perPos.filter((v) => v !== 0 && v !== undefined)).toEqual([5, 2]);
  });

  it("a scrape with draft tokens but no drafts counter still has counters (drafts read as 0)", () => {
    const log = new SpecScrapeLog();
    const noDrafts = (dt: number, a: number): Sample[] => counters(0, dt, a).slice(1);
    log.add(scrape(0, noDrafts(10, 4)));
    log.add(scrape(2, noDrafts(30, 16)));
    const w = log.window([0.5 * S, 1.5 * S]);
    expect(w.counters).toMatchObject({drafts: 0, draftTokens: 20, accepted: 12});
    const b = specDecodeBlock(w, undefined)!;
    // 12 / 20 from the counters; no drafts, so no length and no per-position share
    expect(b.acceptance_rate).toEqual({value: 0.6, source: "server_counters"});
    expect(b.mean_acceptance_length.value).toBeNull();
    expect(b.mean_acceptance_length.reason).toMatch(/^no drafts in the load point's span/);
    expect(b.per_position.reason).toMatch(/^no drafts in the load point's span/);
  });

  it("a scrape with drafts but no draft-tokens counter: the length from the drafts, no rate and why", () => {
    const log = new SpecScrapeLog();
    const noDraftTokens = (d: number, a: number): Sample[] => [counters(d, 0, a)[0]!, counters(d, 0, a)[2]!];
    log.add(scrape(0, noDraftTokens(10, 9)));
    log.add(scrape(2, noDraftTokens(30, 25)));
    const w = log.window([0.5 * S, 1.5 * S]);
    expect(w.counters).toMatchObject({drafts: 20, draftTokens: 0, accepted: 16});
    const b = specDecodeBlock(w, undefined)!;
    // 1 + 16 accepted / 20 drafts = 1.8 tokens per step; a rate needs the draft tokens, which are not exported
    expect(b.mean_acceptance_length).toEqual({value: 1.8, source: "server_counters"});
    expect(b.acceptance_rate.value).toBeNull();
    expect(b.acceptance_rate.reason).toBe(
      "the server counted drafts but exports no draft-token counter: no acceptance rate"
    );
  });

  it("the baseline: a successful scrape exactly at the start with no counter yet counts as 0 from there", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(1, [["vllm:num_requests_running", m, 0]]));
    log.add(scrape(5, [...counters(4, 12, 6), ...perPos([["0", 3]])]));
    const w = log.window([1 * S, 4 * S]);
    expect(w.counters).toEqual({
      engine: "vllm",
      fromS: 1,
      toS: 5,
      drafts: 4,
      draftTokens: 12,
      accepted: 6,
      perPos: [3]
    });
  });

  it("no scrape at or before the start, or no window at all: null with the reason", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(2, counters(4, 12, 6)));
    log.add(scrape(5, counters(8, 24, 12)));
    expect(log.window([1 * S, 4 * S])).toEqual({
      counters: null,
      countersReason: "no server scrape before the load point started",
      gauges: null
    });
    expect(log.window(null)).toEqual({
      counters: null,
      gauges: null,
      countersReason: "the load point has no measurement window"
    });
  });

  it("a per-position counter that stays put is a delta of 0; one that goes down alone is a reset", () => {
    const log = new SpecScrapeLog();
    log.add(
      scrape(0, [
        ...counters(10, 30, 12),
        ...perPos([
          ["0", 8],
          ["1", 3]
        ])
      ])
    );
    log.add(
      scrape(2, [
        ...counters(20, 60, 20),
        ...perPos([
          ["0", 16],
          ["1", 3]
        ])
      ])
    );
    expect(log.window([0.5 * S, 1.5 * S]).counters!.perPos).toEqual([8, 0]);
    log.add(
      scrape(4, [
        ...counters(30, 90, 30),
        ...perPos([
          ["0", 20],
          ["1", 1]
        ])
      ])
    );
    expect(log.window([2.5 * S, 3.5 * S]).countersReason).toBe(
      "a counter went down across the load point (server restart)"
    );
  });
});

describe("speculative-decoding counters: resets, unusable samples and span bounds", () => {
  it("each counter going down alone is a reset (drafts, draft tokens, accepted), and one staying put is not", () => {
    const reset = "a counter went down across the load point (server restart)";
    for (const [after, reason] of [
      [counters(9, 60, 20), reset],
      [counters(20, 29, 20), reset],
      [counters(20, 60, 11), reset],
      [counters(10, 30, 12), undefined]
    ] as const) {
      const log = new SpecScrapeLog();
      log.add(scrape(0, counters(10, 30, 12)));
      log.add(scrape(2, after));
      expect(log.window([0.5 * S, 1.5 * S]).countersReason).toBe(reason);
    }
  });

  it("a sample that is not a finite number is left out: the other samples still count", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, counters(0, 0, 0)));
    log.add(
      scrape(2, [
        ["vllm:spec_decode_num_drafts_total", m, Number.NaN],
        ["vllm:spec_decode_num_drafts_total", {model_name: "other"}, 6],
        ["vllm:spec_decode_num_draft_tokens_total", m, null as unknown as number],
        ...counters(4, 18, 9).slice(1)
      ])
    );
    expect(log.window([0.5 * S, 1.5 * S]).counters).toMatchObject({drafts: 6, draftTokens: 18, accepted: 9});
  });

  it("a failed scrape is neither an entry nor a baseline", () => {
    const log = new SpecScrapeLog();
    log.add({...scrape(1, counters(50, 150, 60)), ok: false});
    log.add(scrape(3, counters(4, 12, 6)));
    expect(log.hasAny).toBe(true);
    expect(log.entries).toHaveLength(1);
    expect(log.okTimes).toEqual([3 * S]);
    expect(log.window([2 * S, 2.5 * S]).countersReason).toBe("no server scrape before the load point started");
  });

  it("a log without any sample says so; gauge scrapes alone give no counters", () => {
    const log = new SpecScrapeLog();
    expect(log.hasAny).toBe(false);
    log.add(scrape(0, gauges(2, 0.5)));
    log.add(scrape(2, gauges(3, 0.5)));
    expect(log.hasAny).toBe(true);
    expect(log.window([0.5 * S, 1.5 * S]).countersReason).toBe(
      "not exported: no speculative-decoding counters in the server's metrics"
    );
  });

  it("the counters' bounds: a scrape exactly at the end closes the span, one exactly at the start opens it", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, counters(1, 3, 1)));
    log.add(scrape(1, counters(2, 6, 2)));
    log.add(scrape(3, counters(5, 15, 8)));
    log.add(scrape(4, counters(9, 27, 9)));
    // [1 s, 3 s]: from the scrape at 1 s to the one at 3 s
    expect(log.window([1 * S, 3 * S]).counters).toMatchObject({
      fromS: 1,
      toS: 3,
      drafts: 3,
      draftTokens: 9,
      accepted: 6
    });
  });

  it("the gauges' span ends at the end: a scrape after it that is not the first after is left out", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(1, gauges(2, 0.4)));
    log.add(scrape(3, gauges(4, 0.6)));
    log.add(scrape(5, gauges(9, 0.9)));
    // [1 s, 3 s]: the scrapes at 1 and 3 s (3 s is also the first at or after the end); 5 s is out
    expect(log.window([1 * S, 3 * S]).gauges).toEqual({engine: "sglang", scrapes: 2, acceptLength: 3, acceptRate: 0.5});
  });

  it("counters without gauges leave the gauges null, however many scrapes", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, counters(1, 3, 1)));
    log.add(scrape(2, counters(2, 6, 2)));
    expect(log.window([0.5 * S, 1.5 * S]).gauges).toBeNull();
  });
});

describe("SGLang gauges over a span", () => {
  it("two label sets of one scrape are averaged; the engine is sglang", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(1, [...gauges(2, 0.4), ["sglang:spec_accept_length", {rank: "1"}, 4]]));
    const g = log.window([0.5 * S, 1.5 * S]).gauges!;
    // length (2 + 4) / 2 = 3 within the scrape; the rate has one sample
    expect(g).toEqual({engine: "sglang", scrapes: 1, acceptLength: 3, acceptRate: 0.4});
  });

  it("bounds: a scrape at the start counts, one before does not, one at the end is the last; a 0 (no step yet) is left out and a 1 is not", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, gauges(7, 0.9))); // before the start
    log.add(scrape(1, gauges(1, 0.1))); // at the start: counted
    log.add(scrape(2, gauges(0, 0))); // inside, but 0: no step yet
    log.add(scrape(3, gauges(4, 0.5))); // at the end: the first at or after it
    log.add(scrape(4, gauges(9, 0.9))); // after it: not counted
    const g = log.window([1 * S, 3 * S]).gauges!;
    // (1 + 4) / 2 = 2.5 and (0.1 + 0.5) / 2 = 0.3
    expect(g.scrapes).toBe(2);
    expect(g.acceptLength).toBe(2.5);
    expect(g.acceptRate).toBeCloseTo(0.3, 12);
  });

  it("a gauge exported alone leaves the other unknown (null), not 0 or NaN; the mean skips the scrapes without it", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(1, gauges(2, null)));
    log.add(scrape(2, gauges(3, 0.5)));
    expect(log.window([0.5 * S, 2.5 * S]).gauges).toEqual({
      engine: "sglang",
      scrapes: 2,
      acceptLength: 2.5,
      acceptRate: 0.5
    });
    const only = new SpecScrapeLog();
    only.add(scrape(1, gauges(2, null)));
    const w = only.window([0.5 * S, 1.5 * S]);
    expect(w.gauges!.acceptRate).toBeNull();
    const b = specDecodeBlock(w, undefined)!;
    // no counters, no rate gauge, no timings: the counters' reason stands for the rate
    expect(b.acceptance_rate).toEqual({
      value: null,
      source: null,
      reason: "not exported: no speculative-decoding counters in the server's metrics"
    });
    expect(b.mean_acceptance_length).toEqual({value: 2, source: "server_gauges"});
    expect(b.gauges).toEqual({engine: "sglang", scrapes: 1, accept_length: 2, accept_rate: null});
    expect(b.timings).toBeNull();
  });
});

describe("the spec_decode block's sources and reasons", () => {
  const zero = {engine: "vllm", fromS: 0, toS: 1, drafts: 0, draftTokens: 0, accepted: 0, perPos: []};

  it("counters with no drafts fall through to the timings for the rate; the length says no drafts", () => {
    const b = specDecodeBlock({counters: zero, gauges: null}, {requests: 2, draftTokens: 60, accepted: 35})!;
    expect(b.acceptance_rate).toEqual({value: 35 / 60, source: "response_timings"});
    expect(b.mean_acceptance_length.reason).toMatch(/^no drafts in the load point's span/);
    expect(b.timings).toEqual({requests: 2, draft_tokens: 60, accepted_tokens: 35});
  });

  it("timings of requests that drafted nothing: no rate (not 0 / 0), the reason says no drafts", () => {
    const b = specDecodeBlock(undefined, {requests: 3, draftTokens: 0, accepted: 0})!;
    expect(b.acceptance_rate).toEqual({
      value: null,
      source: null,
      reason: "no drafts in the load point's span (speculative decoding off, or no decode step)"
    });
    const c = specDecodeBlock({counters: zero, gauges: null}, undefined)!;
    expect(c.acceptance_rate.reason).toMatch(/^no drafts in the load point's span/);
  });

  it("no counters, gauges or timings: each value carries the window's own reason", () => {
    const why = "no server scrape after the load point ended";
    const b = specDecodeBlock({counters: null, gauges: null, countersReason: why}, undefined)!;
    expect(b.acceptance_rate.reason).toBe(why);
    expect(b.mean_acceptance_length.reason).toBe(why);
    expect(b.per_position.reason).toBe(why);
    expect(b.counters).toBeNull();
    expect(b.gauges).toBeNull();
  });

  it("each value from the counters names them as its source", () => {
    const c = {...zero, drafts: 4, draftTokens: 12, accepted: 6, perPos: [4, 2]};
    const b = specDecodeBlock({counters: c, gauges: null}, undefined)!;
    expect(b.mean_acceptance_length).toEqual({value: 1 + 6 / 4, source: "server_counters"});
    expect(b.per_position).toEqual({value: [1, 0.5], source: "server_counters"});
  });
});

describe("llama.cpp timings without draft counts", () => {
  it("a response whose timings lack draft_n (speculative decoding off) is not counted", () => {
    const s = specTimingsFacts.init({} as LoadPoint);
    const req = (timings: Record<string, number>): DerivedRequest =>
      ({success: true, record: {phase: "measure", serverTimings: timings}}) as unknown as DerivedRequest;
    specTimingsFacts.add(s, req({promptN: 1, promptMs: 1, predictedN: 1, predictedMs: 1}));
    specTimingsFacts.add(s, req({promptN: 1, promptMs: 1, predictedN: 1, predictedMs: 1, draftN: 8}));
    specTimingsFacts.add(s, req({draftNAccepted: 3})); // an accepted count without draft_n: not counted either
    specTimingsFacts.add(s, req({draftN: 10, draftNAccepted: 4}));
    expect(specTimingsFacts.finish(s).specTimings).toEqual({requests: 1, draftTokens: 10, accepted: 4});
  });
});

describe("answer decode speed", () => {
  const r = (out: number | null, reasoning: number | null, tAnswer1Ms: number | null, tTokNMs: number | null) =>
    ({
      out,
      reasoningTokens: reasoning,
      tAnswer1: tAnswer1Ms === null ? null : tAnswer1Ms * 1e6,
      tTokN: tTokNMs === null ? null : tTokNMs * 1e6
    }) as unknown as DerivedRequest;

  it("(answer tokens − 1) over the answer's span, by hand", () => {
    // 30 output, 10 thinking: 20 answer tokens, 19 after the first over 95 ms → 200 tok/s
    expect(answerDecodeTokS.value(r(30, 10, 100, 195))).toBeCloseTo(200, 9);
    // exactly 2 answer tokens: 1 over 10 ms → 100 tok/s
    expect(answerDecodeTokS.value(r(12, 10, 100, 110))).toBeCloseTo(100, 9);
  });

  it("null for fewer than 2 answer tokens, an unknown count or time, or an empty span", () => {
    expect(answerDecodeTokS.value(r(11, 10, 100, 110))).toBeNull();
    expect(answerDecodeTokS.value(r(null, 10, 100, 110))).toBeNull();
    expect(answerDecodeTokS.value(r(30, null, 100, 110))).toBeNull();
    expect(answerDecodeTokS.value(r(30, 10, null, 110))).toBeNull();
    expect(answerDecodeTokS.value(r(30, 10, 100, null))).toBeNull();
    expect(answerDecodeTokS.value(r(30, 10, 100, 100))).toBeNull();
  });
});
