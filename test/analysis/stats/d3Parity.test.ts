import {max as d3Max, mean as d3Mean, median as d3Median, min as d3Min, quickselect, sum as d3Sum} from "d3-array";
import fc from "fast-check";
import {describe, expect, it} from "vitest";

import {max, mean, median, min, quantileR7, selectKth, sum, summarize} from "../../../src/analysis/stats/index.ts";
import {FUZZ} from "../../fuzz/settings.ts";
import {legacyQuantileR7, legacySummarize} from "./legacyStats.ts";

/**
 * Issue 12 §5: the statistics core against d3-array, property by property on random input. The R-7 quantile
 * is now d3's: it must return what the hand-written one did (legacyStats.ts, kept as the oracle). Selection
 * and the moments stay ours for speed (see select.ts, moments.ts): they must equal d3's bit for bit, so the
 * choice is about time only. The median stays ours on purpose: d3's differs in the last bit.
 */

/** Finite doubles with many ties (small integers), zeros of both signs and wide magnitudes. */
const finite = fc.oneof(
  fc.integer({min: -5, max: 5}),
  fc.constantFrom(0, -0),
  fc.double({noNaN: true, noDefaultInfinity: true}),
  fc.double({min: 0, max: 1e4, noNaN: true})
);
/** Anything a column may hold before the finite filter. */
const anyNumber = fc.oneof(finite, fc.constantFrom(NaN, Infinity, -Infinity));
/** Unsorted, ascending or descending; up to 2,000 values so the Floyd–Rivest step (> 600) runs. */
const shaped = (xs: fc.Arbitrary<number[]>) =>
  fc
    .tuple(xs, fc.constantFrom("unsorted", "ascending", "descending"))
    .map(([v, order]) =>
      order === "unsorted" ? v : order === "ascending" ? v.sort((a, b) => a - b) : v.sort((a, b) => b - a)
    );
const finiteArrays = shaped(fc.array(finite, {maxLength: 2000}));
const anyArrays = shaped(fc.array(anyNumber, {maxLength: 300}));
const probability = fc.oneof(fc.double({min: 0, max: 1, noNaN: true}), fc.constantFrom(0, 0.5, 0.9, 0.95, 0.99, 1));

/** The same number, ±0 told apart. */
const same = (a: number | null | undefined, b: number | null | undefined): void => {
  expect(Object.is(a, b)).toBe(true);
};
/** The same number, except that R-7 landing exactly on a −0 gives +0 in d3 (it adds (hi − lo)·0); JSON writes both as 0. */
const sameUpToZeroSign = (a: number | null | undefined, b: number | null | undefined): void => {
  if (!(a === 0 && b === 0)) same(a, b);
};
const f64 = (xs: readonly number[]) => Float64Array.from(xs);
const sameOrder = (a: ArrayLike<number>, b: ArrayLike<number>): void => {
  expect(Array.from(a).every((x, i) => Object.is(x, b[i]))).toBe(true);
};

describe("quantileR7 is d3's quantile and returns what the hand-written R-7 did", () => {
  it("on finite values, sorted or not, empty input and p outside [0, 1] included", () => {
    fc.assert(
      fc.property(finiteArrays, fc.oneof(probability, fc.constantFrom(-0.1, 1.5, NaN)), (values, p) => {
        sameUpToZeroSign(quantileR7(f64(values), p), legacyQuantileR7(f64(values), p));
      }),
      FUZZ
    );
    expect(quantileR7(new Float64Array(), 0.5)).toBeUndefined();
    expect(quantileR7(Float64Array.of(1, 2), 1.01)).toBeUndefined();
    expect(quantileR7(Float64Array.of(1, 2), NaN)).toBeUndefined();
  });

  it("skips NaN (the old one needed finite input) and leaves its input in order", () => {
    fc.assert(
      fc.property(finiteArrays, fc.nat(), probability, (values, at, p) => {
        const i = at % (values.length + 1);
        const withNaN = f64([...values.slice(0, i), NaN, ...values.slice(i)]);
        const before = withNaN.slice();
        sameUpToZeroSign(quantileR7(withNaN, p), legacyQuantileR7(f64(values), p));
        sameOrder(withNaN, before);
      }),
      FUZZ
    );
  });

  it("summarize gives the same summary under both methods, and the same reordering under nearest rank", () => {
    fc.assert(
      fc.property(anyArrays, fc.constantFrom("nearest-rank" as const, "r7" as const), (values, method) => {
        const a = f64(values);
        const b = f64(values);
        const want = legacySummarize(a, method);
        const got = summarize(b, method);
        expect(got).toEqual(want);
        for (const k of ["n", "mean", "std", "min", "max", "p50", "p90", "p95", "p99"] as const)
          sameUpToZeroSign(got[k], want[k]);
        // R-7 now selects in a copy, so only the nearest-rank path still reorders its input.
        if (method === "nearest-rank") sameOrder(b, a);
      }),
      FUZZ
    );
  });
});

describe("what stays ours equals d3-array bit for bit (kept for speed)", () => {
  it("selectKth reorders exactly as d3's quickselect, on Float64 and Float32 columns, any sub-range", () => {
    fc.assert(
      fc.property(
        fc.array(finite, {minLength: 1, maxLength: 3000}),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (v, kk, ll, f32) => {
          const k = kk % v.length;
          const lo = ll % (k + 1);
          const a = f32 ? Float32Array.from(v) : f64(v);
          const b = a.slice();
          same(selectKth(a, k, lo), quickselect(b, k, lo)[k]);
          sameOrder(a, b);
        }
      ),
      FUZZ
    );
  });

  it("mean, min, max and sum equal d3's on finite values (d3 keeps ±Infinity, ours drop it)", () => {
    fc.assert(
      fc.property(finiteArrays, (values) => {
        same(mean(values), d3Mean(values));
        same(min(values), d3Min(values));
        same(max(values), d3Max(values));
        same(sum(values), d3Sum(values));
      }),
      FUZZ
    );
    expect([mean([1, Infinity]), d3Mean([1, Infinity])]).toEqual([1, Infinity]);
  });

  it("the median is not d3's: (lo + hi) / 2 and d3's lo + (hi − lo) / 2 differ in the last bit", () => {
    const pair = Float64Array.of(59.46481180590511, 125.97480843539887);
    expect(median(pair.slice())).toBe(92.71981012065199);
    expect(d3Median(pair)).toBe(92.719810120652);
  });
});
