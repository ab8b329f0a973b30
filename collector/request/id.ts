import type {Phase} from "../../src/analysis/schema/records.ts";

/**
 * The one format of request ids (also sent as X-Request-ID). The analyzer reads the load-point form back
 * (src/analysis/accumulate/ledger.ts), so it never changes: `<runId>-<point>-r<repeat>-<w|m><index>`.
 */
export function loadRequestId(runId: string, point: string, repeat: number, phase: Phase, index: number): string {
  return `${runId}-${point}-r${repeat}-${phase === "warmup" ? "w" : "m"}${index}`;
}

/**
 * A case item's id: `<runId>-<caseId>-<itemId>-r<repeat>`, with `-<point>` when sent under a load point;
 * each turn of a multi-turn item adds `-t<turn>` (from 1).
 */
export function caseRequestId(
  o: {runId: string; caseId: string; itemId: string; repeat: number; underLoad: string | null},
  turn?: {index: number; of: number}
): string {
  const base = `${o.runId}-${o.caseId}-${o.itemId}-r${o.repeat}${o.underLoad === null ? "" : `-${o.underLoad}`}`;
  return turn !== undefined && turn.of > 1 ? `${base}-t${turn.index + 1}` : base;
}

/** The id of the probe's one streamed request. */
export const PROBE_REQUEST_ID = "inferscope-probe";
