import {describe, expect, it} from "vitest";

import {specDecodeBlock, specDecodeOf} from "../../../src/analysis/metrics/specBlock.ts";
import {SpecScrapeLog, specTimingsFacts} from "../../../src/analysis/metrics/specDecode.ts";
import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import type {LoadPoint} from "../../../src/analysis/schema/manifest.ts";
import type {ServerScrape} from "../../../src/analysis/schema/records.ts";

type Sample = ServerScrape["samples"][number];
const S = 1e9;
const scrape = (tS: number, samples: Sample[], ok = true): ServerScrape => ({
  seq: 0,
  tNs: tS * S,
  durationMs: 1,
  ok,
  error: ok ? null : "down",
  samples
});
const m = {model_name: "m"};
/** vLLM counters of one scrape: drafts, draft tokens, accepted, accepted per position. */
const vllm = (d: number, dt: number, a: number, pos: number[], prefix = "vllm"): Sample[] => [
  [`${prefix}:spec_decode_num_drafts_total`, m, d],
  [`${prefix}:spec_decode_num_draft_tokens_total`, m, dt],
  [`${prefix}:spec_decode_num_accepted_tokens_total`, m, a],
  ...pos.map((v, i): Sample => [
    `${prefix}:spec_decode_num_accepted_tokens_per_pos_total`,
    {...m, position: String(i)},
    v
  ])
];

describe("speculative-decoding counters over a load point's span", () => {
  it("deltas from the last scrape at or before the start to the first at or after the end", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, vllm(10, 30, 12, [8, 3, 1])));
    log.add(scrape(1, vllm(20, 60, 27, [17, 7, 3]))); // baseline: last at or before t = 1.5 s
    log.add(scrape(2, vllm(50, 150, 70, [42, 20, 8]))); // inside the span
    log.add(scrape(3, vllm(60, 180, 80, [48, 22, 10]))); // first at or after t = 2.5 s
    log.add(scrape(4, vllm(99, 999, 99, [99, 99, 99])));
    const w = log.window([1.5 * S, 2.5 * S]);
    // by hand: drafts 60 − 20 = 40, draft tokens 180 − 60 = 120, accepted 80 − 27 = 53, per position 31, 15, 7
    expect(w.counters).toEqual({
      engine: "vllm",
      fromS: 1,
      toS: 3,
      drafts: 40,
      draftTokens: 120,
      accepted: 53,
      perPos: [31, 15, 7]
    });
    const b = specDecodeBlock(w, undefined)!;
    expect(b.acceptance_rate).toEqual({value: 53 / 120, source: "server_counters"});
    // vLLM's mean acceptance length: 1 + 53 / 40 = 2.325
    expect(b.mean_acceptance_length.value).toBeCloseTo(2.325, 12);
    expect(b.per_position.value).toEqual([31 / 40, 15 / 40, 7 / 40]);
  });

  it("sums label sets (several engines' ranks) and counts a baseline without counters as 0", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, [["llamacpp:prompt_tokens_total", null, 5]])); // before the first draft: no counter yet
    const two = (d: number, dt: number, a: number): Sample[] =>
      vllm(d, dt, a, [], "llamacpp").flatMap((s): Sample[] => [
        [s[0], {rank: "0"}, s[2]],
        [s[0], {rank: "1"}, s[2]]
      ]);
    log.add(scrape(5, two(4, 16, 6)));
    const w = log.window([1 * S, 4 * S]);
    // two ranks of 4 drafts, 16 draft tokens, 6 accepted each, from 0
    expect(w.counters).toMatchObject({engine: "llama.cpp", fromS: 0, drafts: 8, draftTokens: 32, accepted: 12});
    const b = specDecodeBlock(w, undefined)!;
    expect(b.acceptance_rate.value).toBe(12 / 32);
    expect(b.mean_acceptance_length.value).toBe(1 + 12 / 8);
    expect(b.per_position).toEqual({value: null, source: null, reason: "per-position counters not exported"});
  });

  it("null with a reason: no scrape after the end, a counter reset, nothing exported", () => {
    const log = new SpecScrapeLog();
    log.add(scrape(0, vllm(10, 30, 12, [])));
    log.add(scrape(2, vllm(20, 60, 27, [])));
    expect(log.window([1 * S, 3 * S]).countersReason).toBe("no server scrape after the load point ended");
    expect(log.window([1 * S, 1.5 * S]).counters).toMatchObject({drafts: 10});
    log.add(scrape(3, vllm(1, 3, 1, [])));
    expect(log.window([2.5 * S, 2.8 * S]).countersReason).toMatch(/went down/);

    const none = new SpecScrapeLog();
    none.add(scrape(0, [["vllm:num_requests_running", m, 1]]));
    expect(none.hasAny).toBe(false);
    expect(specDecodeBlock(undefined, undefined)).toBeNull();
    const absent = specDecodeOf({});
    expect(absent.acceptance_rate.value).toBeNull();
    expect(absent.acceptance_rate.reason).toMatch(/^not exported/);
  });

  it("SGLang: the accept-length and accept-rate gauges, mean of the scrapes in the span, zeros (no step yet) left out", () => {
    const log = new SpecScrapeLog();
    const g = (len: number, rate: number): Sample[] => [
      ["sglang:spec_accept_length", m, len],
      ["sglang:spec_accept_rate", m, rate]
    ];
    log.add(scrape(0, g(0, 0)));
    log.add(scrape(1, g(2.5, 0.5)));
    log.add(scrape(2, g(3.5, 0.7)));
    log.add(scrape(3, g(3, 0.6))); // first after the end: counted
    log.add(scrape(4, g(9, 0.9))); // later: not
    const w = log.window([0.5 * S, 2.5 * S]);
    expect(w.counters).toBeNull();
    expect(w.countersReason).toMatch(/^not exported/);
    // mean over t = 1, 2, 3 s: length (2.5 + 3.5 + 3) / 3 = 3, rate (0.5 + 0.7 + 0.6) / 3 = 0.6
    expect(w.gauges!.scrapes).toBe(3);
    expect(w.gauges!.acceptLength).toBeCloseTo(3, 12);
    const b = specDecodeBlock(w, undefined)!;
    expect(b.acceptance_rate.source).toBe("server_gauges");
    expect(b.acceptance_rate.value).toBeCloseTo(0.6, 12);
    expect(b.mean_acceptance_length).toMatchObject({value: 3, source: "server_gauges"});
  });

  it("llama.cpp timings: Σ draft_n_accepted / Σ draft_n over successful measured requests, no length", () => {
    const s = specTimingsFacts.init({} as LoadPoint);
    const req = (phase: string, success: boolean, draftN?: number, acc?: number): DerivedRequest =>
      ({
        success,
        record: {
          phase,
          serverTimings:
            draftN === undefined
              ? null
              : {promptN: 1, promptMs: 1, predictedN: 1, predictedMs: 1, cacheN: 0, draftN, draftNAccepted: acc}
        }
      }) as unknown as DerivedRequest;
    specTimingsFacts.add(s, req("measure", true, 40, 30));
    specTimingsFacts.add(s, req("measure", true, 20, 5));
    specTimingsFacts.add(s, req("warmup", true, 100, 100)); // warmup: left out
    specTimingsFacts.add(s, req("measure", false, 100, 0)); // failure: left out
    specTimingsFacts.add(s, req("measure", true)); // no timings
    const f = specTimingsFacts.finish(s);
    expect(f.specTimings).toEqual({requests: 2, draftTokens: 60, accepted: 35});
    const b = specDecodeBlock(undefined, f.specTimings)!;
    expect(b.acceptance_rate).toEqual({value: 35 / 60, source: "response_timings"});
    expect(b.mean_acceptance_length.value).toBeNull();
    expect(b.mean_acceptance_length.reason).toMatch(/draft tokens, not drafts/);
  });
});
