import type {MetricValue, Report} from "../../src/analysis/index.ts";

/** The stable machine-readable view printed by `inferscope analyze --json` (keys documented in docs/collector.md). */
export interface JsonView {
  bundle: string;
  verdict: Report["verdict"];
  verdict_reasons: string[];
  status: Report["status"];
  measure_version: string | null;
  analyzer_version: string;
  gates: {id: string; slug: string; status: string; reason: string}[];
  load_points: {
    id: string;
    mode: string;
    value: number;
    n: number;
    n_success: number;
    verdict: Report["verdict"];
    metrics: Record<string, Record<string, unknown>>;
  }[];
  issues: Report["issues"];
  source_comparison?: unknown;
  /** Case-suite performance per case and tier (runs with suites). */
  cases?: Report["cases"];
  /** Quality per version, case, scorer, condition, constraint and needle cell (runs with suites). */
  quality?: Report["quality_summary"];
}

/** Summaries keep mean/p50/p90/p95/p99/n (withheld percentiles are null) plus their other keys; run metrics keep {value, …}. */
function metricView(v: MetricValue): Record<string, unknown> {
  if ("p50" in v) {
    const {mean, p50, p90, p95, p99, n, ...rest} = v;
    return {mean, p50, p90, p95, p99, n, ...rest};
  }
  return {...v};
}

/**
 * Old metric keys kept for one analyzer version after a rename, each a copy of its new key with
 * `deprecated` naming it (methodology, version history): total_throughput_tok_s → input_output_throughput_tok_s.
 */
const ALIASES: Record<string, string> = {total_throughput_tok_s: "input_output_throughput_tok_s"};

function withAliases(metrics: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  for (const [old, now] of Object.entries(ALIASES))
    if (metrics[now] !== undefined && metrics[old] === undefined)
      metrics[old] = {...metrics[now], deprecated: `renamed ${now} in analyzer 2; this alias goes in analyzer 3`};
  return metrics;
}

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
      metrics: withAliases(Object.fromEntries(Object.entries(p.metrics).map(([k, v]) => [k, metricView(v)])))
    })),
    issues: report.issues
  };
  const extra = (report as unknown as {source_comparison?: unknown}).source_comparison;
  if (extra !== undefined) view.source_comparison = extra;
  if (report.cases !== undefined) view.cases = report.cases;
  if (report.quality_summary !== undefined) view.quality = report.quality_summary;
  return view;
}
