import type {SourceRecord} from "../schema/records.ts";

/** A point's requests as the source tool counted them, over all its runs (imports; facts.requestCounts). */
export interface PointSourceCounts {
  tool: string;
  /** Runs of the point that state counts: every run of it does, or the point has no entry. */
  runs: number;
  /** Requests the tool counted as failed: a lower bound on InferScope's failures. */
  failed: number;
  /** Every request the tool counted: completed, failed and incomplete. */
  counted: number;
}

/**
 * Each point's source counts, summed over its runs; a point has an entry only when every one of its source
 * records states all three counts (the failures of one run over the requests of all would bound nothing, and
 * unknown incomplete requests would make the failed share look larger than the tool saw it).
 */
export function sourceCountsByPoint(sources: readonly SourceRecord[]): ReadonlyMap<string, PointSourceCounts> {
  const byPoint = new Map<string, PointSourceCounts | null>();
  for (const s of sources) {
    if (s.point === null) continue;
    const c = s.facts.requestCounts;
    const prior = byPoint.get(s.point);
    if (prior === null) continue;
    if (c === undefined || c.failed === null || c.completed === null || c.incomplete === null) {
      byPoint.set(s.point, null);
      continue;
    }
    const counted = c.completed + c.failed + c.incomplete;
    byPoint.set(
      s.point,
      prior === undefined
        ? {tool: s.tool, runs: 1, failed: c.failed, counted}
        : {...prior, runs: prior.runs + 1, failed: prior.failed + c.failed, counted: prior.counted + counted}
    );
  }
  return new Map([...byPoint].filter((e): e is [string, PointSourceCounts] => e[1] !== null));
}
