import type {Samples} from "./column.ts";
import {max, mean, min, std} from "./moments.ts";
import {quantileR7, type QuantileMethod} from "./quantile.ts";
import {selectKth} from "./select.ts";

export const PERCENTILE_KEYS = ["p50", "p90", "p95", "p99"] as const;
export type PercentileKey = (typeof PERCENTILE_KEYS)[number];

/**
 * Small-sample floors. Below them a percentile is withheld (null, with the reason) instead of printed:
 * a nearest-rank P95 of fewer than 20 values is simply the maximum, P99 needs 100, P90 needs 10;
 * a median (and any stability class) needs 5 (the ModelRun protocol floor).
 */
export const PERCENTILE_FLOORS: Readonly<Record<PercentileKey, number>> = {p50: 5, p90: 10, p95: 20, p99: 100};

const PROBABILITY: Readonly<Record<PercentileKey, number>> = {p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99};

export interface Summary {
  n: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  method: QuantileMethod;
  /** Why a percentile is null although values exist. */
  withheld: Partial<Record<PercentileKey, string>>;
}

export function withheldReason(key: PercentileKey, n: number): string | undefined {
  const floor = PERCENTILE_FLOORS[key];
  if (n === 0 || n >= floor) return undefined;
  return key === "p50"
    ? `n=${n} < ${floor}: a median needs at least ${floor} samples`
    : `n=${n} < ${floor}: a ${key.toUpperCase()} of fewer than ${floor} values is just the maximum`;
}

/**
 * Distribution summary of the finite values (NaN and ±Infinity are dropped). Percentiles use `method` (p50 is always the median);
 * std is the population std (ddof 0) as the percentile-reporting peers do. Empty input gives nulls, never 0.
 * Reorders `values`.
 */
export function summarize(input: Samples, method: QuantileMethod = "nearest-rank"): Summary {
  const values = input.every(Number.isFinite) ? input : input.filter(Number.isFinite);
  const n = values.length;
  const withheld: Partial<Record<PercentileKey, string>> = {};
  const out: Summary = {
    n,
    mean: mean(values) ?? null,
    std: std(values, 0) ?? null,
    min: min(values) ?? null,
    max: max(values) ?? null,
    p50: null,
    p90: null,
    p95: null,
    p99: null,
    method,
    withheld
  };
  for (const key of n === 0 ? [] : PERCENTILE_KEYS) {
    const reason = withheldReason(key, n);
    if (reason) withheld[key] = reason;
    else out[key] = percentileOf(values, key, method);
  }
  return out;
}

/**
 * One percentile of finite `values` as every published summary computes it: p50 is the median (the middle two
 * averaged), the others by `method` (nearest rank: the ⌈p·n⌉-th smallest). Null for no values; no floor is
 * applied (withheldReason says when one applies). Reorders `values`. The regression gate reads this too.
 */
export function percentileOf(
  values: Samples,
  key: PercentileKey,
  method: QuantileMethod = "nearest-rank"
): number | null {
  const n = values.length;
  if (n === 0) return null;
  if (key === "p50") {
    const hiIdx = n >> 1;
    const hi = selectKth(values, hiIdx);
    return n % 2 === 1 ? hi : (selectKth(values, hiIdx - 1, 0, hiIdx - 1) + hi) / 2;
  }
  if (method === "r7") return quantileR7(values, PROBABILITY[key]) ?? null;
  return selectKth(values, Math.max(1, Math.ceil(PROBABILITY[key] * n - 1e-9)) - 1);
}
