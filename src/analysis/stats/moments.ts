/*
 * Indexed loops rather than d3-array's reducers: those walk an iterator (for…of) with an accessor and
 * cost 4× here on a 5M-value Float32 column (mean + min + max: 618 vs 147 ms), and keep ±Infinity, which
 * these drop. test/analysis/stats/d3Parity.test.ts shows d3 gives the same numbers on finite input. d3's
 * deviation is the sample std only, by Welford's update, whose last bits differ from the two-pass sum here.
 */

/** Mean of finite values; undefined for none (never 0). */
export function mean(xs: ArrayLike<number>): number | undefined {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isFinite(x)) {
      n++;
      sum += x;
    }
  }
  return n > 0 ? sum / n : undefined;
}

/** Standard deviation with `ddof` (0 = population as numpy's default, 1 = sample). Undefined when n ≤ ddof. */
export function std(xs: ArrayLike<number>, ddof: 0 | 1): number | undefined {
  const m = mean(xs);
  if (m === undefined) return undefined;
  let n = 0;
  let ss = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isFinite(x)) {
      n++;
      ss += (x - m) ** 2;
    }
  }
  return n > ddof ? Math.sqrt(ss / (n - ddof)) : undefined;
}

/** Coefficient of variation = sample std / mean; undefined when the mean is 0 or n < 2. */
export function cv(xs: ArrayLike<number>): number | undefined {
  const m = mean(xs);
  const s = std(xs, 1);
  return m === undefined || s === undefined || m === 0 ? undefined : s / Math.abs(m);
}

export function min(xs: ArrayLike<number>): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isFinite(x) && (best === undefined || x < best)) best = x;
  }
  return best;
}

export function max(xs: ArrayLike<number>): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isFinite(x) && (best === undefined || x > best)) best = x;
  }
  return best;
}

export function sum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) if (Number.isFinite(xs[i]!)) s += xs[i]!;
  return s;
}
