import {quantile as d3Quantile} from "d3-array";

import type {Samples} from "./column.ts";
import {selectKth} from "./select.ts";

/**
 * Percentile methods. Every metric names the one it uses.
 * - nearest-rank: the ⌈p·n⌉-th smallest value (an observed value; "p·100 % of requests were at or below").
 *   The ModelRun spec, MLPerf LoadGen and InferScope's published percentiles.
 * - r7: linear interpolation between order statistics (numpy `linear`, R type 7). Peer-parity only.
 * - median: mean of the two middle values for even n (R-7 at 0.5, up to the last bit).
 */
export type QuantileMethod = "nearest-rank" | "r7";

/** Finite values only; NaN, ±Infinity, null and undefined are dropped. */
export function finiteValues(values: Iterable<number | null | undefined>): Float64Array {
  const out: number[] = [];
  for (const v of values) if (v != null && Number.isFinite(v)) out.push(v);
  return Float64Array.from(out);
}

/** Nearest-rank quantile of finite values; undefined for empty input or p outside [0, 1]. Reorders `xs`. Ours: d3 has no nearest rank. */
export function quantileNearestRank(xs: Samples, p: number): number | undefined {
  const n = xs.length;
  if (n === 0 || !(p >= 0 && p <= 1)) return undefined;
  const rank = Math.max(1, Math.ceil(p * n - 1e-9));
  return selectKth(xs, rank - 1);
}

/**
 * R-7 (numpy linear) quantile: d3's quantile, which is R-7. Undefined for empty input or p outside [0, 1]
 * (d3 would clamp p); NaN is skipped; `xs` is left as it is (d3 selects in a Float64 copy, so this is for
 * peer-parity arrays, not the pooled sample columns). Where R-7 lands exactly on a −0, d3 returns +0.
 */
export function quantileR7(xs: Samples, p: number): number | undefined {
  return p >= 0 && p <= 1 ? d3Quantile(xs, p) : undefined;
}

/**
 * Median: the middle value, or the mean of the two middle values. Reorders `xs`. Not d3's median: that is
 * R-7 at 0.5, lo + (hi − lo) / 2, which differs from (lo + hi) / 2 in the last bit for about one pair in ten.
 */
export function median(xs: Samples): number | undefined {
  const n = xs.length;
  if (n === 0) return undefined;
  const hi = selectKth(xs, n >> 1);
  if (n % 2 === 1) return hi;
  const lo = selectKth(xs, (n >> 1) - 1, 0, (n >> 1) - 1);
  return (lo + hi) / 2;
}

export function quantile(xs: Samples, p: number, method: QuantileMethod): number | undefined {
  return method === "r7" ? quantileR7(xs, p) : quantileNearestRank(xs, p);
}

/**
 * Weighted nearest rank (GuideLLM's method): the smallest value whose cumulative weight reaches p·W.
 * `values` and `weights` are parallel; non-positive weights are ignored.
 */
export function quantileWeightedNearestRank(values: ArrayLike<number>, weights: ArrayLike<number>, p: number) {
  const idx: number[] = [];
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    const w = weights[i]!;
    if (w > 0 && Number.isFinite(values[i]!)) {
      idx.push(i);
      total += w;
    }
  }
  if (idx.length === 0 || !(p >= 0 && p <= 1)) return undefined;
  idx.sort((a, b) => values[a]! - values[b]!);
  const target = p * total;
  let cum = 0;
  for (const i of idx) {
    cum += weights[i]!;
    if (cum >= target - 1e-9 * total) return values[i]!;
  }
  return values[idx[idx.length - 1]!]!;
}
