import type {DerivedRequest} from "../derive/request.ts";
import type {PointTotals} from "../metrics/types.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {Column, type Samples} from "../stats/column.ts";
import {median} from "../stats/quantile.ts";
import {inFlightProfile} from "./inflight.ts";

/** The running state of one repeat of a load point: counts, the window's edges, dispatch times, metric columns. */
export interface RepeatAccum {
  totals: PointTotals;
  tStartMin: number;
  tEndMax: number;
  dispMin: number;
  dispMax: number;
  dispatched: number;
  starts: Column;
  ends: Column;
  scheds: Column;
  calls: Column;
  warmupEndMax: number;
  warmups: number;
  timeBaseRequest: number;
  /** Per request metric: the values of this repeat (for the across-repeat stability of its median). */
  columns: Map<string, Column>;
}

export interface RepeatFacts {
  repeat: number;
  totals: PointTotals;
  peakInFlight: number;
  /** Mean in flight between the first and last dispatch (the load the client sustained while sending). */
  sustainedInFlight: number | null;
  /** Seconds between consecutive scheduled sends (open loop), in order. */
  interArrivalsS: number[];
  /** Seconds between consecutive actual starts of the measured requests (t_call, else t_disp), in order. */
  dispatchGapsS: number[];
  warmupOverlapsMeasure: boolean;
  /** Warmup requests recorded in this repeat. */
  warmups: number;
  /** Per request metric id: the median of this repeat (null when it has fewer than 5 values). */
  medians: Map<string, number | null>;
}

export const emptyTotals = (point: LoadPoint): PointTotals => ({
  mode: point.mode,
  target: point.value,
  measured: 0,
  successes: 0,
  good: 0,
  unjudged: 0,
  shortOutputs: 0,
  outputTokens: 0,
  inputTokens: 0,
  successesMissingOut: 0,
  successesMissingIn: 0,
  tokenEvents: 0,
  multiTokenEvents: 0,
  chunksUnknown: 0,
  windowS: null,
  meanInFlight: null,
  dispatchRate: null
});

export function newRepeat(point: LoadPoint): RepeatAccum {
  return {
    totals: emptyTotals(point),
    tStartMin: Infinity,
    tEndMax: -Infinity,
    dispMin: Infinity,
    dispMax: -Infinity,
    dispatched: 0,
    starts: new Column(),
    ends: new Column(),
    scheds: new Column(),
    warmupEndMax: -Infinity,
    warmups: 0,
    calls: new Column(),
    columns: new Map(),
    timeBaseRequest: 0
  };
}

/** A measured request on the shared clock widens its repeat's window and adds its dispatch and in-flight span. */
export function addToWindow(rep: RepeatAccum, d: DerivedRequest): void {
  const start = d.tStart;
  const end = d.tEnd ?? d.tTokN ?? d.tDisp ?? start;
  if (start !== null) rep.tStartMin = Math.min(rep.tStartMin, start);
  if (end !== null) rep.tEndMax = Math.max(rep.tEndMax, end);
  if (d.tSched !== null) rep.scheds.push(d.tSched);
  const call = d.tCall ?? d.tDisp;
  if (call !== null) rep.calls.push(call);
  if (d.tDisp !== null) {
    rep.dispatched++;
    rep.dispMin = Math.min(rep.dispMin, d.tDisp);
    rep.dispMax = Math.max(rep.dispMax, d.tDisp);
    rep.starts.push(d.tDisp);
    rep.ends.push(Math.max(d.tDisp, end ?? d.tDisp));
  }
}

/** Seconds between consecutive times (ns), after sorting them. */
function gapsS(times: Samples): number[] {
  const sorted = times.slice().sort();
  const out: number[] = [];
  for (let i = 1; i < sorted.length; i++) out.push((sorted[i]! - sorted[i - 1]!) / 1e9);
  return out;
}

const NOT_SHARED = "request start times are not on a shared clock (imported data)";

/**
 * One repeat's window, mean and peak in flight, dispatch rate and per-metric medians (`several`: the
 * point has ≥ 2 repeats), and the values of each request metric column (drained: read them from here).
 */
export function finishRepeat(
  repeat: number,
  rep: RepeatAccum,
  several: boolean
): {facts: RepeatFacts; values: Map<string, Samples>} {
  const t = rep.totals;
  if (rep.timeBaseRequest > 0 || !(rep.tEndMax > rep.tStartMin)) {
    t.windowS = null;
    t.windowReason = rep.timeBaseRequest > 0 ? NOT_SHARED : "no measured request has start and end times";
  } else t.windowS = (rep.tEndMax - rep.tStartMin) / 1e9;
  const starts = rep.starts.values();
  const ends = rep.ends.values();
  const profile = inFlightProfile(starts, ends, rep.tStartMin, rep.tEndMax);
  t.meanInFlight = t.windowS === null ? null : profile.mean;
  const sustained = rep.dispatched >= 2 ? inFlightProfile(starts, ends, rep.dispMin, rep.dispMax).mean : null;
  t.dispatchRate =
    rep.dispatched >= 2 && rep.dispMax > rep.dispMin
      ? ((rep.dispatched - 1) * 1e9) / (rep.dispMax - rep.dispMin)
      : null;
  const medians = new Map<string, number | null>();
  const values = new Map<string, Samples>();
  for (const [id, col] of rep.columns) {
    const v = col.values();
    // only several repeats have a spread; the median reorders, so it works on a copy
    if (several) medians.set(id, v.length >= 5 ? (median(v.slice()) ?? null) : null);
    values.set(id, v);
  }
  const facts: RepeatFacts = {
    repeat,
    totals: t,
    peakInFlight: profile.peak,
    sustainedInFlight: sustained,
    interArrivalsS: gapsS(rep.scheds.values()),
    dispatchGapsS: gapsS(rep.calls.values()),
    warmupOverlapsMeasure: rep.warmupEndMax > rep.tStartMin && rep.warmupEndMax !== -Infinity,
    warmups: rep.warmups,
    medians
  };
  return {facts, values};
}

const SUMMED = [
  "measured",
  "successes",
  "good",
  "unjudged",
  "shortOutputs",
  "outputTokens",
  "inputTokens",
  "successesMissingOut",
  "successesMissingIn",
  "tokenEvents",
  "multiTokenEvents",
  "chunksUnknown"
] as const;

/**
 * The point's totals pooled over its repeats: counts summed; the window is the sum of the repeats'
 * windows (unknown if any is), in flight the window-weighted mean, dispatch rate intervals over span.
 */
export function poolTotals(point: LoadPoint, repeats: readonly {facts: RepeatFacts; rep: RepeatAccum}[]): PointTotals {
  const pooled = emptyTotals(point);
  let windowSum = 0;
  let windowKnown = true;
  let inFlightArea = 0;
  let dispatchSpanS = 0;
  let dispatchIntervals = 0;
  let timeBaseRequest = 0;
  for (const {facts, rep} of repeats) {
    const t = facts.totals;
    timeBaseRequest += rep.timeBaseRequest;
    if (t.windowS === null) windowKnown = false;
    for (const k of SUMMED) pooled[k] += t[k];
    if (t.windowS !== null) {
      windowSum += t.windowS;
      if (t.meanInFlight !== null) inFlightArea += t.meanInFlight * t.windowS;
    }
    if (t.dispatchRate !== null) {
      dispatchSpanS += (rep.dispMax - rep.dispMin) / 1e9;
      dispatchIntervals += rep.dispatched - 1;
    }
  }
  if (windowKnown && windowSum > 0) {
    pooled.windowS = windowSum;
    pooled.meanInFlight = inFlightArea / windowSum;
  } else pooled.windowReason = timeBaseRequest > 0 ? NOT_SHARED : "measurement window unknown";
  pooled.dispatchRate = dispatchSpanS > 0 ? dispatchIntervals / dispatchSpanS : null;
  return pooled;
}
