import {describe, expect, it} from "vitest";

import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import {measurementWindow, NOT_SHARED_CLOCK, pooledWindow} from "../../../src/analysis/metrics/window.ts";

/**
 * The measurement window reducer (src/analysis/metrics/window.ts) on hand-made requests; times in seconds,
 * converted to ns. Expected values are swept by hand in each test.
 */
const S = 1e9;
interface Times {
  start?: number | null;
  sched?: number | null;
  call?: number | null;
  disp?: number | null;
  end?: number | null;
  timeBase?: "run" | "request";
}
const req = (t: Times): DerivedRequest => {
  const ns = (x: number | null | undefined) => (x === null || x === undefined ? null : x * S);
  return {
    timeBase: t.timeBase ?? "run",
    tStart: ns(t.start === undefined ? t.sched : t.start),
    tSched: ns(t.sched),
    tCall: ns(t.call),
    tDisp: ns(t.disp),
    tEnd: ns(t.end),
    tTokN: null
  } as unknown as DerivedRequest;
};
const windowOf = (rs: DerivedRequest[]) => {
  const w = measurementWindow.init();
  for (const r of rs) measurementWindow.add(w, r);
  return {state: w, facts: measurementWindow.finish(w)};
};

describe("measurementWindow", () => {
  // A: sched/disp 1, end 5; B: sched/disp 2, end 4; C: sched 3, call 3.4, disp 3.5, end 7.
  // Window [1, 7] = 6 s. In flight (disp → end): [1,2) 1 · 1; [2,3.5) 2 · 1.5; [3.5,4) 3 · 0.5; [4,5) 2 · 1;
  // [5,7] 1 · 2 → area 1 + 3 + 1.5 + 2 + 2 = 9.5 → mean 9.5 / 6, peak 3. Between the first and last
  // dispatch [1, 3.5]: 1 + 3 = 4 over 2.5 s → 1.6. Dispatch rate: 2 intervals over 2.5 s = 0.8 req/s.
  const A = req({sched: 1, disp: 1, end: 5});
  const B = req({sched: 2, disp: 2, end: 4});
  const C = req({sched: 3, call: 3.4, disp: 3.5, end: 7});

  it("spans the first measured start to the last measured end, with in-flight and dispatch facts", () => {
    const {facts} = windowOf([C, A, B]);
    expect(facts.windowS).toBe(6);
    expect(facts.windowReason).toBeUndefined();
    expect(facts.meanInFlight).toBeCloseTo(9.5 / 6, 12);
    expect(facts.peakInFlight).toBe(3);
    expect(facts.sustainedInFlight).toBeCloseTo(1.6, 12);
    expect(facts.dispatchRate).toBeCloseTo(0.8, 12);
    // scheduled gaps 1, 1; actual starts (t_call, else t_disp) 1, 2, 3.4 → gaps 1, 1.4
    expect(facts.interArrivalsS).toEqual([1, 1]);
    expect(facts.dispatchGapsS.map((g) => Number(g.toFixed(9)))).toEqual([1, 1.4]);
  });

  it("a request without times changes nothing (a missing time is not time 0)", () => {
    const blank = req({start: null, sched: null, call: null, disp: null, end: null});
    const {facts} = windowOf([A, B, C, blank]);
    expect(facts.windowS).toBe(6);
    expect(facts.meanInFlight).toBeCloseTo(9.5 / 6, 12);
    expect(facts.dispatchRate).toBeCloseTo(0.8, 12);
    expect(facts.interArrivalsS).toEqual([1, 1]);
    expect(facts.dispatchGapsS).toHaveLength(2);
  });

  it("requests timed from their own start (imports) give no window, and say why", () => {
    const {facts} = windowOf([A, req({sched: 0, disp: 0, end: 2, timeBase: "request"})]);
    expect(facts.windowS).toBeNull();
    expect(facts.windowReason).toBe(NOT_SHARED_CLOCK);
    expect(NOT_SHARED_CLOCK).toBe("request start times are not on a shared clock (imported data)");
    expect(facts.meanInFlight).toBeNull();
  });

  it("no measured request, or one of zero length: no window (unknown, not 0 s)", () => {
    const none = windowOf([]).facts;
    expect(none.windowS).toBeNull();
    expect(none.windowReason).toBe("no measured request has start and end times");
    expect(none.dispatchRate).toBeNull();
    expect(none.sustainedInFlight).toBeNull();
    const instant = windowOf([req({sched: 2, disp: 2, end: 2})]).facts;
    expect(instant.windowS).toBeNull();
    expect(instant.windowReason).toBe("no measured request has start and end times");
  });

  it("a rate needs two dispatches at different times", () => {
    const one = windowOf([A]).facts;
    expect(one.windowS).toBe(4);
    expect(one.dispatchRate).toBeNull();
    expect(one.sustainedInFlight).toBeNull();
    // two dispatches are enough: (1,5) and (3,4), dispatch span [1,3]: 1 in flight for 2 s → 1; rate 1 / 2 s
    const two = windowOf([req({sched: 1, disp: 1, end: 5}), req({sched: 3, disp: 3, end: 4})]).facts;
    expect(two.sustainedInFlight).toBe(1);
    expect(two.dispatchRate).toBe(0.5);
    const together = windowOf([req({sched: 1, disp: 1, end: 3}), req({sched: 1, disp: 1, end: 5})]).facts;
    expect(together.dispatchRate).toBeNull();
    expect(together.meanInFlight).toBeCloseTo((2 * 2 + 1 * 2) / 4, 12); // [1,3) 2, [3,5] 1
  });
});

describe("pooledWindow: the repeats of one load point", () => {
  const repeat = (windowS: number | null, meanInFlight: number | null, rate: [number, number, number] | null) => {
    const state = measurementWindow.init();
    if (rate !== null) [state.dispMin, state.dispMax, state.dispatched] = [rate[0] * S, rate[1] * S, rate[2]];
    return {facts: {windowS, meanInFlight, dispatchRate: rate === null ? null : 1}, state};
  };

  it("sums the windows, weights in-flight by window length and pools dispatch intervals over spans", () => {
    // windows 2 s and 3 s, in flight 1 and 2 → (2 + 6) / 5 = 1.6; dispatches: 3 over [0, 1] s and 5 over
    // [10, 12] s → (2 + 4) intervals / (1 + 2) s = 2 req/s
    expect(pooledWindow([repeat(2, 1, [0, 1, 3]), repeat(3, 2, [10, 12, 5])], 0)).toEqual({
      windowS: 5,
      meanInFlight: 1.6,
      dispatchRate: 2
    });
  });

  it("a repeat without a dispatch rate adds nothing to the rate; one without in-flight adds window only", () => {
    expect(pooledWindow([repeat(2, null, [0, 1, 3]), repeat(2, 1, null)], 0)).toEqual({
      windowS: 4,
      meanInFlight: 0.5,
      dispatchRate: 2
    });
  });

  it("one unknown window makes the pooled window unknown, with the reason; the rate is still pooled", () => {
    expect(pooledWindow([repeat(2, 1, [0, 1, 3]), repeat(null, null, null)], 0)).toEqual({
      windowS: null,
      windowReason: "measurement window unknown",
      meanInFlight: null,
      dispatchRate: 2
    });
    expect(pooledWindow([repeat(null, null, null)], 3)).toEqual({
      windowS: null,
      windowReason: NOT_SHARED_CLOCK,
      meanInFlight: null,
      dispatchRate: null
    });
  });
});
