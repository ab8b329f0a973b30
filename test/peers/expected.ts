/**
 * The numbers each peer file reports, read straight from the file by the test (never from the importer):
 * {metric key as the comparison names it, value, load point index}. Keys follow the source's own names.
 */
export interface Expected {
  metric: string;
  value: number;
  /** Index of the run/benchmark the number belongs to (several runs per file). */
  run: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => {
  const n = typeof v === "string" && /^-?[\d.]+$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

/** vLLM / SGLang: every `<stat>_<metric>_ms` key plus counts and throughputs, per run (line). */
export function vllmLikeExpected(runs: readonly Record<string, unknown>[]): Expected[] {
  const out: Expected[] = [];
  runs.forEach((r, run) => {
    for (const [k, v] of Object.entries(r)) {
      if (
        !/^(mean|median|std|min|max|p[\d.]+)_[a-z0-9_]+_ms$/.test(k) &&
        !/^(completed|total_(input|output)(_tokens)?|request_throughput|output_throughput|duration|concurrency)$/.test(
          k
        )
      )
        continue;
      const n = num(v);
      if (n !== null) out.push({metric: k, value: n, run});
    }
  });
  return out;
}

/** GuideLLM: metrics.<name>.successful.{mean, median, std_dev, min, max, count, percentiles.pXX}. */
export function guidellmExpected(report: Record<string, unknown>): Expected[] {
  const out: Expected[] = [];
  (report.benchmarks as Record<string, unknown>[]).forEach((b, run) => {
    const metrics = b.metrics as Record<string, unknown>;
    for (const name of [
      "time_to_first_token_ms",
      "inter_token_latency_ms",
      "time_per_output_token_ms",
      "request_latency",
      "output_token_count",
      "prompt_token_count"
    ]) {
      const s = (metrics[name] as Record<string, Record<string, unknown>>).successful!;
      for (const k of ["mean", "median", "std_dev", "min", "max", "count"])
        out.push({metric: `${name}.${k}`, value: s[k] as number, run});
      for (const p of ["p50", "p90", "p95", "p99", "p999"])
        out.push({metric: `${name}.percentiles.${p}`, value: (s.percentiles as Record<string, number>)[p]!, run});
    }
    const totals = metrics.request_totals as Record<string, number>;
    for (const k of ["successful", "errored", "incomplete", "total"])
      out.push({metric: `request_totals.${k}`, value: totals[k]!, run});
    // the means of the time-weighted rate distributions (make.py computes them by GuideLLM's rules)
    for (const name of ["requests_per_second", "output_tokens_per_second", "request_concurrency"])
      out.push({metric: `${name}.mean`, value: (metrics[name] as {successful: {mean: number}}).successful.mean, run});
  });
  return out;
}

/** AIPerf: every tag's stats (both generations: under `records` or at the top level). */
export function aiperfExpected(agg: Record<string, unknown>): Expected[] {
  const src = isObj(agg.records) ? agg.records : agg;
  const out: Expected[] = [];
  const perRequest = [
    "ttft",
    "time_to_first_token",
    "ttst",
    "time_to_second_token",
    "request_latency",
    "inter_token_latency",
    "inter_chunk_latency",
    "output_sequence_length",
    "input_sequence_length",
    "reasoning_token_count",
    "output_token_throughput_per_user"
  ];
  const scalars = [
    "request_count",
    "error_request_count",
    "benchmark_duration",
    "request_throughput",
    "output_token_throughput",
    "total_osl",
    "total_reasoning_tokens",
    "total_output_tokens",
    "total_isl"
  ];
  for (const [tag, v] of Object.entries(src)) {
    if (!isObj(v)) continue;
    if (perRequest.includes(tag))
      for (const [k, x] of Object.entries(v)) {
        if (!/^(avg|min|max|std|p\d+)$/.test(k)) continue;
        const n = num(x);
        if (n !== null) out.push({metric: `${tag}.${k}`, value: n, run: 0});
      }
    else if (scalars.includes(tag) && num(v.avg) !== null) out.push({metric: tag, value: num(v.avg)!, run: 0});
  }
  return out;
}

/** LLMPerf summary: results_<metric>_{quantiles_pXX, mean, min, max, stddev} and the counts. */
export function llmperfExpected(summary: Record<string, unknown>): Expected[] {
  const out: Expected[] = [];
  for (const [k, v] of Object.entries(summary)) {
    const n = num(v);
    if (n === null) continue;
    if (
      /^results_(ttft_s|end_to_end_latency_s|inter_token_latency_s|request_output_throughput_token_per_s|number_input_tokens|number_output_tokens)_/.test(
        k
      ) ||
      /^results_(num_completed_requests|number_errors|num_completed_requests_per_min|mean_output_throughput_token_per_s)$/.test(
        k
      )
    )
      out.push({metric: k, value: n, run: 0});
  }
  return out;
}

/** GenAI-Perf summary: <metric>.{avg, pXX, min, max, std}. */
export function genaiPerfExpected(summary: Record<string, unknown>): Expected[] {
  const out: Expected[] = [];
  for (const [name, v] of Object.entries(summary)) {
    if (!isObj(v) || name === "input_config") continue;
    for (const [k, x] of Object.entries(v))
      if (/^(avg|min|max|std|p\d+)$/.test(k) && num(x) !== null)
        out.push({metric: `${name}.${k}`, value: num(x)!, run: 0});
  }
  return out;
}

/** InferScope v1 aggregate: latency_ms.<f>.<stat>, requests.*, throughput.*, measured_seconds. */
export function v1Expected(agg: Record<string, unknown>): Expected[] {
  const out: Expected[] = [];
  for (const [f, d] of Object.entries(agg.latency_ms as Record<string, Record<string, unknown>>))
    for (const [k, x] of Object.entries(d))
      if (num(x) !== null && typeof x !== "boolean") out.push({metric: `latency_ms.${f}.${k}`, value: num(x)!, run: 0});
  for (const [k, x] of Object.entries(agg.throughput as Record<string, unknown>))
    if (num(x) !== null) out.push({metric: `throughput.${k}`, value: num(x)!, run: 0});
  for (const k of ["successful", "scheduled"])
    out.push({metric: `requests.${k}`, value: (agg.requests as Record<string, number>)[k]!, run: 0});
  out.push({metric: "measured_seconds", value: agg.measured_seconds as number, run: 0});
  return out;
}
