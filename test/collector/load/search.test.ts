import {describe, expect, it} from "vitest";

import {nextSearchStep, type ProbeOutcome} from "../../../collector/load/search.ts";

type Shape = Parameters<typeof nextSearchStep>[0];

/** Runs the stepper against an oracle (the SLO holds up to `knee`) and returns the probes and the end. */
function simulate(s: Shape, knee: number) {
  const probes: ProbeOutcome[] = [];
  for (;;) {
    const step = nextSearchStep(s, probes);
    if (step.kind === "end") return {values: probes.map((p) => p.value), answer: step.answer, reason: step.reason};
    probes.push({value: step.value, status: step.value <= knee ? "pass" : "fail"});
  }
}

const conc = (range: [number, number], max_probes = 12): Shape => ({
  over: "concurrency",
  range,
  precision: {step: 1},
  max_probes
});

describe("nextSearchStep", () => {
  it("grows ×2 from the minimum, then bisects to a step of 1 (knee 5)", () => {
    // 1, 2, 4 pass; 8 fails; (4+8)/2 = 6 fails; (4+6)/2 = 5 passes; 5 and 6 are one step apart
    const r = simulate(conc([1, 16]), 5);
    expect(r.values).toEqual([1, 2, 4, 8, 6, 5]);
    expect(r.answer).toBe(5);
    expect(r.reason).toMatch(/within the precision/);
  });

  it("ends at the range maximum when every probe passes", () => {
    const r = simulate(conc([1, 6]), 100);
    // 1, 2, 4, then 8 capped at 6
    expect(r.values).toEqual([1, 2, 4, 6]);
    expect(r.answer).toBe(6);
    expect(r.reason).toMatch(/≥ 6/);
  });

  it("ends below the range when the minimum fails", () => {
    const r = simulate(conc([4, 16]), 2);
    expect(r.values).toEqual([4]);
    expect(r.answer).toBeNull();
    expect(r.reason).toMatch(/< 4/);
  });

  it("stops at max_probes", () => {
    const r = simulate(conc([1, 100], 3), 100);
    expect(r.values).toEqual([1, 2, 4]);
    expect(r.answer).toBe(4);
    expect(r.reason).toMatch(/max_probes \(3\)/);
  });

  it("rates: relative precision, non-integer midpoints (knee 10)", () => {
    // 1…16 doubling; 16 fails; 12 fails; 10 passes; 11 fails; 10.5 fails; (10.5 − 10) / 10 = 0.05 ≤ 0.05
    const r = simulate({over: "poisson", range: [1, 100], precision: {relative: 0.05}, max_probes: 12}, 10);
    expect(r.values).toEqual([1, 2, 4, 8, 16, 12, 10, 11, 10.5]);
    expect(r.answer).toBe(10);
  });

  it("a probe that is not evaluable counts as not passing", () => {
    const s = conc([2, 16]);
    const step = nextSearchStep(s, [
      {value: 2, status: "pass"},
      {value: 4, status: "not_evaluable"}
    ]);
    expect(step).toEqual({kind: "probe", value: 3, reason: expect.stringContaining("bisect")});
  });
});
