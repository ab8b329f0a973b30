import type {PointFacts} from "../gates/types.ts";
import type {DerivedRequest} from "../derive/request.ts";
import {RUN_METRIC_DEFS} from "../metrics/registry.ts";
import {FILE_NAMES, type SourceRecord} from "../schema/records.ts";
import {issue, type Issue} from "../util/issues.ts";
import type {CanonicalView, ComparisonInput, SourceComparisonRow} from "./compare.ts";
import {compareAiperf} from "./aiperf.ts";
import {compareGenaiPerf} from "./genaiPerf.ts";
import {compareGuidellm} from "./guidellm.ts";
import {compareInferscopeV1} from "./inferscopeV1.ts";
import {compareLlmperf} from "./llmperf.ts";
import {compareVllmLike, VLLM_CHAT_TTFT_CAVEAT, vllmMaybeChat} from "./vllmLike.ts";
import {appendAll} from "../util/append.ts";

export type {SourceComparisonRow} from "./compare.ts";

const COMPARE: Record<string, (input: ComparisonInput) => SourceComparisonRow[]> = {
  vllm: compareVllmLike,
  sglang: compareVllmLike,
  "genai-perf": compareGenaiPerf,
  aiperf: compareAiperf,
  guidellm: compareGuidellm,
  llmperf: compareLlmperf,
  "inferscope-v1": compareInferscopeV1
};

/**
 * Caveats an import puts on our own metrics, per load point (null: every point): what a reader of the
 * number must know because of how the source tool measured it.
 */
export function importCaveats(
  sources: readonly SourceRecord[]
): {point: string | null; metric: string; note: string}[] {
  const out: {point: string | null; metric: string; note: string}[] = [];
  for (const s of sources) {
    const agg = (s.aggregates !== null && typeof s.aggregates === "object" ? s.aggregates : {}) as Record<
      string,
      unknown
    >;
    if (s.tool === "vllm" && vllmMaybeChat(agg))
      for (const metric of ["ttft_ms", "ttft_content_ms", "prefill_tok_s"])
        out.push({point: s.point, metric, note: VLLM_CHAT_TTFT_CAVEAT});
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

export interface PointInput {
  requests: readonly DerivedRequest[];
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
  for (const source of sources) {
    const compare = COMPARE[source.tool];
    if (!compare) {
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
    const requests = p ? p.requests : source.point === null ? [...points.values()].flatMap((x) => x.requests) : [];
    const own = compare({source, requests, canonical: p?.canonical ?? null});
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
