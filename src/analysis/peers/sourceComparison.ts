import type {PointFacts} from "../gates/types.ts";
import type {DerivedRequest} from "../derive/request.ts";
import {REQUEST_METRICS, requestSample, RUN_METRIC_DEFS, SAMPLE_METRICS, sampleValues} from "../metrics/registry.ts";
import {FILE_NAMES, type SourceRecord} from "../schema/records.ts";
import {appendAll} from "../util/append.ts";
import {issue, type Issue} from "../util/issues.ts";
import {PEER_FORMATS} from "./registry.ts";
import {aggregatesOf, type CanonicalView, type SourceComparisonRow} from "./shared/compare.ts";
import {isPeerTool} from "./shared/types.ts";

export type {SourceComparisonRow} from "./shared/compare.ts";

/**
 * Caveats an import puts on our own metrics, per load point (null: every point): what a reader of the
 * number must know because of how the source tool measured it.
 */
export function importCaveats(
  sources: readonly SourceRecord[]
): {point: string | null; metric: string; note: string}[] {
  const out: {point: string | null; metric: string; note: string}[] = [];
  for (const s of sources) {
    const agg = aggregatesOf(s);
    const format = isPeerTool(s.tool) ? PEER_FORMATS[s.tool] : null;
    for (const c of format?.caveats?.(agg) ?? []) out.push({point: s.point, ...c});
  }
  return out;
}

/** Our canonical values of one load point, read from the analyzer's per-point facts. */
export function canonicalView(f: PointFacts): CanonicalView {
  return {
    values: (id) => {
      const col = f.columns.get(id);
      return col ? Array.from(col) : [];
    },
    run: (id) => {
      const def = RUN_METRIC_DEFS.find((m) => m.id === id);
      if (!def) return {value: null, reason: `unknown metric ${id}`};
      return def.value(f.totals);
    }
  };
}

/**
 * Our canonical values over one repeat's requests (a point the source ran more than once: one source record
 * per run). Request and sample metrics are computed from those requests as the point's columns are; run-level
 * metrics (window, throughput) are the point's, over all its repeats, so none is given for one run.
 */
export function repeatView(requests: readonly DerivedRequest[], repeats: number): CanonicalView {
  return {
    values: (id) => {
      const out: number[] = [];
      const req = REQUEST_METRICS.find((m) => m.id === id);
      if (req !== undefined) {
        for (const d of requests) {
          const v = requestSample(req, d);
          if (v !== null) out.push(v);
        }
        return out;
      }
      const sample = SAMPLE_METRICS.find((m) => m.id === id);
      if (sample !== undefined) for (const d of requests) sampleValues(sample, d, (v) => out.push(v));
      return out;
    },
    run: () => ({
      value: null,
      reason: `the point's run-level metrics pool its ${repeats} repeats; this row is one of them`
    })
  };
}

const NOT_REPORTED = "not reported by the source";

/**
 * A row whose number the file holds as null (Python's NaN or Infinity are read as null): the source did
 * report it, as no number; the note says so instead of "not reported".
 */
function reportedNull(row: SourceComparisonRow, agg: Record<string, unknown>): SourceComparisonRow {
  if (!(row.metric in agg) || agg[row.metric] !== null || row.note === null || !row.note.startsWith(NOT_REPORTED))
    return row;
  const said = "reported as null in the file (null, NaN or Infinity): unknown";
  return {...row, note: said + row.note.slice(NOT_REPORTED.length)};
}

export interface PointInput {
  requests: readonly DerivedRequest[];
  /** The point's warmup requests (outside the measured set). */
  warmup?: readonly DerivedRequest[];
  canonical: CanonicalView | null;
}

/**
 * The three-column view of an imported bundle: for every number the source tool reported, its value,
 * our recomputation of it under the tool's own definition, and our canonical metric, with a one-line
 * note wherever they differ. A reported-vs-recomputed contradiction is also returned as an issue.
 */
export function sourceComparison(
  sources: readonly SourceRecord[],
  points: ReadonlyMap<string, PointInput>
): {rows: SourceComparisonRow[]; issues: Issue[]} {
  const rows: SourceComparisonRow[] = [];
  const issues: Issue[] = [];
  // the runs the source records at each point (one source record per run): a file of aggregates only has no
  // request records to count its repeats from, and its runs' rows must still be told apart
  const runsAt = new Map<string, Set<number>>();
  for (const s of sources)
    if (s.point !== null && typeof s.facts.repeat === "number")
      runsAt.set(s.point, (runsAt.get(s.point) ?? new Set()).add(s.facts.repeat));
  for (const source of sources) {
    if (!isPeerTool(source.tool)) {
      issues.push(
        issue(
          "warning",
          "source_unknown_tool",
          FILE_NAMES.source,
          `no comparison for tool "${source.tool}"`,
          source.seq + 1,
          "tool"
        )
      );
      continue;
    }
    const p = source.point === null ? null : points.get(source.point);
    const all = p ? p.requests : source.point === null ? [...points.values()].flatMap((x) => x.requests) : [];
    // a point the source ran more than once (one source record per run): each run's numbers are its own requests'
    const repeat = typeof source.facts.repeat === "number" ? source.facts.repeat : null;
    const repeats = Math.max(
      new Set(all.map((d) => d.record.repeat)).size,
      source.point === null ? 0 : (runsAt.get(source.point)?.size ?? 0)
    );
    const split = p !== null && p !== undefined && repeat !== null && repeats > 1;
    const mine = <T extends DerivedRequest>(xs: readonly T[]) =>
      split ? xs.filter((d) => d.record.repeat === repeat) : xs;
    const requests = mine(all);
    const warmup = p ? mine(p.warmup ?? []) : [];
    const canonical = split ? repeatView(requests, repeats) : (p?.canonical ?? null);
    const rowsOfSource = PEER_FORMATS[source.tool].compare({source, requests, warmup, canonical});
    const agg = aggregatesOf(source);
    const own = rowsOfSource.map((row) => {
      const named = row.reported === null ? reportedNull(row, agg) : row;
      return split ? {...named, repeat: repeat!} : named;
    });
    for (const row of own)
      if (row.finding)
        issues.push(
          issue(
            "warning",
            "source_mismatch",
            FILE_NAMES.source,
            `${source.tool} reports ${row.metric} = ${row.reported} but its own definition over the imported data gives ${row.recomputed ?? `a value outside [${row.bound?.lower}, ${row.bound?.upper}]`}: ${row.note ?? ""}`,
            source.seq + 1,
            row.metric
          )
        );
    appendAll(rows, own);
  }
  return {rows, issues};
}
