import {describe, expect, it} from "vitest";

import {IndexTable} from "../../../src/analysis/accumulate/indexTable.ts";

describe("IndexTable", () => {
  it("counts repeats of an index, keeps the first value, and lists the distinct indexes ascending", () => {
    const t = new IndexTable(true);
    expect(t.add(3, 30)).toBe(1);
    expect(t.add(0, 0)).toBe(1);
    expect(t.add(3, 99)).toBe(2);
    expect(t.add(1e12, 7)).toBe(1); // far beyond the dense part: kept in the map
    expect(t.add(70_000, 5)).toBe(1); // beyond the floor of 65 536 for 4 entries: the map too
    expect(t.count(3)).toBe(2);
    expect(t.count(2)).toBe(0);
    expect(t.value(3)).toBe(30);
    expect(t.value(1e12)).toBe(7);
    expect(Number.isNaN(t.value(2))).toBe(true);
    expect(t.distinct).toBe(4);
    expect([...t.indexes()]).toEqual([0, 3, 70_000, 1e12]);
  });

  it("lists the first absent indexes below an end, skipping covered ranges", () => {
    const t = new IndexTable(false);
    for (const i of [0, 1, 2, 4, 5, 9]) t.add(i);
    // 6…8 covered (noted as never sent): the absent ones are 3, then 10, 11 …
    const skip = (i: number) => (i >= 6 && i <= 8 ? 9 : i);
    expect(t.firstAbsent(14, skip, 3)).toEqual([3, 10, 11]);
    expect(t.firstAbsent(6, skip, 5)).toEqual([3]);
  });

  it("sizes its dense arrays by the entries added, not by the largest index (hostile spread indexes)", () => {
    const t = new IndexTable(true);
    for (let k = 0; k < 1000; k++) t.add(k * 1_000_000_000, k);
    expect(t.distinct).toBe(1000);
    expect(t.count(999_000_000_000)).toBe(1);
    expect(t.value(999_000_000_000)).toBe(999);
  });
});
