import {min} from "d3-array";

import {sToNs} from "../shared/build.ts";
import type {VllmLikeRun} from "./format.ts";

/**
 * One request's times as its imported record holds them, in ns from the run's first start (or from the request's
 * own start when the file keeps no start times). The one place this arithmetic lives: runs.ts checks these values
 * before any record is built, import.ts builds the records from them.
 */
export interface RequestTimes {
  /** the tool's verdict: a non-empty error string */
  failed: boolean;
  /** seconds as written; null where the file holds NaN */
  ttft: number | null;
  /** the request's inter-token gaps in seconds as written */
  gaps: readonly number[];
  dispNs: number;
  /** dispatch + TTFT; null without a TTFT */
  firstNs: number | null;
  /** each gap in ns, for the token events after the first */
  gapsNs: number[];
  /** the last token: first + Σ gaps; null without a TTFT */
  lastNs: number | null;
  /** the end-to-end latency in seconds; undefined when the file keeps none or keeps the client's default */
  latency: number | undefined;
  /** a failed request's latency of 0 is the client's default, not a measurement */
  latencyUnset: boolean;
  /** dispatch + latency; null when the latency is unknown */
  endNs: number | null;
}

/** The run's time origin: its earliest start time, or 0 where the file keeps none. */
export const runOrigin = (run: VllmLikeRun): number =>
  run.start_times && run.start_times.length ? (min(run.start_times) ?? 0) : 0;

export function requestTimes(run: VllmLikeRun, i: number, origin: number): RequestTimes {
  const failed = (run.errors?.[i] ?? "") !== "";
  const ttft = run.ttfts?.[i] ?? null;
  const gaps = run.itls?.[i] ?? [];
  const starts = run.start_times;
  const dispNs = starts ? sToNs(starts[i]! - origin) : 0;
  const latencyUnset = failed && run.latencies?.[i] === 0;
  const latency = latencyUnset ? undefined : run.latencies?.[i];
  const firstNs = ttft === null ? null : dispNs + sToNs(ttft);
  const gapsNs = gaps.map(sToNs);
  return {
    failed,
    ttft,
    gaps,
    dispNs,
    firstNs,
    gapsNs,
    lastNs: firstNs === null ? null : gapsNs.reduce((t, g) => t + g, firstNs),
    latency,
    latencyUnset,
    endNs: latency === undefined ? null : dispNs + sToNs(latency)
  };
}
