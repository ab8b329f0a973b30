import type {PointTotals} from "../metrics/types.ts";
import {measurementWindow, pooledWindow, type WindowState} from "../metrics/window.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {Column, Samples} from "../stats/column.ts";
import {median} from "../stats/quantile.ts";

/** The running state of one repeat of a load point: counts, the measurement window, warmups, metric columns. */
export interface RepeatAccum {
  totals: PointTotals;
  window: WindowState;
  /** Per shard (−1: unsharded): the last warmup end and the first measured start (shards are judged apart). */
  warmupEnd: Map<number, number>;
  measureStart: Map<number, number>;
  warmups: number;
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
  nonStreamed: 0,
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

/**
 * A warmup's end or a measured start, per shard: a shard's warmup must end before its own measured requests
 * start (another shard's late warmup is extra load, which the shard gate G32 judges).
 */
export function noteWarmupEnd(rep: RepeatAccum, shard: number | undefined, tEnd: number): void {
  const k = shard ?? -1;
  rep.warmupEnd.set(k, Math.max(rep.warmupEnd.get(k) ?? -Infinity, tEnd));
}

export function noteMeasureStart(rep: RepeatAccum, shard: number | undefined, tStart: number): void {
  const k = shard ?? -1;
  rep.measureStart.set(k, Math.min(rep.measureStart.get(k) ?? Infinity, tStart));
}

export function newRepeat(point: LoadPoint): RepeatAccum {
  return {
    totals: emptyTotals(point),
    window: measurementWindow.init(),
    warmupEnd: new Map(),
    measureStart: new Map(),
    warmups: 0,
    columns: new Map()
  };
}

/**
 * One repeat's window (metrics/window.ts) into its totals, and per-metric medians (`several`: the point
 * has ≥ 2 repeats), with the values of each request metric column (drained: read them from here).
 */
export function finishRepeat(
  repeat: number,
  rep: RepeatAccum,
  several: boolean
): {facts: RepeatFacts; values: Map<string, Samples>} {
  const t = rep.totals;
  const w = measurementWindow.finish(rep.window);
  t.windowS = w.windowS;
  if (w.windowReason !== undefined) t.windowReason = w.windowReason;
  t.meanInFlight = w.meanInFlight;
  t.dispatchRate = w.dispatchRate;
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
    peakInFlight: w.peakInFlight,
    sustainedInFlight: w.sustainedInFlight,
    interArrivalsS: w.interArrivalsS,
    dispatchGapsS: w.dispatchGapsS,
    warmupOverlapsMeasure: [...rep.warmupEnd].some(([k, end]) => end > (rep.measureStart.get(k) ?? Infinity)),
    warmups: rep.warmups,
    medians
  };
  return {facts, values};
}

const SUMMED = [
  "measured",
  "nonStreamed",
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

/** The point's totals pooled over its measured repeats: counts summed, the window pooled (metrics/window.ts). */
export function poolTotals(
  point: LoadPoint,
  repeats: readonly {facts: RepeatFacts; rep: RepeatAccum}[],
  timeBaseRequest: number
): PointTotals {
  const pooled = emptyTotals(point);
  for (const {facts} of repeats) for (const k of SUMMED) pooled[k] += facts.totals[k];
  const window = pooledWindow(
    repeats.map(({facts, rep}) => ({facts: facts.totals, state: rep.window})),
    timeBaseRequest
  );
  return Object.assign(pooled, window);
}
