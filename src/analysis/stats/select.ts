import type {Samples} from "./column.ts";
/**
 * k-th smallest value (0-based) of `xs[lo..hi]`, in place: d3-array's quickselect (Floyd–Rivest),
 * specialised to finite numbers. Linear time on average; reorders the array. Kept rather than imported:
 * d3's calls a NaN-aware comparator for every comparison, measured 3.3× slower on a 5M-value Float32
 * column (the five selections of a summary: 577 vs 175 ms), which the pooled chunk columns of a large run
 * pay on every analysis. test/analysis/stats/d3Parity.test.ts proves it reorders exactly as d3's does.
 */
export function selectKth(xs: Samples | number[], k: number, lo = 0, hi = xs.length - 1): number {
  while (hi > lo) {
    if (hi - lo > 600) {
      const n = hi - lo + 1;
      const m = k - lo + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      const newLo = Math.max(lo, Math.floor(k - (m * s) / n + sd));
      const newHi = Math.min(hi, Math.floor(k + ((n - m) * s) / n + sd));
      selectKth(xs, k, newLo, newHi);
    }
    const t = xs[k]!;
    let i = lo;
    let j = hi;
    swap(xs, lo, k);
    if (xs[hi]! > t) swap(xs, lo, hi);
    while (i < j) {
      swap(xs, i, j);
      i++;
      j--;
      while (xs[i]! < t) i++;
      while (xs[j]! > t) j--;
    }
    if (xs[lo] === t) swap(xs, lo, j);
    else {
      j++;
      swap(xs, j, hi);
    }
    if (j <= k) lo = j + 1;
    if (k <= j) hi = j - 1;
  }
  return xs[k]!;
}

function swap(xs: Samples | number[], i: number, j: number): void {
  const t = xs[i]!;
  xs[i] = xs[j]!;
  xs[j] = t;
}
