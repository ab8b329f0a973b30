import {describe, expect, it} from "vitest";

import {percentileOf} from "../../../src/analysis/stats/summarize.ts";

/** The one percentile every published summary (and the regression gate) reads, values worked out by hand. */
const oneToTen = () => Float64Array.from([7, 3, 10, 1, 9, 2, 8, 5, 6, 4]);

describe("percentileOf", () => {
  it("is null, not NaN or undefined, for no values, at every percentile and method", () => {
    for (const key of ["p50", "p90", "p95", "p99"] as const) {
      expect(percentileOf(new Float64Array(0), key)).toBeNull();
      expect(percentileOf(new Float64Array(0), key, "r7")).toBeNull();
    }
  });

  it("takes the median as the middle value, or the mean of the middle two", () => {
    expect(percentileOf(oneToTen(), "p50")).toBe(5.5); // (5 + 6) / 2
    expect(percentileOf(Float64Array.from([9, 1, 5]), "p50")).toBe(5);
    expect(percentileOf(Float64Array.from([4]), "p50")).toBe(4);
  });

  it("reads nearest rank by default (the ⌈p·n⌉-th smallest) and R7 when asked", () => {
    // n = 10: P90 nearest rank is the 9th smallest, 9; R7 interpolates at h = 1 + 0.9·9 = 9.1 → 9 + 0.1·(10 − 9)
    expect(percentileOf(oneToTen(), "p90")).toBe(9);
    expect(percentileOf(oneToTen(), "p90", "nearest-rank")).toBe(9);
    expect(percentileOf(oneToTen(), "p90", "r7")).toBeCloseTo(9.1, 12);
    // P95: ⌈9.5⌉ = 10th smallest; R7 at h = 1 + 0.95·9 = 9.55 → 9.55
    expect(percentileOf(oneToTen(), "p95")).toBe(10);
    expect(percentileOf(oneToTen(), "p95", "r7")).toBeCloseTo(9.55, 12);
  });
});
