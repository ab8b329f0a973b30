import {describe, expect, it} from "vitest";

import {
  absoluteTolerance,
  differs,
  exact,
  finishRow,
  type RowSpec
} from "../../../src/analysis/peers/shared/compare.ts";

const spec = (reported: number, recomputed: number, unit: string): RowSpec => ({
  point: "concurrency-1",
  metric: "x.std_dev",
  definition: "a statistic",
  unit,
  reported,
  recomputed: exact(recomputed),
  canonical: null,
  codes: []
});

describe("two numbers differ beyond 0.01 % and beyond their unit's absolute tolerance", () => {
  it("absolute tolerance: 1 ns in the row's time unit, 1e-9 of any other unit", () => {
    expect(absoluteTolerance("ms")).toBe(1e-6);
    expect(absoluteTolerance("s")).toBe(1e-9);
    expect(absoluteTolerance("ns")).toBe(1);
    expect(absoluteTolerance("ms/token")).toBe(1e-6);
    expect(absoluteTolerance("tokens")).toBe(1e-9);
    expect(absoluteTolerance("req/s")).toBe(1e-9);
  });

  it("GuideLLM's std of 1000 equal token counts (5.68e-14, numpy's rounding) equals our 0: no finding, and why", () => {
    expect(differs(5.684341886080803e-14, 0, "tokens")).toBe(false);
    const row = finishRow(spec(5.684341886080803e-14, 0, "tokens"));
    expect(row.finding).toBe(false);
    expect(row.note).toBe(
      "equal within floating-point noise: |reported − recomputed| = 5.7e-14 tokens ≤ 1e-9 tokens, the absolute tolerance of tokens"
    );
  });

  it("a real difference near zero is still a finding; so is one beyond 0.01 % of a large number", () => {
    expect(finishRow(spec(2e-9, 0, "tokens")).finding).toBe(true);
    expect(finishRow(spec(0.002, 0, "ms")).finding).toBe(true); // 2 µs: beyond 1 ns
    expect(finishRow(spec(5e-7, 0, "ms")).finding).toBe(false); // 0.5 ns
    expect(finishRow(spec(1000, 1000.2, "ms")).finding).toBe(true);
    expect(finishRow(spec(1000, 1000.05, "ms"))).toMatchObject({finding: false, note: null});
  });

  it("the canonical column agrees within the same tolerance: no reason code for noise", () => {
    const row = finishRow({
      ...spec(5.684341886080803e-14, 0, "tokens"),
      canonical: {metric: "output_tokens std", value: 0}
    });
    expect(row.codes).toEqual([]);
  });
});
