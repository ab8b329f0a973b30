import {describe, expect, it} from "vitest";

import {gammaCdf} from "../../../src/analysis/stats/gamma.ts";
import {exponentialCdf, ksTest} from "../../../src/analysis/stats/ks.ts";
import {arrivalOffsetsNs, gammaVariate} from "../../../collector/load/schedule.ts";
import {mulberry32} from "../../../src/analysis/stats/prng.ts";

const gaps = (xs: number[]) => xs.slice(1).map((x, i) => (x - xs[i]!) / 1e9);

describe("arrivalOffsetsNs", () => {
  it("constant rate: first at 0, then exactly 1/rate apart (integer ns)", () => {
    const xs = arrivalOffsetsNs({mode: "rate", rate: 3, burstiness: 1, seed: 1, count: 4});
    expect(xs).toEqual([0, 333333333, 666666667, 1000000000]);
  });

  it("same seed, same schedule; another seed, another schedule", () => {
    const a = arrivalOffsetsNs({mode: "poisson", rate: 10, burstiness: 1, seed: 7, count: 50});
    expect(arrivalOffsetsNs({mode: "poisson", rate: 10, burstiness: 1, seed: 7, count: 50})).toEqual(a);
    expect(arrivalOffsetsNs({mode: "poisson", rate: 10, burstiness: 1, seed: 8, count: 50})).not.toEqual(a);
    expect(a.every((x) => Number.isInteger(x))).toBe(true);
  });

  it("poisson gaps pass a KS test against the exponential at the target rate", () => {
    const xs = arrivalOffsetsNs({mode: "poisson", rate: 100, burstiness: 1, seed: 42, count: 2000});
    const ks = ksTest(gaps(xs), exponentialCdf(100))!;
    expect(ks.p).toBeGreaterThan(0.01);
    const mean = xs[xs.length - 1]! / 1e9 / (xs.length - 1);
    expect(mean).toBeCloseTo(0.01, 3);
  });

  it("gamma gaps keep the mean 1/rate with CV 1/sqrt(shape), and pass KS against gamma", () => {
    for (const shape of [0.25, 4]) {
      const xs = arrivalOffsetsNs({mode: "gamma", rate: 50, burstiness: shape, seed: 3, count: 4000});
      const g = gaps(xs);
      const mean = g.reduce((a, b) => a + b, 0) / g.length;
      const sd = Math.sqrt(g.reduce((a, b) => a + (b - mean) ** 2, 0) / (g.length - 1));
      expect(mean).toBeCloseTo(1 / 50, 2);
      expect(sd / mean).toBeCloseTo(1 / Math.sqrt(shape), 1);
      expect(ksTest(g, (x) => gammaCdf(x, shape, shape * 50))!.p).toBeGreaterThan(0.01);
    }
  });

  it("duration-bound plans stop before the duration", () => {
    const xs = arrivalOffsetsNs({mode: "rate", rate: 10, burstiness: 1, seed: 0, durationS: 1});
    expect(xs).toHaveLength(10);
    expect(xs[9]).toBe(900000000);
  });

  it("rejects plans without a bound or with a non-positive rate", () => {
    expect(() => arrivalOffsetsNs({mode: "rate", rate: 1, burstiness: 1, seed: 0})).toThrow(/count or a duration/);
    expect(() => arrivalOffsetsNs({mode: "rate", rate: 0, burstiness: 1, seed: 0, count: 1})).toThrow(/positive/);
  });

  it("gammaVariate has mean = shape", () => {
    const u = mulberry32(9);
    let s = 0;
    for (let i = 0; i < 20000; i++) s += gammaVariate(2.5, u);
    expect(s / 20000).toBeCloseTo(2.5, 1);
  });
});
