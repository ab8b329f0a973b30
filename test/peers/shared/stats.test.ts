import {describe, expect, it} from "vitest";

import {
  canonicalStat,
  numpyStat,
  parseGuidellmPercentile,
  parseStat,
  weightedStat
} from "../../../src/analysis/peers/shared/stats.ts";

describe("statistics under each tool's method", () => {
  it("stat labels: p99, p99.9, avg, stddev, std_dev; GuideLLM's p001 = 0.1 %, p999 = 99.9 %", () => {
    expect([
      parseStat("p99.9"),
      parseStat("avg"),
      parseStat("stddev"),
      parseStat("std_dev"),
      parseStat("bogus")
    ]).toEqual([{p: 99.9}, "mean", "std", "std", null]);
    expect(["p001", "p01", "p05", "p50", "p999"].map(parseGuidellmPercentile)).toEqual([0.1, 1, 5, 50, 99.9]);
  });

  it("numpy R-7 percentiles and ddof (numpy.percentile([1,2,3,4], 99) = 3.97; sample std of 1..4 = 1.2910)", () => {
    expect(numpyStat([1, 2, 3, 4], {p: 99})).toBeCloseTo(3.97, 12);
    expect(numpyStat([1, 2, 3, 4], "std", 1)).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(numpyStat([1, 2, 3, 4], "std", 0)).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(numpyStat([], "mean")).toBeUndefined();
  });

  it("GuideLLM's weighted nearest rank: the smallest value whose cumulative weight reaches p", () => {
    // four requests, 1023 tokens each: p50 is the 2nd sorted value, p25 the 1st, p75 the 3rd
    const v = [24.17865, 24.17893, 24.17863, 24.17888];
    const w = [1023, 1023, 1023, 1023];
    expect([
      weightedStat(v, w, {p: 25}),
      weightedStat(v, w, "median"),
      weightedStat(v, w, {p: 75}),
      weightedStat(v, w, "count")
    ]).toEqual([24.17863, 24.17865, 24.17888, 4092]);
    // a heavy value dominates the weighted median
    expect(weightedStat([1, 2, 3], [1, 1, 10], "median")).toBe(3);
  });

  it("our canonical statistic withholds a percentile that would just be the maximum; p50 is the midpoint median", () => {
    expect(canonicalStat([1, 2, 3, 4], {p: 90})).toMatchObject({value: undefined});
    expect(canonicalStat([1, 2, 3, 4], {p: 50})).toEqual({value: 2.5});
    expect(
      canonicalStat(
        Array.from({length: 20}, (_, i) => i + 1),
        {p: 90}
      )
    ).toEqual({value: 18});
  });
});
