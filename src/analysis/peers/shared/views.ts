import {chunkGaps, type DerivedRequest} from "../../derive/request.ts";
import {metricById} from "../../metrics/registry.ts";
import type {RequestMetric} from "../../metrics/types.ts";
import {spanMs} from "../../metrics/units.ts";

/**
 * Per-request views used by every recomputation, in ms from the request's dispatch (every peer measures
 * from its own send time). Where the metrics registry already defines the view, it is taken from there.
 */
const requestMetric = (id: string): RequestMetric["value"] => {
  const m = metricById(id);
  if (m.kind !== "request") throw new Error(`metric ${id} is a ${m.kind} metric, expected a per-request one`);
  return m.value;
};

export const successes = (rs: readonly DerivedRequest[]): DerivedRequest[] => rs.filter((r) => r.success);
/** Requests of the measure phase (the source's warmup left out). */
export const measuredOf = (rs: readonly DerivedRequest[]): DerivedRequest[] =>
  rs.filter((r) => r.record.phase === "measure");

/** First token-bearing event minus dispatch: the registry's ttft_dispatch_ms. */
export const ttftOf: (r: DerivedRequest) => number | null = requestMetric("ttft_dispatch_ms");
/** Last token-bearing event minus dispatch: the registry's e2e_dispatch_ms. */
export const lastTokenOf: (r: DerivedRequest) => number | null = requestMetric("e2e_dispatch_ms");
/** Request end as the source recorded it (tEndNs) minus dispatch; null when not recorded. */
export const endOf = (r: DerivedRequest): number | null => spanMs(r.tDisp, r.record.tEndNs);

/**
 * Gaps between consecutive token-bearing events in ms (chunk-weighted when pooled). Unlike the registry's
 * inter_chunk_ms this does not require known chunks: a peer's own ITL is over whatever events it kept.
 */
export function gapsOf(r: DerivedRequest): number[] {
  const out: number[] = [];
  chunkGaps(r.record.events, (g) => out.push(g / 1e6));
  return out;
}

export const defined = (xs: readonly (number | null)[]): number[] =>
  xs.filter((x): x is number => x !== null && Number.isFinite(x));

export const sumOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
