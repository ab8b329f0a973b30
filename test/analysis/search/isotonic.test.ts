import {describe, expect, it} from "vitest";

import {crossingOf, isotonicFit} from "../../../src/analysis/search/isotonic.ts";

describe("isotonicFit (pool adjacent violators)", () => {
  it("leaves a non-decreasing sequence as it is", () => {
    expect(isotonicFit([0.2, 0.5, 2])).toEqual([0.2, 0.5, 2]);
    expect(isotonicFit([])).toEqual([]);
  });

  it("pools a dip into the mean of the violators", () => {
    // 3 > 2: pooled to 2.5
    expect(isotonicFit([1, 3, 2])).toEqual([1, 2.5, 2.5]);
    // 3 > 1: pooled to 2, which ties with the last 2
    expect(isotonicFit([3, 1, 2])).toEqual([2, 2, 2]);
  });

  it("pools with weights, back through earlier blocks", () => {
    // 4, 2 → 3 (weight 2); then 3 > 0 (weight 2) → (3·2 + 0·2) / 4 = 1.5
    expect(isotonicFit([4, 2, 0], [1, 1, 2])).toEqual([1.5, 1.5, 1.5]);
  });
});

describe("crossingOf", () => {
  it("interpolates between the last load at or under 1 and the next", () => {
    // between 4 (0.5) and 8 (2): 4 + (1 − 0.5) / (2 − 0.5) · 4 = 5.333…
    const c = crossingOf([2, 4, 8], [0.5, 0.5, 2]);
    expect(c.kind).toBe("between");
    expect(c.kind === "between" && c.value).toBeCloseTo(16 / 3, 12);
  });

  it("says when the answer is bounded by the range", () => {
    expect(crossingOf([2, 4], [1.2, 3])).toEqual({kind: "below_range"});
    // a margin of exactly 1 holds
    expect(crossingOf([2, 4], [0.1, 1])).toEqual({kind: "at_or_above_max", value: 4});
    expect(crossingOf([], [])).toEqual({kind: "below_range"});
  });
});
