import {chunkGaps, type DerivedRequest} from "../derive/request.ts";

/** Per-request views used by every recomputation, in ms from the request's dispatch. */
const span = (from: number | null, to: number | null): number | null =>
  from === null || to === null ? null : (to - from) / 1e6;

export const successes = (rs: readonly DerivedRequest[]): DerivedRequest[] => rs.filter((r) => r.success);

/** First token-bearing event minus dispatch (every peer measures from its own send time). */
export const ttftOf = (r: DerivedRequest): number | null => span(r.tDisp, r.tTok1);
/** Last token-bearing event minus dispatch. */
export const lastTokenOf = (r: DerivedRequest): number | null => span(r.tDisp, r.tTokN);
/** Request end as the source recorded it (tEndNs) minus dispatch; null when not recorded. */
export const endOf = (r: DerivedRequest): number | null => span(r.tDisp, r.record.tEndNs);

/** Gaps between consecutive token-bearing events in ms (chunk-weighted when pooled). */
export function gapsOf(r: DerivedRequest): number[] {
  const out: number[] = [];
  chunkGaps(r.record.events, (g) => out.push(g / 1e6));
  return out;
}

export const defined = (xs: readonly (number | null)[]): number[] =>
  xs.filter((x): x is number => x !== null && Number.isFinite(x));

export const sumOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
