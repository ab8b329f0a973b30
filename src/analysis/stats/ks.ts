/**
 * One-sample Kolmogorov–Smirnov test of `xs` against a continuous CDF.
 * Returns the statistic D and the asymptotic p-value (Kolmogorov distribution, Stephens' small-n correction).
 */
export function ksTest(
  xs: readonly number[],
  cdf: (x: number) => number
): {d: number; p: number; n: number} | undefined {
  const sorted = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return undefined;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  const sqrtN = Math.sqrt(n);
  return {d, p: kolmogorovSurvival((sqrtN + 0.12 + 0.11 / sqrtN) * d), n};
}

/** P(K > x) for the Kolmogorov distribution. */
export function kolmogorovSurvival(x: number): number {
  if (x <= 0) return 1;
  if (x < 0.2) return 1;
  let s = 0;
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * x * x);
    s += term;
    if (Math.abs(term) < 1e-12) break;
  }
  return Math.min(1, Math.max(0, s));
}

export const exponentialCdf =
  (rate: number) =>
  (x: number): number =>
    x <= 0 ? 0 : 1 - Math.exp(-rate * x);
