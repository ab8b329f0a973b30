import {describe, expect, it} from "vitest";

import {guidellmQuantilePerValue, percentShare, weightedStat} from "../../../src/analysis/peers/shared/stats.ts";

/** `n` copies of `v`. */
const times = (n: number, v: number): number[] => Array.from({length: n}, () => v);

/**
 * GuideLLM compares its running share with literals (0.999 for p999), not with p / 100; and 0.2–0.3 built the
 * CDF one step per value while 0.4+ merges equal values first (objects/statistics.py vs schemas/statistics.py).
 */
describe("GuideLLM's percentile, as the version that wrote the file computes it", () => {
  it("the share is the decimal literal: p99.9 → 0.999, not 99.9 / 100 = 0.9990000000000001", () => {
    expect(99.9 / 100).not.toBe(0.999);
    expect(percentShare(99.9)).toBe(0.999);
    expect([0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99].map(percentShare)).toEqual([
      0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99
    ]);
  });

  it("p999 of 950 × 512, 38 × 513, 11 × 514, 1 × 515 is 514: the share reaches 0.999 at 514 under both CDFs", () => {
    // merged (0.4+): 0.95 + 0.038 + 0.011 = 0.999 exactly in float64, which 0.999 reaches and
    // 0.9990000000000001 does not; per value (0.2–0.3): 999 steps of 0.001 sum to 0.9990000000000008
    const values = [...times(950, 512), ...times(38, 513), ...times(11, 514), 515];
    const ones = times(1000, 1);
    expect(0.95 + 0.038 + 0.011).toBe(0.999);
    expect(weightedStat(values, ones, {p: 99.9})).toBe(514);
    expect(weightedStat(values, ones, {p: 99.9}, "per-value")).toBe(514);
    // p99: the share is 0.988 after the 513s, short of 0.99, so p99 is 514 too
    expect(weightedStat(values, ones, {p: 99}, "per-value")).toBe(514);
    expect(weightedStat(values, ones, {p: 95}, "per-value")).toBe(512);
  });

  it("0.2–0.3 steps once per value: p90 of nine 1s and one 2 is 2 there (0.1 × 9 = 0.8999999999999999), 1 in 0.4+", () => {
    const values = [...times(9, 1), 2];
    const ones = times(10, 1);
    let share = 0;
    for (let i = 0; i < 9; i++) share += 0.1;
    expect(share).toBe(0.8999999999999999);
    expect(weightedStat(values, ones, {p: 90}, "per-value")).toBe(2);
    // merged: one step of 9/10 = 0.9 reaches 0.9 at the value 1
    expect(weightedStat(values, ones, {p: 90}, "merged")).toBe(1);
    expect(weightedStat(values, ones, {p: 90})).toBe(1);
  });

  it("0.2–0.3 gives the smallest value when no step reaches the share (numpy's argmax of all-false)", () => {
    // ten steps of 0.1 sum to 0.9999999999999999 < 1
    const values = [5, 3, 9, 1, 7, 2, 8, 4, 10, 6];
    expect(guidellmQuantilePerValue(values, times(10, 1), 1)).toBe(1);
    expect(guidellmQuantilePerValue(values, times(10, 1), 0.5)).toBe(5);
    expect(guidellmQuantilePerValue([], [], 0.5)).toBeUndefined();
  });
});
