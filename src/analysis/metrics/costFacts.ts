import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";

/**
 * Time sums of one timing source, with the sufficient statistics of the least-squares fit
 * prefill_ms ≈ a · miss + b · hit over the requests whose prompt-cache hits are known (miss = prompt − hit).
 */
export interface TimeSums {
  n: number;
  prefillMs: number;
  decodeMs: number;
  fit: {n: number; miss: number; hit: number; mm: number; hh: number; mh: number; mp: number; hp: number};
}

const sums = (): TimeSums => ({
  n: 0,
  prefillMs: 0,
  decodeMs: 0,
  fit: {n: 0, miss: 0, hit: 0, mm: 0, hh: 0, mh: 0, mp: 0, hp: 0}
});

function addTime(t: TimeSums, prefillMs: number, decodeMs: number, miss: number | null, hit: number | null): void {
  t.n++;
  t.prefillMs += prefillMs;
  t.decodeMs += decodeMs;
  if (miss === null || hit === null) return;
  const f = t.fit;
  f.n++;
  f.miss += miss;
  f.hit += hit;
  f.mm += miss * miss;
  f.hh += hit * hit;
  f.mh += miss * hit;
  f.mp += miss * prefillMs;
  f.hp += hit * prefillMs;
}

/**
 * Sums over a point's successful measured requests that the cost and roofline views need (hardware/cost.ts):
 * tokens in and out, prompt-cache hits, and the time each request spent in prefill and in decode, from the
 * server's own timings where every request has them (llama.cpp), else from the client's token times.
 */
export interface CostFacts {
  cost: {
    requests: number;
    inTokens: number;
    outTokens: number;
    /** Requests whose prompt-cache hits are known (usage cached_tokens or llama.cpp timings.cache_n). */
    cacheKnown: number;
    hitTokens: number;
    /** Σ (prompt + output ÷ 2) over requests with both counts: the mean KV context while decoding. */
    contextSum: number;
    contextN: number;
    /** llama.cpp's own timings (prompt_ms, predicted_ms). */
    server: TimeSums;
    /** The client's: dispatch → first token, first token → end. */
    client: TimeSums;
  };
}

type State = CostFacts["cost"];

/** A point reducer ({init, add, finish}, accumulate/reducer.ts) for the cost and roofline views. */
export const costFacts = {
  init: (_point: LoadPoint): State => ({
    requests: 0,
    inTokens: 0,
    outTokens: 0,
    cacheKnown: 0,
    hitTokens: 0,
    contextSum: 0,
    contextN: 0,
    server: sums(),
    client: sums()
  }),
  add(s: State, d: DerivedRequest): void {
    if (d.record.phase !== "measure" || !d.success) return;
    s.requests++;
    s.inTokens += d.in ?? 0;
    s.outTokens += d.out ?? 0;
    const t = d.record.serverTimings;
    const hit = d.cached ?? (typeof t?.cacheN === "number" ? t.cacheN : null);
    if (hit !== null) {
      s.cacheKnown++;
      s.hitTokens += hit;
    }
    if (d.in !== null && d.out !== null) {
      s.contextSum += d.in + d.out / 2;
      s.contextN++;
    }
    const miss = d.in === null || hit === null ? null : Math.max(0, d.in - hit);
    if (t !== null && t.promptMs !== null && t.predictedMs !== null)
      addTime(s.server, t.promptMs, t.predictedMs, miss, hit);
    if (d.tDisp !== null && d.tTok1 !== null && d.tEnd !== null)
      addTime(s.client, (d.tTok1 - d.tDisp) / 1e6, (d.tEnd - d.tTok1) / 1e6, miss, hit);
  },
  finish: (s: State): CostFacts => ({cost: s})
};
