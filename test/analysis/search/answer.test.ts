import {describe, expect, it} from "vitest";

import {searchAnswer, type JudgedProbe} from "../../../src/analysis/search/answer.ts";
import {judgeProbe} from "../../../src/analysis/search/judge.ts";
import {config, samples} from "./support.ts";

const cfg = config({ttft_ms: 20, itl_ms: 1000, e2e_ms: 100_000});
const slo = {kind: "slo"} as const;
const probe = (value: number, ttft: number[]): JudgedProbe => {
  const s = samples(ttft);
  return {value, samples: s, verdict: judgeProbe(s, slo, cfg, value, null)};
};
const flat = (v: number, n = 20) => Array<number>(n).fill(v);

describe("searchAnswer", () => {
  it("interpolates the crossing; without spread the interval is the point", () => {
    // margins 10/20 = 0.5 at 2 and 50/20 = 2.5 at 4: crossing 2 + (0.5 / 2) · 2 = 2.5
    const a = searchAnswer([probe(4, flat(50)), probe(2, flat(10))], slo, cfg, 7, 200);
    expect([a.highest_pass, a.lowest_fail, a.bound]).toEqual([2, 4, null]);
    expect(a.estimate).toBeCloseTo(2.5, 12);
    expect(a.interval!.lo).toBeCloseTo(2.5, 12);
    expect(a.interval!.hi).toBeCloseTo(2.5, 12);
    expect([a.interval!.resamples, a.interval!.seed, a.interval!.prng]).toEqual([200, 7, "mulberry32"]);
  });

  it("the isotonic fit pools a non-monotone pass above a failure", () => {
    // margins 0.5 at 2, 1.5 at 4, 0.75 at 8 → fit 0.5, 1.125, 1.125: crossing 2 + 0.5/0.625 · 2 = 3.6
    const a = searchAnswer([probe(2, flat(10)), probe(4, flat(30)), probe(8, flat(15))], slo, cfg, 1, 50);
    expect(a.estimate).toBeCloseTo(3.6, 12);
    expect([a.highest_pass, a.lowest_fail]).toEqual([2, 4]);
  });

  it("reflects sampling error: a probe near the limit widens the interval, deterministically", () => {
    // at 4: 19 requests at 10 ms and 1 at 30 ms → p95 is 10 (margin 0.5) unless a resample draws the 30 twice
    const near = [...flat(10, 19), 30];
    const run = () => searchAnswer([probe(2, flat(10)), probe(4, near), probe(8, flat(50))], slo, cfg, 42, 400);
    const a = run();
    expect(a.estimate).toBeCloseTo(4 + (0.5 / 2) * 4, 12); // 5
    expect(a.interval!.lo!).toBeLessThan(a.estimate!);
    expect(a.interval!.hi!).toBeCloseTo(5, 12);
    expect(run()).toEqual(a);
  });

  it("bounded by the range: every probe passes, or none does", () => {
    const all = searchAnswer([probe(2, flat(10)), probe(4, flat(12))], slo, cfg, 1, 50);
    expect([all.bound, all.estimate, all.highest_pass, all.lowest_fail, all.interval!.hi]).toEqual([
      "at_or_above_max",
      4,
      4,
      null,
      null
    ]);
    const none = searchAnswer([probe(2, flat(30)), probe(4, flat(50))], slo, cfg, 1, 50);
    expect([none.bound, none.estimate, none.highest_pass, none.lowest_fail, none.interval!.lo]).toEqual([
      "below_range",
      null,
      null,
      2,
      null
    ]);
  });

  it("a probe that is not evaluable stays out of the fit and is never a pass", () => {
    // 4 has 10 values (< 20): the fit sees 2 (0.5) and 8 (2.5): crossing 2 + 0.25 · 6 = 3.5
    const a = searchAnswer([probe(2, flat(10)), probe(4, flat(10, 10)), probe(8, flat(50))], slo, cfg, 1, 50);
    expect([a.highest_pass, a.lowest_fail]).toEqual([2, 4]);
    expect(a.estimate).toBeCloseTo(3.5, 12);
  });
});
