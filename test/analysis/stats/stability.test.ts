import {describe, expect, it} from "vitest";

import {
  bootstrapMedianDiff,
  cv,
  exponentialCdf,
  gammaCdf,
  ksTest,
  mean,
  mulberry32,
  stability,
  stabilityClass,
  std
} from "../../../src/analysis/stats/index.ts";

describe("stability across repeats", () => {
  it("classes follow the CV thresholds ≤ 8 % high, ≤ 18 % medium, else low", () => {
    expect(stabilityClass(0.08)).toBe("high");
    expect(stabilityClass(0.0801)).toBe("medium");
    expect(stabilityClass(0.18)).toBe("medium");
    expect(stabilityClass(0.19)).toBe("low");
  });

  it("n < 3 is 'few samples', not 'unstable'; 3–4 gives a provisional CV; n ≥ 5 gives median and class", () => {
    expect(stability([10, 30])).toMatchObject({
      n: 2,
      class: null,
      median: null,
      cv: null,
      note: "few samples (n=2 < 3)"
    });
    expect(stability([10, 11, 12])).toMatchObject({n: 3, class: null, median: null});
    expect(stability([10, 11, 12]).cv).toBeCloseTo(0.0909, 3);
    expect(stability([100, 101, 99, 100, 100])).toMatchObject({n: 5, median: 100, class: "high", note: null});
  });

  it("std uses the requested ddof; cv uses the sample std; empty input is undefined", () => {
    expect(std([1, 2, 3, 4], 0)).toBeCloseTo(1.118034, 6);
    expect(std([1, 2, 3, 4], 1)).toBeCloseTo(1.290994, 6);
    expect(std([5], 1)).toBeUndefined();
    expect(mean([])).toBeUndefined();
    expect(cv([0, 0, 0])).toBeUndefined();
  });
});

describe("arrival tests and intervals", () => {
  it("KS accepts seeded exponential gaps and rejects constant ones", () => {
    const rng = mulberry32(1);
    const gaps = Array.from({length: 2000}, () => -Math.log(1 - rng()) / 10);
    expect(ksTest(gaps, exponentialCdf(10))!.p).toBeGreaterThan(0.01);
    expect(ksTest(Array(200).fill(0.1), exponentialCdf(10))!.p).toBeLessThan(1e-6);
    expect(ksTest([], exponentialCdf(1))).toBeUndefined();
  });

  it("gamma CDF with shape 1 equals the exponential CDF", () => {
    for (const x of [0.01, 0.1, 0.5, 2]) expect(gammaCdf(x, 1, 10)).toBeCloseTo(exponentialCdf(10)(x), 10);
    expect(gammaCdf(2, 2, 1)).toBeCloseTo(1 - 3 * Math.exp(-2), 10);
  });

  it("bootstrap interval of a median difference contains the true shift and needs ≥ 5 per side", () => {
    const rng = mulberry32(3);
    const a = Array.from({length: 200}, () => 100 + rng() * 10);
    const b = a.map((x) => x + 20);
    const ci = bootstrapMedianDiff(a, b, mulberry32(9), 500)!;
    expect(ci.lo).toBeLessThanOrEqual(20);
    expect(ci.hi).toBeGreaterThanOrEqual(20);
    expect(bootstrapMedianDiff([1, 2, 3, 4], a, mulberry32(1))).toBeUndefined();
  });

  it("mulberry32 is reproducible", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
