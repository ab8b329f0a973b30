import {describe, expect, it} from "vitest";

import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import {costFacts} from "../../../src/analysis/metrics/costFacts.ts";
import type {LoadPoint} from "../../../src/analysis/schema/manifest.ts";

type Timings = {promptMs: number | null; predictedMs: number | null; cacheN?: number | null};

/** A derived request with only what the cost reducer reads; times in ms, stored as ns. */
function req(o: {
  phase?: "measure" | "warmup";
  success?: boolean;
  in?: number | null;
  out?: number | null;
  cached?: number | null;
  timings?: Timings | null;
  dispMs?: number | null;
  tok1Ms?: number | null;
  endMs?: number | null;
}): DerivedRequest {
  const ns = (ms: number | null | undefined) => (ms == null ? null : ms * 1e6);
  const t = o.timings ?? null;
  return {
    record: {
      phase: o.phase ?? "measure",
      serverTimings: t && {promptN: null, predictedN: null, cacheN: null, ...t}
    },
    success: o.success ?? true,
    in: o.in ?? null,
    out: o.out ?? null,
    cached: o.cached ?? null,
    tDisp: ns(o.dispMs),
    tTok1: ns(o.tok1Ms),
    tEnd: ns(o.endMs)
  } as unknown as DerivedRequest;
}

const fold = (...requests: DerivedRequest[]) => {
  const s = costFacts.init({} as LoadPoint);
  for (const r of requests) costFacts.add(s, r);
  return costFacts.finish(s).cost;
};
const noFit = {n: 0, miss: 0, hit: 0, mm: 0, hh: 0, mh: 0, mp: 0, hp: 0};

describe("costFacts: sums over a point's successful measured requests", () => {
  it("counts neither a warmup request nor a failed one", () => {
    const c = fold(
      req({phase: "warmup", in: 7, out: 7}),
      req({success: false, in: 9, out: 9}),
      req({in: 100, out: 20})
    );
    expect([c.requests, c.inTokens, c.outTokens]).toEqual([1, 100, 20]);
  });

  it("sums tokens, an unknown count adding nothing; the mean decode context only over requests with both", () => {
    const c = fold(req({in: 100, out: 20}), req({in: null, out: 10}), req({in: 50, out: null}));
    expect([c.inTokens, c.outTokens]).toEqual([150, 30]);
    // 100 + 20 / 2
    expect([c.contextSum, c.contextN]).toEqual([110, 1]);
  });

  it("prompt-cache hits: usage cached_tokens first, else llama.cpp's cache_n, else unknown", () => {
    const c = fold(
      req({in: 100, cached: 40, timings: {promptMs: null, predictedMs: null, cacheN: 99}}),
      req({in: 100, timings: {promptMs: null, predictedMs: null, cacheN: 30}}),
      req({in: 100, timings: {promptMs: null, predictedMs: null, cacheN: null}}),
      req({in: 100})
    );
    expect([c.cacheKnown, c.hitTokens]).toEqual([2, 70]);
  });

  it("the server's timings, with the fit's sums where hits are known (miss = 100 − 40 = 60)", () => {
    const c = fold(
      req({in: 100, cached: 40, timings: {promptMs: 50, predictedMs: 200}}),
      req({in: 80, timings: {promptMs: 30, predictedMs: 100}}), // hits unknown: timed, not fitted
      req({in: null, cached: 8, timings: {promptMs: 1, predictedMs: 2}}), // prompt unknown: no miss, not fitted
      req({in: 80, timings: {promptMs: null, predictedMs: 100}}), // no prefill time: not timed
      req({in: 80, timings: {promptMs: 30, predictedMs: null}})
    );
    expect(c.server).toEqual({
      n: 3,
      prefillMs: 81,
      decodeMs: 302,
      fit: {n: 1, miss: 60, hit: 40, mm: 3600, hh: 1600, mh: 2400, mp: 3000, hp: 2000}
    });
    expect(c.client).toEqual({n: 0, prefillMs: 0, decodeMs: 0, fit: noFit});
  });

  it("a hit count above the prompt leaves a miss of 0, not a negative one", () => {
    const c = fold(req({in: 10, cached: 15, timings: {promptMs: 4, predictedMs: 8}}));
    expect(c.server.fit).toEqual({n: 1, miss: 0, hit: 15, mm: 0, hh: 225, mh: 0, mp: 0, hp: 60});
  });

  it("the client's times: dispatch → first token, first token → end, only with all three", () => {
    const c = fold(
      req({in: 20, cached: 5, dispMs: 100, tok1Ms: 105, endMs: 125}),
      req({dispMs: null, tok1Ms: 5, endMs: 9}),
      req({dispMs: 0, tok1Ms: null, endMs: 9}),
      req({dispMs: 0, tok1Ms: 5, endMs: null})
    );
    // miss 15, hit 5, prefill 5 ms
    expect(c.client).toEqual({
      n: 1,
      prefillMs: 5,
      decodeMs: 20,
      fit: {n: 1, miss: 15, hit: 5, mm: 225, hh: 25, mh: 75, mp: 75, hp: 25}
    });
    expect(c.server.n).toBe(0);
  });
});
