import type {AnalyzeJson} from "./json.ts";
import type {MetricValue, Report} from "./types.ts";

/** The view's type: AnalyzeJson (json.ts), with the rows whose shapes quality/ and peers/ own typed by them, as in Report. */
export type JsonView = Omit<AnalyzeJson, "source_comparison" | "cases" | "quality"> & {
  source_comparison?: Report["source_comparison"];
  cases?: Report["cases"];
  quality?: Report["quality_summary"];
};

type JsonMetrics = AnalyzeJson["load_points"][number]["metrics"];
type JsonMetric = JsonMetrics[string];

/** Summaries keep mean/p50/p90/p95/p99/n (withheld percentiles are null) plus their other keys; run metrics keep {value, …}. */
function metricView(v: MetricValue): JsonMetric {
  if ("p50" in v) {
    const {mean, p50, p90, p95, p99, n, ...rest} = v;
    return {mean, p50, p90, p95, p99, n, ...rest};
  }
  return {...v};
}

/**
 * Old metric keys kept for one analyzer version after a rename, each a copy of its new key with
 * `deprecated` naming it (methodology, version history). None in analyzer 3: total_throughput_tok_s, the
 * alias of input_output_throughput_tok_s in analyzer 2, is gone as announced.
 */
const ALIASES: Record<string, string> = {};

function withAliases(metrics: JsonMetrics): JsonMetrics {
  for (const [old, now] of Object.entries(ALIASES))
    if (metrics[now] !== undefined && metrics[old] === undefined)
      metrics[old] = {...metrics[now], deprecated: `renamed ${now}; this alias goes in the next analyzer version`};
  return metrics;
}

/**
 * The stable machine-readable view of a Report that `inferscope analyze --json` prints (schema: json.ts,
 * published as evidence/schema/analyze.v<REPORT_VERSION>.schema.json; keys documented in docs/collector.md).
 */
export function jsonView(report: Report): JsonView {
  const view: JsonView = {
    bundle: report.bundle,
    verdict: report.verdict,
    verdict_reasons: report.verdict_reasons,
    status: report.status,
    measure_version: report.measure_version,
    analyzer_version: report.analyzer_version,
    gates: report.gates.map((g) => ({id: g.id, slug: g.slug, status: g.status, reason: g.reason})),
    load_points: report.load_points.map((p) => ({
      id: p.id,
      mode: p.mode,
      value: p.value,
      n: p.n,
      n_success: p.n_success,
      verdict: p.verdict,
      metrics: withAliases(Object.fromEntries(Object.entries(p.metrics).map(([k, v]) => [k, metricView(v)]))),
      ...(p.workload === undefined ? {} : {workload: p.workload})
    })),
    issues: report.issues
  };
  if (report.source_comparison !== undefined) view.source_comparison = report.source_comparison;
  if (report.cases !== undefined) view.cases = report.cases;
  if (report.quality_summary !== undefined) view.quality = report.quality_summary;
  if (report.hardware !== undefined) view.hardware = report.hardware;
  return view;
}
