import {describe, expect, it} from "vitest";

import {judgeProbe} from "../../../src/analysis/search/judge.ts";
import {config, samples} from "./support.ts";

const range = (a: number, b: number) => Array.from({length: b - a + 1}, (_, i) => a + i);
const slo = {kind: "slo"} as const;
/** 1…20 in an order without a trend (first and last thirds' medians 9.5 and 10.5). */
const shuffled = [11, 3, 17, 8, 20, 1, 14, 6, 19, 10, 2, 16, 7, 13, 4, 18, 9, 15, 5, 12];

describe("judgeProbe", () => {
  it("holds at a margin of exactly 1: TTFT p95 of 1…20 is the 19th value", () => {
    const v = judgeProbe(samples(shuffled), slo, config(), 4, null);
    expect(v.saturation.over_saturated).toBe(false);
    expect(v.status).toBe("pass");
    // worst clause: TTFT 19 / 19 = 1 (ITL 10/60, E2E 100/1000, no failures)
    expect(v.margin).toBe(1);
    expect(v.clauses.map((c) => [c.id, c.value])).toEqual([
      ["ttft", 19],
      ["itl", 10],
      ["e2e", 100],
      ["errors", 0]
    ]);
  });

  it("fails above the limit", () => {
    const v = judgeProbe(samples(shuffled), slo, config({ttft_ms: 18}), 4, null);
    expect(v.status).toBe("fail");
    expect(v.margin).toBeCloseTo(19 / 18, 12);
    expect(v.reason).toMatch(/TTFT P95 19\.0 ms > 18\.0 ms/);
  });

  it("is not evaluable below the P95 floor of 20 values, never a pass", () => {
    const v = judgeProbe(samples(shuffled.slice(0, 19)), slo, config({ttft_ms: 1000}), 4, null);
    expect(v.status).toBe("not_evaluable");
    expect(v.margin).toBeNull();
  });

  it("counts failures against gates.max_error_rate", () => {
    // 1 failure of 21: 0.0476 / 0.01 = 4.76
    const v = judgeProbe(samples(shuffled, 1), slo, config({ttft_ms: 1000}, {max_error_rate: 0.01}), 4, null);
    expect(v.status).toBe("fail");
    expect(v.margin).toBeCloseTo(1 / 21 / 0.01, 12);
  });

  it("goodput: min_goodput / goodput", () => {
    const good = [...Array<number>(18).fill(1), 0, 0];
    const s = samples(shuffled, 0, good);
    // 18 of 20 good = 0.9
    expect(judgeProbe(s, {kind: "goodput", min: 0.9}, config(), 4, null).margin).toBeCloseTo(1, 12);
    const v = judgeProbe(s, {kind: "goodput", min: 0.95}, config(), 4, null);
    expect(v.status).toBe("fail");
    expect(v.margin).toBeCloseTo(0.95 / 0.9, 12);
  });

  it("an over-saturated probe fails whatever its margin", () => {
    // TTFT rising 1…20 through the point, limits far away: queueing growth fires
    const v = judgeProbe(samples(range(1, 20)), slo, config({ttft_ms: 1000}), 4, null);
    expect(v.margin).toBeLessThan(1);
    expect(v.saturation.over_saturated).toBe(true);
    expect(v.status).toBe("fail");
  });
});
