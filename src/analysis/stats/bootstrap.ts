import {median} from "./quantile.ts";

export interface Interval {
  lo: number;
  hi: number;
  level: number;
  resamples: number;
  method: string;
}

/**
 * Percentile-bootstrap confidence interval of the difference of medians (b − a), seeded.
 * Undefined when either side has fewer than 5 values (no median is published below that).
 */
export function bootstrapMedianDiff(
  a: readonly number[],
  b: readonly number[],
  rng: () => number,
  resamples = 2000,
  level = 0.95
): Interval | undefined {
  if (a.length < 5 || b.length < 5) return undefined;
  const diffs = new Float64Array(resamples);
  const sa = new Float64Array(a.length);
  const sb = new Float64Array(b.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < a.length; i++) sa[i] = a[Math.floor(rng() * a.length)]!;
    for (let i = 0; i < b.length; i++) sb[i] = b[Math.floor(rng() * b.length)]!;
    diffs[r] = median(sb)! - median(sa)!;
  }
  diffs.sort();
  const alpha = (1 - level) / 2;
  return {
    lo: diffs[Math.floor(alpha * (resamples - 1))]!,
    hi: diffs[Math.ceil((1 - alpha) * (resamples - 1))]!,
    level,
    resamples,
    method: "percentile bootstrap of the median difference"
  };
}
