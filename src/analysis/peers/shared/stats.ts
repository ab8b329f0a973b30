import {max, mean, min, std} from "../../stats/moments.ts";
import {median, quantileNearestRank, quantileR7} from "../../stats/quantile.ts";
import {PERCENTILE_KEYS, withheldReason, type PercentileKey} from "../../stats/summarize.ts";

/**
 * The statistics peer tools print, each under the tool's own method. A `Stat` names one printed number:
 * mean, median, std, min, max, count or a percentile p (0–100).
 */
export type Stat = "mean" | "median" | "std" | "min" | "max" | "count" | {p: number};

export const statLabel = (s: Stat): string => (typeof s === "string" ? s : `p${s.p}`);

/** Reads a stat label back: mean, median, avg (= mean), std/stddev/std_dev, min, max, count, pNN / pNN.N. */
export function parseStat(label: string): Stat | null {
  if (label === "mean" || label === "avg") return "mean";
  if (label === "median") return "median";
  if (label === "std" || label === "stddev" || label === "std_dev") return "std";
  if (label === "min" || label === "max" || label === "count") return label;
  const m = /^p(\d+(?:\.\d+)?)$/.exec(label);
  return m ? {p: Number(m[1])} : null;
}

/** GuideLLM writes p001 = 0.1 %, p01 = 1 %, p05 = 5 %, p999 = 99.9 %: digits after an implied "0.". */
export function parseGuidellmPercentile(label: string): number | null {
  const m = /^p(\d+)$/.exec(label);
  if (!m) return null;
  const d = m[1]!;
  if (d.length === 2) return Number(d);
  if (d.length === 3) return Number(d) / 10;
  return null;
}

const arr = (xs: readonly number[]) => Float64Array.from(xs);

/** numpy-style statistic (R-7 percentiles, std with `ddof`) of unweighted values; undefined when empty. */
export function numpyStat(values: readonly number[], stat: Stat, ddof: 0 | 1 = 0): number | undefined {
  if (values.length === 0) return undefined;
  if (stat === "mean") return mean(values);
  if (stat === "median") return median(arr(values));
  if (stat === "std") return std(values, ddof);
  if (stat === "min") return min(values);
  if (stat === "max") return max(values);
  if (stat === "count") return values.length;
  return quantileR7(arr(values), stat.p / 100);
}

/**
 * How GuideLLM builds the CDF its percentiles read. "merged" (0.4 and later, schemas/statistics.py
 * `from_values` → `Percentiles.from_pdf`): equal values merged, zero weights dropped, then the first value
 * whose running share is ≥ q (searchsorted, side left). "per-value" (0.2–0.3, objects/statistics.py
 * `from_distribution_function`): one CDF step per value, equal values not merged, and the first step whose
 * running share is ≥ q (argmax, which gives the first value when no step reaches q).
 */
export type GuidellmCdf = "merged" | "per-value";

/**
 * The share GuideLLM compares with, as its source writes it: the decimal literal (0.999 for p99.9), not
 * p / 100 (99.9 / 100 = 0.9990000000000001, which a running share of exactly 0.999 does not reach).
 * Shifting the decimal point in the text gives the double nearest to the decimal, as Python's literal does.
 */
export const percentShare = (p: number): number => Number(`${p}e-2`);

/** GuideLLM-style statistic: weighted mean, weighted population std, nearest rank on the weighted CDF. */
export function weightedStat(
  values: readonly number[],
  weights: readonly number[],
  stat: Stat,
  cdf: GuidellmCdf = "merged"
): number | undefined {
  let w = 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    w += weights[i]!;
    s += weights[i]! * values[i]!;
  }
  if (values.length === 0 || w <= 0) return undefined;
  const m = s / w;
  if (stat === "mean") return m;
  if (stat === "count") return w;
  if (stat === "min") return min(values);
  if (stat === "max") return max(values);
  if (stat === "std") {
    let v = 0;
    for (let i = 0; i < values.length; i++) v += weights[i]! * (values[i]! - m) ** 2;
    return Math.sqrt(v / w);
  }
  const q = stat === "median" ? 0.5 : percentShare(stat.p);
  return cdf === "merged" ? guidellmQuantile(values, weights, q) : guidellmQuantilePerValue(values, weights, q);
}

/**
 * GuideLLM's percentile exactly as numpy computes it (schemas/statistics.py `from_values` → `Percentiles
 * .from_pdf`): equal values merged, zero weights dropped, probabilities w / Σw, their float64 running sum,
 * and the first value whose running sum is ≥ q (searchsorted, side left). The float sum matters: ten equal
 * weights sum to 0.8999999999999999 at the ninth, so p90 of ten values is the tenth, not the ninth.
 */
export function guidellmQuantile(values: readonly number[], weights: readonly number[], q: number): number | undefined {
  const merged = new Map<number, number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) merged.set(v, (merged.get(v) ?? 0) + weights[i]!);
  }
  const pdf = [...merged].filter(([, w]) => w > 0).sort((a, b) => a[0] - b[0]);
  if (pdf.length === 0) return undefined;
  let total = 0;
  for (const [, w] of pdf) total += w;
  let cdf = 0;
  for (const [v, w] of pdf) {
    cdf += w / total;
    if (cdf >= q) return v;
  }
  return pdf.at(-1)![0];
}

/**
 * GuideLLM 0.2–0.3's percentile (`from_distribution_function`): values sorted, each its own step w / Σw, the
 * float64 running sum, the first value whose sum is ≥ q, and the smallest value when none is (numpy's argmax
 * of all-false). Equal values with different weights are summed in numpy's sort order, which is not kept: the
 * value picked is the same, and only a threshold falling within a float rounding of the next step could move.
 */
export function guidellmQuantilePerValue(
  values: readonly number[],
  weights: readonly number[],
  q: number
): number | undefined {
  const pdf: [number, number][] = [];
  let total = 0;
  for (let i = 0; i < values.length; i++)
    if (Number.isFinite(values[i]!)) {
      pdf.push([values[i]!, weights[i]!]);
      total += weights[i]!;
    }
  if (pdf.length === 0 || !(total > 0)) return undefined;
  pdf.sort((a, b) => a[0] - b[0]);
  let cdf = 0;
  for (const [v, w] of pdf) {
    cdf += w / total;
    if (cdf >= q) return v;
  }
  return pdf[0]![0];
}

/**
 * InferScope's canonical statistic of the same name: mean, median (= our p50), population std, min, max,
 * and nearest-rank percentiles, withheld (undefined) when ⌈p·n⌉ = n — the value would just be the maximum.
 */
export function canonicalStat(values: readonly number[], stat: Stat): {value: number | undefined; withheld?: string} {
  const n = values.length;
  if (n === 0) return {value: undefined};
  // a median and the published percentiles keep the report's floors (a median needs 5 values, P90 10, P95 20,
  // P99 100): the canonical column shows what the report publishes, never a number it withholds
  const key = stat === "median" ? "p50" : typeof stat === "object" ? PUBLISHED.get(stat.p) : undefined;
  const floor = key === undefined ? undefined : withheldReason(key, n);
  if (floor !== undefined) return {value: undefined, withheld: floor};
  if (typeof stat === "string") return {value: numpyStat(values, stat, 0)};
  if (stat.p === 50) return {value: numpyStat(values, "median")};
  const p = stat.p / 100;
  const rank = Math.max(1, Math.ceil(p * n - 1e-9));
  if (rank === n && p < 1)
    return {value: undefined, withheld: `n=${n}: a nearest-rank p${stat.p} of ${n} values is just the maximum`};
  return {value: quantileNearestRank(arr(values), p)};
}

/** The percentiles the report publishes, by p (from PERCENTILE_KEYS: "p95" → 95). */
const PUBLISHED: ReadonlyMap<number, PercentileKey> = new Map(PERCENTILE_KEYS.map((k) => [Number(k.slice(1)), k]));

/** Relative difference |a − b| / max(|a|, |b|); 0 when both are 0. */
export function relDiff(a: number, b: number): number {
  const d = Math.abs(a - b);
  const s = Math.max(Math.abs(a), Math.abs(b));
  return s === 0 ? 0 : d / s;
}
