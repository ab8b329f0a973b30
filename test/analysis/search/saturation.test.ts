import {describe, expect, it} from "vitest";

import {overSaturation, queueGrowth, ranks, spearmanTrend} from "../../../src/analysis/search/saturation.ts";
import {samples} from "./support.ts";

const here = {value: 4, throughput: 11, e2eMedianMs: 180};

describe("over-saturation", () => {
  it("ranks ties by their average rank; ρ of a rising sequence is 1", () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    expect(spearmanTrend([1, 2, 3, 4])).toBe(1);
    expect(spearmanTrend([4, 3, 2, 1])).toBe(-1);
    expect(spearmanTrend([7, 7, 7])).toBeNull();
  });

  it("queueing growth: thirds' medians and the rank trend", () => {
    // 1…12: first third 1–4 (median 2.5), last 9–12 (median 10.5); ρ 1, z = √11
    const q = queueGrowth(samples([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))!;
    expect([q.first_third_ms, q.last_third_ms, q.rho, q.n]).toEqual([2.5, 10.5, 1, 12]);
    expect(q.z).toBeCloseTo(Math.sqrt(11), 12);
    expect(overSaturation(samples([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), here, null).over_saturated).toBe(true);
    // below 12 successes: not judged
    expect(queueGrowth(samples([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))).toBeNull();
    // flat TTFT: no trend
    expect(overSaturation(samples(Array<number>(12).fill(5)), here, null).over_saturated).toBe(false);
  });

  it("throughput plateau against the next lower load", () => {
    const flat = samples(Array<number>(12).fill(5));
    // load ×2, throughput ×1.1 (< 1 + 0.25 · 1), median E2E ×1.8
    const s = overSaturation(flat, here, {value: 2, throughput: 10, e2eMedianMs: 100});
    expect(s.over_saturated).toBe(true);
    expect(s.reasons[0]).toMatch(/throughput stopped growing/);
    // throughput ×1.9: still growing
    expect(
      overSaturation(flat, {...here, throughput: 19}, {value: 2, throughput: 10, e2eMedianMs: 100}).over_saturated
    ).toBe(false);
  });
});
