import type {CostFacts, TimeSums} from "../metrics/costFacts.ts";
import {combine, known, unknown} from "./fact.ts";
import type {Fact, PointHardware} from "./schema.ts";

type Cost = PointHardware["cost"];

/**
 * The timing source of the attribution: the server's own prefill/decode times when every successful request
 * has them (llama.cpp timings), else the client's (dispatch → first token, first token → end).
 */
export function timingSource(c: CostFacts["cost"]): {sums: TimeSums; from: string} | null {
  if (c.requests > 0 && c.server.n === c.requests)
    return {sums: c.server, from: "server timings (prompt_ms, predicted_ms)"};
  if (c.client.n > 0) return {sums: c.client, from: "client times (dispatch → first token, first token → end)"};
  return null;
}

/**
 * Splits a prefill cost between prompt-cache misses and hits by the least-squares fit
 * prefill_ms ≈ a · miss + b · hit over the point's requests: the misses' share is a·Σmiss ÷ (a·Σmiss + b·Σhit).
 * Unknown when no request hit the cache, when the two counts move together (no separate fit), or when the
 * fit gives a negative time per token.
 */
export function cacheSplit(t: TimeSums["fit"]): {missShare: number} | {reason: string} {
  if (t.hit === 0) return {reason: "no prompt-cache hits in this point"};
  if (t.n < 5) return {reason: `only ${t.n} requests with cache counts (the fit needs 5)`};
  const det = t.mm * t.hh - t.mh * t.mh;
  if (!(det > 1e-9 * t.mm * t.hh))
    return {reason: "cache hits and misses vary together: their costs cannot be told apart"};
  const a = (t.mp * t.hh - t.hp * t.mh) / det;
  const b = (t.hp * t.mm - t.mp * t.mh) / det;
  if (!(a > 0) || b < 0)
    return {
      reason: `the fit gives a negative time per token (miss ${a.toPrecision(3)} ms, hit ${b.toPrecision(3)} ms)`
    };
  return {missShare: (a * t.miss) / (a * t.miss + b * t.hit)};
}

const perMillion = (usd: Fact, tokens: number, what: string): Fact =>
  tokens > 0 ? combine([usd], (u) => (u / tokens) * 1e6, `cost ÷ ${what} × 10⁶`) : unknown(`no ${what} in this point`);

/**
 * The four cost layers of a load point from its measured window and throughput (never a nominal rate):
 * GPU cost = price × GPUs × window ÷ 3600; per request; per million output tokens (the decode share of the
 * cost); per million prompt tokens (the prefill share), misses and hits apart. The prefill share is the
 * point's measured prefill time ÷ (prefill + decode time), summed over its successful requests.
 */
export function pointCost(
  c: CostFacts["cost"],
  windowS: number | null,
  price: Fact,
  priceFrom: string | null,
  gpus: Fact
): Cost {
  const window = windowS === null ? unknown("measurement window unknown") : known(windowS, "measured window");
  const gpuHours = combine([window, gpus], (w, n) => (w * n) / 3600, "window × GPUs ÷ 3600");
  const total = combine([gpuHours, price], (h, p) => h * p, "GPU-hours × price");
  const src = timingSource(c);
  const share =
    src === null
      ? unknown("no request with prefill and decode times")
      : src.sums.prefillMs + src.sums.decodeMs > 0
        ? known(src.sums.prefillMs / (src.sums.prefillMs + src.sums.decodeMs), src.from)
        : unknown("prefill and decode times sum to zero");
  const inputUsd = combine([total, share], (t, s) => t * s, "cost × prefill share");
  const outputUsd = combine([total, share], (t, s) => t * (1 - s), "cost × (1 − prefill share)");
  let miss: Fact;
  let hit: Fact;
  if (c.cacheKnown < c.requests || c.requests === 0) {
    const why = "the server did not report prompt-cache hits for every request";
    [miss, hit] = [unknown(why), unknown(why)];
  } else {
    const fit = src?.sums.fit;
    const split = fit === undefined ? {reason: "no timed request"} : cacheSplit(fit);
    const missTokens = c.inTokens - c.hitTokens;
    if ("missShare" in split) {
      miss = perMillion(
        combine([inputUsd], (u) => u * split.missShare, "prefill cost × miss share"),
        fit!.miss,
        "missed prompt tokens"
      );
      hit = perMillion(
        combine([inputUsd], (u) => u * (1 - split.missShare), "prefill cost × hit share"),
        fit!.hit,
        "cached prompt tokens"
      );
    } else {
      miss = c.hitTokens === 0 ? perMillion(inputUsd, missTokens, "prompt tokens") : unknown(split.reason);
      hit = unknown(split.reason);
    }
  }
  return {
    price,
    priceFrom,
    gpuHours,
    perRequest:
      c.requests > 0
        ? combine([total], (t) => t / c.requests, "cost ÷ successful requests")
        : unknown("no successful request"),
    perMOutput: perMillion(outputUsd, c.outTokens, "output tokens"),
    perMInput: perMillion(inputUsd, c.inTokens, "prompt tokens"),
    perMInputMiss: miss,
    perMInputHit: hit,
    inputShare: share
  };
}
