import type {DerivedRequest} from "../derive/request.ts";
import {Column, type Samples} from "../stats/column.ts";
import {inFlightProfile} from "./inflight.ts";
import type {PointTotals} from "./types.ts";

/**
 * The measurement window of one repeat of a load point, which the run metrics (throughputs, achieved
 * concurrency and rate, window_s) divide by: from the first measured start to the last measured end,
 * with the requests in flight across it and the dispatch rate over the dispatch span. A reducer in the
 * `{init, add, finish}` shape, fed each measured request; `pooledWindow` combines the repeats.
 */
export interface WindowState {
  tStartMin: number;
  tEndMax: number;
  dispMin: number;
  dispMax: number;
  dispatched: number;
  starts: Column;
  ends: Column;
  scheds: Column;
  calls: Column;
  /** Measured requests timed relative to their own start (imports): no shared window. */
  timeBaseRequest: number;
}

export interface WindowFacts {
  /** Seconds (null when unknown, with the reason). */
  windowS: number | null;
  windowReason?: string;
  meanInFlight: number | null;
  peakInFlight: number;
  /** Mean in flight between the first and last dispatch (the load the client sustained while sending). */
  sustainedInFlight: number | null;
  /** Achieved dispatch rate over the dispatch span, req/s. */
  dispatchRate: number | null;
  /** Seconds between consecutive scheduled sends (open loop), in order. */
  interArrivalsS: number[];
  /** Seconds between consecutive actual starts of the measured requests (t_call, else t_disp), in order. */
  dispatchGapsS: number[];
}

export const NOT_SHARED_CLOCK = "request start times are not on a shared clock (imported data)";

/** Seconds between consecutive times (ns), after sorting them. */
function gapsS(times: Samples): number[] {
  const sorted = times.slice().sort();
  const out: number[] = [];
  for (let i = 1; i < sorted.length; i++) out.push((sorted[i]! - sorted[i - 1]!) / 1e9);
  return out;
}

export const measurementWindow = {
  init: (): WindowState => ({
    tStartMin: Infinity,
    tEndMax: -Infinity,
    dispMin: Infinity,
    dispMax: -Infinity,
    dispatched: 0,
    starts: new Column(),
    ends: new Column(),
    scheds: new Column(),
    calls: new Column(),
    timeBaseRequest: 0
  }),

  /** A measured request on the shared clock widens the window and adds its dispatch and in-flight span. */
  add(w: WindowState, d: DerivedRequest): void {
    if (d.timeBase === "request") {
      w.timeBaseRequest++;
      return;
    }
    const start = d.tStart;
    const end = d.tEnd ?? d.tTokN ?? d.tDisp ?? start;
    if (start !== null) w.tStartMin = Math.min(w.tStartMin, start);
    if (end !== null) w.tEndMax = Math.max(w.tEndMax, end);
    if (d.tSched !== null) w.scheds.push(d.tSched);
    const call = d.tCall ?? d.tDisp;
    if (call !== null) w.calls.push(call);
    if (d.tDisp !== null) {
      w.dispatched++;
      w.dispMin = Math.min(w.dispMin, d.tDisp);
      w.dispMax = Math.max(w.dispMax, d.tDisp);
      w.starts.push(d.tDisp);
      // a stream the server held open after its terminal marker ends at its last event, but it held its client
      // slot until the connection closed: in flight until then (a closed loop sends nothing in that slot)
      const held = d.hung && d.record.tEndNs !== null ? Math.max(d.record.tEndNs, end ?? d.tDisp) : end;
      w.ends.push(Math.max(d.tDisp, held ?? d.tDisp));
    }
  },

  finish(w: WindowState): WindowFacts {
    const known = w.timeBaseRequest === 0 && w.tEndMax > w.tStartMin;
    const starts = w.starts.values();
    const ends = w.ends.values();
    const profile = inFlightProfile(starts, ends, w.tStartMin, w.tEndMax);
    return {
      windowS: known ? (w.tEndMax - w.tStartMin) / 1e9 : null,
      ...(known
        ? {}
        : {windowReason: w.timeBaseRequest > 0 ? NOT_SHARED_CLOCK : "no measured request has start and end times"}),
      meanInFlight: known ? profile.mean : null,
      peakInFlight: profile.peak,
      sustainedInFlight: w.dispatched >= 2 ? inFlightProfile(starts, ends, w.dispMin, w.dispMax).mean : null,
      dispatchRate:
        w.dispatched >= 2 && w.dispMax > w.dispMin ? ((w.dispatched - 1) * 1e9) / (w.dispMax - w.dispMin) : null,
      interArrivalsS: gapsS(w.scheds.values()),
      dispatchGapsS: gapsS(w.calls.values())
    };
  }
};

/**
 * The window of a load point pooled over its measured repeats: the sum of their windows (unknown if any
 * is), in flight weighted by window length, the dispatch rate as intervals over the summed dispatch spans.
 */
export function pooledWindow(
  repeats: readonly {facts: Pick<WindowFacts, "windowS" | "meanInFlight" | "dispatchRate">; state: WindowState}[],
  timeBaseRequest: number
): Pick<PointTotals, "windowS" | "windowReason" | "meanInFlight" | "dispatchRate"> {
  let windowSum = 0;
  let windowKnown = true;
  let inFlightArea = 0;
  let dispatchSpanS = 0;
  let dispatchIntervals = 0;
  for (const {facts, state} of repeats) {
    if (facts.windowS === null) windowKnown = false;
    else {
      windowSum += facts.windowS;
      if (facts.meanInFlight !== null) inFlightArea += facts.meanInFlight * facts.windowS;
    }
    if (facts.dispatchRate !== null) {
      dispatchSpanS += (state.dispMax - state.dispMin) / 1e9;
      dispatchIntervals += state.dispatched - 1;
    }
  }
  const dispatchRate = dispatchSpanS > 0 ? dispatchIntervals / dispatchSpanS : null;
  if (windowKnown && windowSum > 0) return {windowS: windowSum, meanInFlight: inFlightArea / windowSum, dispatchRate};
  return {
    windowS: null,
    windowReason: timeBaseRequest > 0 ? NOT_SHARED_CLOCK : "measurement window unknown",
    meanInFlight: null,
    dispatchRate
  };
}
