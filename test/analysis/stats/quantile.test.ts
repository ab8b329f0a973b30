import {describe, expect, it} from "vitest";

import {
  finiteValues,
  median,
  quantileNearestRank,
  quantileR7,
  quantileWeightedNearestRank,
  summarize,
  withheldReason
} from "../../../src/analysis/stats/index.ts";

const range = (a: number, b: number) => Float64Array.from({length: b - a + 1}, (_, i) => a + i);

describe("quantiles", () => {
  it("quantileNearestRank is undefined for empty input and returns the single value for n = 1", () => {
    expect(quantileNearestRank(new Float64Array(), 0.5)).toBeUndefined();
    expect(quantileNearestRank(Float64Array.of(7), 0.99)).toBe(7);
  });

  it("quantileNearestRank takes the ⌈p·n⌉-th smallest value", () => {
    expect(quantileNearestRank(range(1, 20), 0.95)).toBe(19);
    expect(quantileNearestRank(range(1, 100), 0.99)).toBe(99);
    expect(quantileNearestRank(range(1, 10), 0.9)).toBe(9);
    expect(quantileNearestRank(Float64Array.of(5, 1, 4, 2, 3), 0.5)).toBe(3);
    expect(quantileNearestRank(Float64Array.of(10, 20, 30, 40), 0.25)).toBe(10);
  });

  it("quantileR7 matches numpy's linear interpolation", () => {
    // numpy.percentile([1, 2, 3, 4], 90) = 3.7; ([15, 20, 35, 40, 50], 40) = 29
    expect(quantileR7(Float64Array.of(1, 2, 3, 4), 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileR7(Float64Array.of(15, 20, 35, 40, 50), 0.4)).toBeCloseTo(29, 12);
    expect(quantileR7(Float64Array.of(3), 0.99)).toBe(3);
    expect(quantileR7(new Float64Array(), 0.5)).toBeUndefined();
  });

  it("median averages the two middle values and handles ties", () => {
    expect(median(Float64Array.of(4, 1, 3, 2))).toBe(2.5);
    expect(median(Float64Array.of(2, 2, 2, 9))).toBe(2);
    expect(median(new Float64Array())).toBeUndefined();
  });

  it("quantiles are correct on large unsorted input (quickselect path)", () => {
    const xs = Float64Array.from({length: 10_001}, (_, i) => (i * 7919) % 10_001);
    // ⌈0.99 · 10001⌉ = 9901st smallest of 0…10000
    expect(quantileNearestRank(xs.slice(), 0.99)).toBe(9900);
    expect(median(xs.slice())).toBe(5000);
  });

  it("finiteValues drops NaN, ±Infinity, null and undefined", () => {
    expect([...finiteValues([1, NaN, Infinity, -Infinity, null, undefined, 2])]).toEqual([1, 2]);
  });

  it("weighted nearest rank reaches p of the total weight (GuideLLM's method)", () => {
    expect(quantileWeightedNearestRank([1, 2, 3], [1, 1, 2], 0.5)).toBe(2);
    expect(quantileWeightedNearestRank([1, 2, 3], [1, 1, 2], 0.51)).toBe(3);
    expect(quantileWeightedNearestRank([], [], 0.5)).toBeUndefined();
  });
});

describe("summarize: small-sample floors", () => {
  it("withholds P95 below 20 values and says why instead of printing the maximum", () => {
    const s = summarize(range(1, 19));
    expect(s.p95).toBeNull();
    expect(s.withheld.p95).toBe("n=19 < 20: a P95 of fewer than 20 values is just the maximum");
    expect(summarize(range(1, 20)).p95).toBe(19);
  });

  it("withholds the median below 5 values, P90 below 10 and P99 below 100", () => {
    const s = summarize(range(1, 4));
    expect(s.p50).toBeNull();
    expect(s.withheld.p50).toMatch(/median needs at least 5/);
    expect(summarize(range(1, 9)).p90).toBeNull();
    expect(summarize(range(1, 10)).p90).toBe(9);
    expect(summarize(range(1, 99)).p99).toBeNull();
    expect(summarize(range(1, 5)).p50).toBe(3);
  });

  it("ignores NaN and ±Infinity", () => {
    const s = summarize(Float64Array.of(3, NaN, 1, Infinity, 2, -Infinity, 5, 4));
    expect(s).toMatchObject({n: 5, mean: 3, min: 1, max: 5, p50: 3});
  });

  it("empty input gives nulls, never zeros", () => {
    expect(summarize(new Float64Array())).toMatchObject({
      n: 0,
      mean: null,
      min: null,
      max: null,
      p50: null,
      withheld: {}
    });
    expect(withheldReason("p95", 0)).toBeUndefined();
  });

  it("mean and population std over the values", () => {
    const s = summarize(Float64Array.of(2, 4, 4, 4, 5, 5, 7, 9));
    expect(s.mean).toBe(5);
    expect(s.std).toBe(2);
  });
});
