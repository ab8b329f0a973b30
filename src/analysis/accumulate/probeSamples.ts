import type {DerivedRequest} from "../derive/request.ts";
import {judgeSlo} from "../metrics/goodput.ts";
import {e2eMs, ttftMs} from "../metrics/latency.ts";
import {itlMs} from "../metrics/speed.ts";
import type {SloConfig} from "../schema/config.ts";
import type {PointReducer} from "./reducer.ts";
import {isMeasured} from "./reducer.ts";

/**
 * The measured requests of one load point as parallel columns, in arrival order: what the load search
 * judges a probe by (the SLO clauses, resampled request by request for the bootstrap) and what the
 * over-saturation rules read (TTFT through the point, throughput). Built from derived requests, so the
 * collector (from the records it just wrote) and the analyzer (from the bundle) fill it the same way.
 * NaN marks a value the request does not have (a failure's TTFT, ITL below 2 tokens).
 */
export interface ProbeSamples {
  /** Measured requests (successes and failures). */
  n: number;
  /** 1 success, 0 failure. */
  ok: number[];
  ttftMs: number[];
  itlMs: number[];
  e2eMs: number[];
  /** 1 good (met every per-request SLO), 0 not good, NaN unknown (judgeSlo). */
  good: number[];
  /** Start (scheduled time in open loop) and end, ns since the run's origin (NaN when unknown). */
  tStartNs: number[];
  tEndNs: number[];
}

export const emptySamples = (): ProbeSamples => ({
  n: 0,
  ok: [],
  ttftMs: [],
  itlMs: [],
  e2eMs: [],
  good: [],
  tStartNs: [],
  tEndNs: []
});

const num = (v: number | null): number => (v === null ? NaN : v);

/** Adds one measured request to the columns. */
export function addSample(s: ProbeSamples, d: DerivedRequest, slo: SloConfig): void {
  s.n++;
  s.ok.push(d.success ? 1 : 0);
  s.ttftMs.push(d.success ? num(ttftMs.value(d)) : NaN);
  s.itlMs.push(d.success ? num(itlMs.value(d)) : NaN);
  s.e2eMs.push(d.success ? num(e2eMs.value(d)) : NaN);
  const g = judgeSlo(d, slo).good;
  s.good.push(g === null ? NaN : g ? 1 : 0);
  s.tStartNs.push(num(d.tStart));
  s.tEndNs.push(num(d.tEnd));
}

/**
 * The columns in arrival order (by start time; requests without one keep their place at the end), so
 * "through the point" reads the same whatever order the records were written in.
 */
export function inArrivalOrder(s: ProbeSamples): ProbeSamples {
  const idx = Array.from({length: s.n}, (_, i) => i);
  const key = (i: number) => (Number.isNaN(s.tStartNs[i]!) ? Infinity : s.tStartNs[i]!);
  idx.sort((a, b) => key(a) - key(b) || a - b);
  const pick = (col: number[]) => idx.map((i) => col[i]!);
  return {
    n: s.n,
    ok: pick(s.ok),
    ttftMs: pick(s.ttftMs),
    itlMs: pick(s.itlMs),
    e2eMs: pick(s.e2eMs),
    good: pick(s.good),
    tStartNs: pick(s.tStartNs),
    tEndNs: pick(s.tEndNs)
  };
}

/** The point reducer: every measured request of the point into its columns (about 60 bytes a request). */
export const probeSamples: PointReducer<{s: ProbeSamples; slo: SloConfig}, {samples: ProbeSamples}> = {
  init: (_point, config) => ({s: emptySamples(), slo: config.slo}),
  add: (st, d) => {
    if (isMeasured(d)) addSample(st.s, d, st.slo);
  },
  finish: (st) => ({samples: inArrivalOrder(st.s)})
};
