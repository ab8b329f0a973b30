import {describe, expect, it} from "vitest";

import {
  concurrencyShare,
  globalOrdinal,
  localOrdinal,
  ownCount,
  ownRange,
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

  it("dealt whole conversations of 3 turns over 2 shards: shard 1 owns 3, 4, 5 and 9, 10, 11 of 0…11", () => {
    const s0 = {index: 0, count: 2, group: 3};
    const s1 = {index: 1, count: 2, group: 3};
    expect([...Array(12).keys()].filter((i) => owns(s1, i))).toEqual([3, 4, 5, 9, 10, 11]);
    expect([...Array(12).keys()].filter((i) => owns(s0, i))).toEqual([0, 1, 2, 6, 7, 8]);
    expect(ownCount(s1, 12)).toBe(6);
    expect(ownCount(s1, 10)).toBe(4); // 3, 4, 5, 9
    expect(ownCount(s1, 3)).toBe(0);
    expect(ownCount(s0, 7)).toBe(4); // 0, 1, 2, 6: a cut unit counts its part
    // shard 1's local ordinals 0…5 are the global 3, 4, 5, 9, 10, 11
    expect([0, 1, 2, 3, 4, 5].map((j) => globalOrdinal(s1, j))).toEqual([3, 4, 5, 9, 10, 11]);
    expect([3, 4, 5, 9, 10, 11].map((i) => localOrdinal(s1, i))).toEqual([0, 1, 2, 3, 4, 5]);
    expect([0, 1, 2, 3, 4, 5].map((j) => globalOrdinal(s0, j))).toEqual([0, 1, 2, 6, 7, 8]);
  });

  it("a range of global ordinals maps to the shard's own among them, as local ordinals", () => {
    const s1 = {index: 1, count: 2, group: 3};
    expect(ownRange(s1, 4, 9)).toEqual({from: 1, to: 3}); // own 4, 5, 9
    expect(ownRange(s1, 6, 8)).toBeNull(); // 6, 7, 8 are shard 0's
    expect(ownRange(s1, 9, 9)).toEqual({from: 3, to: 3}); // one own ordinal
    expect(ownRange(s1, 0, 11)).toEqual({from: 0, to: 5});
    const u = {index: 2, count: 4}; // one ordinal at a time: 2, 6, 10, …
    expect(ownRange(u, 3, 10)).toEqual({from: 1, to: 2}); // own 6, 10
    expect(ownRange(u, 3, 5)).toBeNull();
  });

  it("every ordinal belongs to exactly one shard when dealt in units, a cut unit included", () => {
    for (const g of [2, 3, 5])
      for (const n of [1, 2, 3])
        for (const total of [0, 1, 7, 30]) {
          const shards = Array.from({length: n}, (_, k) => ({index: k, count: n, group: g}));
          expect(shards.reduce((a, s) => a + ownCount(s, total), 0)).toBe(total);
          for (let i = 0; i < total; i++) expect(shards.filter((s) => owns(s, i))).toHaveLength(1);
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
    expect(parseSlice("12/16")).toEqual({index: 12, count: 16});
    expect(parseSlice("x2/4")).toBe('expected K/N (shard K of N, K from 0), got "x2/4"');
    expect(parseSlice("2/4x")).toBe('expected K/N (shard K of N, K from 0), got "2/4x"');
    expect(parseSlice("0/4096")).toEqual({index: 0, count: 4096});
    expect(parseSlice("0/4097")).toBe("the shard count must be 1 … 4096, got 4097");
  });

  it("a merged bundle accounts for all n slices, even one its manifest leaves out", () => {
    const facts = {planSha256: "a".repeat(64), count: 3, telemetryFrom: 0, shards: []};
    const merge = facts as never;
    expect(slicesOf({merge})).toEqual([
      {index: 0, count: 3},
      {index: 1, count: 3},
      {index: 2, count: 3}
    ]);
    expect(slicesOf(null)).toEqual([{index: 0, count: 1}]);
    expect(slicesOf({merge: {...facts, count: 2, group: 3} as never})).toEqual([
      {index: 0, count: 2, group: 3},
      {index: 1, count: 2, group: 3}
    ]);
    const shard = {index: 1, count: 2, group: 3} as never;
    expect(slicesOf({shard})).toEqual([{index: 1, count: 2, group: 3}]);
    // one ordinal at a time, named or not, is the plain slice (no group property at all)
    expect(slicesOf({shard: {index: 1, count: 2, group: 1} as never})).toStrictEqual([{index: 1, count: 2}]);
    expect(slicesOf({shard: {index: 1, count: 2} as never})).toStrictEqual([{index: 1, count: 2}]);
  });
});
