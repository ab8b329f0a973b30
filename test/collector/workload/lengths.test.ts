import {describe, expect, it} from "vitest";

import {drawLength} from "../../../collector/workload/lengths.ts";
import {mulberry32} from "../../../src/analysis/stats/prng.ts";

describe("length distributions", () => {
  it("fixed, uniform on whole numbers [min, max], normal rounded and kept in [min, max]", () => {
    expect(drawLength(7, () => 0.5)).toBe(7);
    expect(drawLength({dist: "fixed", value: 9}, () => 0.5)).toBe(9);
    expect(drawLength({dist: "uniform", min: 10, max: 20}, () => 0)).toBe(10);
    expect(drawLength({dist: "uniform", min: 10, max: 20}, () => 0.999999)).toBe(20);
    // 11 values, u = 0.5 → ⌊5.5⌋ = 5 → 15
    expect(drawLength({dist: "uniform", min: 10, max: 20}, () => 0.5)).toBe(15);
    // Box–Muller with u1 = e^-2 (√(−2 ln u1) = 2) and u2 = 0 (cos 0 = 1): z = 2 → 100 + 10·2 = 120
    const seq = [Math.exp(-2), 0];
    const u = () => seq.shift()!;
    expect(drawLength({dist: "normal", mean: 100, std: 10, min: 1}, u)).toBe(120);
    const seq2 = [Math.exp(-2), 0];
    expect(drawLength({dist: "normal", mean: 100, std: 10, min: 1, max: 110}, () => seq2.shift()!)).toBe(110);
    const seq3 = [Math.exp(-2), 0.5]; // cos π = −1: z = −2 → 100 + 60·(−2) = −20 → raised to min 5
    expect(drawLength({dist: "normal", mean: 100, std: 60, min: 5}, () => seq3.shift()!)).toBe(5);
    expect(() => drawLength({dist: "empirical"}, () => 0)).toThrow(/dataset/);
  });

  it("seeded uniform draws cover the range evenly", () => {
    const u = mulberry32(3);
    const counts = new Map<number, number>();
    for (let i = 0; i < 6000; i++) {
      const v = drawLength({dist: "uniform", min: 1, max: 6}, u);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(120); // ~4 σ of Binomial(6000, 1/6)
  });
});
