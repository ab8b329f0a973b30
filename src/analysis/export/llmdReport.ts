import {validateLlmdReport} from "../peers/index.ts";
import {isSummary, type MetricValue, type Report} from "../report/types.ts";
import type {Manifest} from "../schema/manifest.ts";

/**
 * The llm-d Benchmark Report v0.2.1 of each load point of a bundle, so that InferScope's numbers flow
 * into the tools llm-d users run (llm-d-benchmark's analysis, llm-d-prism). Every statistic is ours,
 * computed over the point's successful measured requests (nearest-rank percentiles; a percentile the
 * sample size withholds is left out, never written as 0); the mapping is in docs/importing.md.
 */
export interface ExportContext {
  /** InferScope's version (the load generator's tool_version). */
  version: string;
  manifest: Manifest | null;
}

/** An llm-d Statistics block from one of our summaries, in `units`; null when it has no mean. */
function stat(m: MetricValue | undefined, units: string): Record<string, unknown> | null {
  if (!m || !isSummary(m) || m.mean === null) return null;
  const out: Record<string, unknown> = {units, mean: m.mean};
  const keys = [
    ["std", "stddev"],
    ["min", "min"],
    ["p50", "p50"],
    ["p90", "p90"],
    ["p95", "p95"],
    ["p99", "p99"],
    ["max", "max"]
  ] as const;
  for (const [ours, theirs] of keys) if (m[ours] !== null) out[theirs] = m[ours];
  return out;
}

/** A run metric (a rate) as a Statistics block with only its mean, as upstream's converters write rates. */
function rate(m: MetricValue | undefined, units: string): Record<string, unknown> | null {
  if (!m || isSummary(m) || m.value === null) return null;
  return {units, mean: m.value};
}

const compact = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

const nonEmpty = (o: Record<string, unknown>): Record<string, unknown> | null => (Object.keys(o).length ? o : null);

/** The engine with the accelerators the bundle records (measured devices), or null when unknown. */
function stackOf(report: Report, manifest: Manifest | null): Record<string, unknown>[] | null {
  const devices = manifest?.environment.gpu.devices ?? [];
  const names = [...new Set(devices.map((d) => d.name))];
  if (names.length !== 1 || !report.meta.model) return null;
  const server = manifest?.environment.server;
  return [
    {
      metadata: {schema_version: "0.0.1", label: "engine", cfg_id: report.bundle},
      standardized: {
        kind: "inference_engine",
        tool: report.meta.engine ?? "unknown",
        tool_version: server?.engineVersion ?? "",
        role: "replica",
        replicas: 1,
        model: {name: report.meta.model},
        accelerator: {
          model: names[0]!,
          count: devices.length,
          parallelism: {tp: 1, dp: 1, dp_local: 1, workers: 1, ep: 1, pp: 1}
        }
      },
      native: {}
    }
  ];
}

function loadOf(report: Report, point: Report["load_points"][number], stage: number, version: string) {
  const w = report.meta.workload;
  if (w.prompt_tokens === null) return null;
  return {
    metadata: {schema_version: "0.0.1", cfg_id: `${report.bundle}/${point.id}`},
    standardized: compact({
      tool: "inferscope",
      tool_version: version,
      source: report.meta.workloadKey.endsWith("filler") ? "random" : "unknown",
      input_seq_len: {distribution: "fixed", value: w.prompt_tokens},
      output_seq_len: w.max_tokens === null ? null : {distribution: "fixed", value: w.max_tokens},
      stage,
      ...(point.mode === "concurrency" ? {concurrency: point.value} : {rate_qps: point.value})
    }),
    native: {}
  };
}

/** One report per load point; each is validated against upstream's schema before it is returned. */
export function llmdReports(report: Report, ctx: ExportContext): {point: string; doc: Record<string, unknown>}[] {
  const stack = stackOf(report, ctx.manifest);
  return report.load_points.map((p, stage) => {
    const m = p.metrics;
    const window = m.window_s && "value" in m.window_s ? m.window_s.value : null;
    const doc = compact({
      version: "0.2.1",
      run: compact({
        uid: `${report.bundle}/${p.id}`,
        eid: report.bundle,
        time: compact({
          start: report.meta.startedAt,
          end: report.meta.finishedAt,
          duration: window === null ? null : `PT${window}S`
        }),
        description: `InferScope bundle ${report.bundle}, load point ${p.id}: verdict ${p.verdict} (analyzer ${report.analyzer_version})`,
        keywords: ["inferscope", p.verdict]
      }),
      scenario: nonEmpty(compact({stack, load: loadOf(report, p, stage, ctx.version)})),
      results: {
        request_performance: {
          aggregate: {
            requests: compact({
              total: p.n,
              failures: p.n - p.n_success,
              input_length: stat(m.input_tokens, "count"),
              output_length: stat(m.output_tokens, "count")
            }),
            latency: compact({
              time_to_first_token: stat(m.ttft_ms, "ms"),
              time_per_output_token: stat(m.tpot_ms, "ms/token"),
              // every token gap pooled where token times are known, else every chunk gap (as vLLM pools them)
              inter_token_latency: stat(m.itl_token_ms, "ms/token") ?? stat(m.inter_chunk_ms, "ms/token"),
              request_latency: stat(m.e2e_ms, "ms")
            }),
            throughput: compact({
              output_token_rate: rate(m.output_throughput_tok_s, "tokens/s"),
              total_token_rate: rate(m.input_output_throughput_tok_s, "tokens/s"),
              request_rate: rate(m.request_throughput_rps, "queries/s")
            })
          }
        }
      }
    });
    const errors = validateLlmdReport(`${report.bundle}/${p.id}`, doc);
    if (errors.length)
      throw new Error(`llm-d export is invalid: ${errors.map((e) => `${e.path}: ${e.expected}`).join("; ")}`);
    return {point: p.id, doc};
  });
}
