import {describe, expect, it} from "vitest";

import {
  concurrencyShare,
  globalOrdinal,
  localOrdinal,
  ownCount,
  owns,
  parseSlice,
  slicesOf
} from "../../../src/analysis/schema/shard.ts";

/** Issue 17: the slice of an experiment a shard owns; every expected value is counted by hand. */
describe("a shard's slice of the plan", () => {
  it("shard 1 of 4 owns 1, 5, 9 of 0…10 (11 ordinals), shard 3 owns 3, 7", () => {
    const s1 = {index: 1, count: 4};
    const s3 = {index: 3, count: 4};
    expect([...Array(11).keys()].filter((i) => owns(s1, i))).toEqual([1, 5, 9]);
    expect(ownCount(s1, 11)).toBe(3);
    expect(ownCount(s3, 11)).toBe(2);
    expect(ownCount(s3, 3)).toBe(0); // ordinals 0, 1, 2: none is shard 3's
    expect(ownCount(s3, 4)).toBe(1);
    expect(ownCount({index: 0, count: 1}, 11)).toBe(11);
    expect(globalOrdinal(s1, 2)).toBe(9);
    expect(localOrdinal(s1, 9)).toBe(2);
  });

  it("every ordinal belongs to exactly one shard, whatever the count", () => {
    for (const n of [1, 2, 3, 7])
      for (const total of [0, 1, 5, 22]) {
        const counts = Array.from({length: n}, (_, k) => ownCount({index: k, count: n}, total));
        expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
      }
  });

  it("splits a concurrency of 10 over 4 shards as 3, 3, 2, 2 (the remainder to the first)", () => {
    expect([0, 1, 2, 3].map((k) => concurrencyShare({index: k, count: 4}, 10))).toEqual([3, 3, 2, 2]);
    expect([0, 1].map((k) => concurrencyShare({index: k, count: 2}, 2))).toEqual([1, 1]);
  });

  it("reads K/N, and says what is wrong with anything else", () => {
    expect(parseSlice("2/4")).toEqual({index: 2, count: 4});
    expect(parseSlice(" 0 / 1 ")).toEqual({index: 0, count: 1});
    expect(parseSlice("4/4")).toBe("shard index 4 is not below the shard count 4 (K counts from 0)");
    expect(parseSlice("1/0")).toBe("the shard count must be 1 … 4096, got 0");
    expect(parseSlice("two")).toBe('expected K/N (shard K of N, K from 0), got "two"');
  });

  it("a merged bundle accounts for all n slices, even one its manifest leaves out", () => {
    const merge = {planSha256: "a".repeat(64), count: 3, telemetryFrom: 0, shards: []} as never;
    expect(slicesOf({merge})).toEqual([
      {index: 0, count: 3},
      {index: 1, count: 3},
      {index: 2, count: 3}
    ]);
    expect(slicesOf(null)).toEqual([{index: 0, count: 1}]);
  });
});
