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

  it("our canonical statistic keeps the report's floors; p50 is the midpoint median", () => {
    expect(canonicalStat([1, 2, 3, 4], {p: 90})).toMatchObject({value: undefined});
    // a median of 4 values is withheld as the report withholds it (the imports page published 93.5 from n = 4)
    expect(canonicalStat([1, 2, 3, 4], {p: 50})).toEqual({
      value: undefined,
      withheld: "n=4 < 5: a median needs at least 5 samples"
    });
    expect(canonicalStat([1, 2, 3, 4], "median").withheld).toBe("n=4 < 5: a median needs at least 5 samples");
    expect(canonicalStat([1, 2, 3, 4, 5, 6], {p: 50})).toEqual({value: 3.5});
    // P90 needs 10 values: 9 withheld; of 10, the nearest rank ⌈9⌉ = the 9th value
    expect(canonicalStat([1, 2, 3, 4, 5, 6, 7, 8, 9], {p: 90}).value).toBeUndefined();
    expect(canonicalStat([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], {p: 90})).toEqual({value: 9});
    expect(
      canonicalStat(
        Array.from({length: 20}, (_, i) => i + 1),
        {p: 90}
      )
    ).toEqual({value: 18});
  });
});
