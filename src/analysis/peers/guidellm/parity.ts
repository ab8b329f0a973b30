import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  approximate,
  canonicalRef,
  canonicalRun,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow,
  aggregatesOf
} from "../shared/compare.ts";
import {isObject} from "../shared/parse.ts";
import {parseGuidellmPercentile, weightedStat, type Stat} from "../shared/stats.ts";
import {percentileCodes, statRows, type ReportedStat} from "../shared/statRows.ts";
import {successes} from "../shared/views.ts";

/**
 * GuideLLM parity: each distribution statistic recomputed from the listed requests under GuideLLM's
 * definitions (weighted nearest rank, weighted population std), its request totals, window and rates.
 */
type Metric =
  | "time_to_first_token_ms"
  | "inter_token_latency_ms"
  | "time_per_output_token_ms"
  | "request_latency"
  | "output_token_count"
  | "prompt_token_count";

const span = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : (b - a) / 1e6);

/** Per-request values and weights of GuideLLM's own metrics (weights: 1, out − 1 or out). */
export function guidellmValues(metric: Metric, ok: readonly DerivedRequest[]): {values: number[]; weights: number[]} {
  const values: number[] = [];
  const weights: number[] = [];
  for (const r of ok) {
    const ttft = span(r.tDisp, r.tTok1);
    let v: number | null = null;
    let w = 1;
    if (metric === "time_to_first_token_ms") v = ttft;
    else if (metric === "request_latency")
      v = span(r.tDisp, r.record.tEndNs) === null ? null : span(r.tDisp, r.record.tEndNs)! / 1000;
    else if (metric === "output_token_count") v = r.out;
    else if (metric === "prompt_token_count") v = r.in;
    else if (metric === "inter_token_latency_ms") {
      if (r.out !== null && r.out > 1) {
        v = span(r.tTok1, r.tTokN)! / (r.out - 1);
        w = r.out - 1;
      }
    } else if (r.out !== null && r.out > 0) {
      v = span(r.tDisp, r.tTokN)! / r.out;
      w = r.out;
    }
    if (v !== null && Number.isFinite(v)) {
      values.push(v);
      weights.push(w);
    }
  }
  return {values, weights};
}

/** GuideLLM's statistic: weighted mean, weighted population std, nearest rank on the weighted CDF. */
export function recomputeGuidellm(metric: Metric, stat: Stat, requests: readonly DerivedRequest[]) {
  const {values, weights} = guidellmValues(metric, successes(requests));
  return exact(weightedStat(values, weights, stat));
}

/**
 * GuideLLM's definition of each metric, our canonical metric for it (shown in the row's unit: see unitScale)
 * and why the two differ; the percentile method (median included: theirs is a nearest rank) is added.
 */
const METRICS: Record<Metric, {definition: string; canonical: string; codes: ReasonCode[]; why: string}> = {
  time_to_first_token_ms: {
    definition: "first token iteration − request start; weight 1",
    canonical: "ttft_ms",
    codes: [],
    why: "their median and percentiles are nearest ranks on a weighted CDF; our median is the midpoint"
  },
  inter_token_latency_ms: {
    definition: "(last − first token iteration)/(out − 1) per request; token-weighted (out − 1)",
    canonical: "tpot_ms",
    codes: ["weighting"],
    why: "ours is request-weighted; theirs token-weighted"
  },
  time_per_output_token_ms: {
    definition: "(last token iteration − request start)/out — includes TTFT; token-weighted (out)",
    canonical: "tpot_ms",
    codes: ["definition", "weighting"],
    why: "their TPOT includes TTFT (a legacy name); our tpot_ms excludes the first token and is request-weighted"
  },
  request_latency: {
    definition: "request end − request start, s",
    canonical: "request_time_ms",
    codes: [],
    why: "percentile method"
  },
  output_token_count: {
    definition: "output tokens (server usage when prefer_response_metrics)",
    canonical: "output_tokens",
    codes: [],
    why: "nearest rank vs a midpoint median"
  },
  prompt_token_count: {
    definition: "prompt tokens",
    canonical: "input_tokens",
    codes: [],
    why: "their median is a nearest rank, ours the midpoint"
  }
};

const STATS = ["mean", "median", "std_dev", "min", "max", "count"] as const;
const PUBLISHED = ["p50", "p90", "p95", "p99", "p999"];

/** The statistics GuideLLM reports of one distribution: the moments, then its published percentiles. */
function reportedStats(metric: Metric, dist: Record<string, unknown>): ReportedStat[] {
  const out: ReportedStat[] = STATS.map((k) => ({
    metric: `${metric}.${k}`,
    label: k,
    stat: (k === "std_dev" ? "std" : k) as Stat,
    reported: typeof dist[k] === "number" ? (dist[k] as number) : null
  }));
  const pcts = isObject(dist.percentiles) ? (dist.percentiles as Record<string, unknown>) : {};
  for (const [k, value] of Object.entries(pcts)) {
    const p = parseGuidellmPercentile(k);
    if (p !== null && PUBLISHED.includes(k))
      out.push({
        metric: `${metric}.percentiles.${k}`,
        label: `percentiles.${k}`,
        stat: {p},
        reported: typeof value === "number" ? value : null
      });
  }
  return out;
}

/** Request totals by outcome (of the listed requests when GuideLLM sampled them). */
function totalRows(input: ComparisonInput, totals: Record<string, unknown>, sampled: boolean): SourceComparisonRow[] {
  const {source, requests} = input;
  const point = source.point;
  const ok = successes(requests);
  const rows: SourceComparisonRow[] = [];
  for (const k of ["successful", "errored", "incomplete", "total"] as const) {
    const kindCount =
      k === "successful"
        ? ok.length
        : k === "total"
          ? requests.length
          : requests.filter((r) => !r.success && (k === "incomplete") === (r.record.transportError === "client_abort"))
              .length;
    rows.push(
      finishRow({
        point,
        metric: `request_totals.${k}`,
        definition: `${k} requests in the benchmark`,
        unit: "requests",
        reported: typeof totals[k] === "number" ? (totals[k] as number) : null,
        recomputed: exact(kindCount, sampled ? "listed requests only" : undefined),
        canonical: null,
        codes: sampled ? ["sampled_requests"] : []
      })
    );
  }
  return rows;
}

/** The benchmark's duration and its time-weighted rate distributions (not recomputable: see the notes). */
function windowRows(
  input: ComparisonInput,
  agg: Record<string, unknown>,
  metrics: Record<string, unknown>
): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const point = source.point;
  const rows: SourceComparisonRow[] = [];
  const starts = requests.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const ends = requests.map((r) => r.record.tEndNs).filter((t): t is number => t !== null);
  rows.push(
    finishRow({
      point,
      metric: "duration",
      definition: "benchmark start to end (measure window), s",
      unit: "s",
      reported: typeof agg.duration === "number" ? agg.duration : null,
      recomputed:
        starts.length && ends.length
          ? approximate((max(ends)! - min(starts)!) / 1e9, "first request start to last request end")
          : missing("no request times"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window runs from the first request's start to the last request's end"
    })
  );
  const rate = (name: string, canonicalId: string, definition: string) => {
    const m = metrics[name];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) return;
    rows.push(
      finishRow({
        point,
        metric: `${name}.mean`,
        definition,
        unit: name === "requests_per_second" ? "req/s" : name === "request_concurrency" ? "requests" : "tok/s",
        reported: typeof dist.mean === "number" ? dist.mean : null,
        recomputed: missing("weighting: a time-weighted rate distribution over GuideLLM's internal iteration timeline"),
        canonical: canonicalRun(canonical, canonicalId),
        codes: ["weighting", "window"],
        why: "ours is a count over the measurement window (Σ/window), not the mean of a time-weighted rate distribution"
      })
    );
  };
  rate("requests_per_second", "request_throughput_rps", "mean of the time-weighted request rate distribution");
  rate(
    "output_tokens_per_second",
    "output_throughput_tok_s",
    "mean of the time-weighted output token rate (tokens spread between first and last iteration)"
  );
  rate("request_concurrency", "achieved_concurrency", "mean of the time-weighted concurrency distribution");
  return rows;
}

export function compareGuidellm(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aggregatesOf(source);
  const metrics = (isObject(agg.metrics) ? agg.metrics : {}) as Record<string, unknown>;
  const point = source.point;
  const facts = source.facts as {listedSuccessful?: number};
  const rows: SourceComparisonRow[] = [];
  const totals = isObject(metrics.request_totals) ? (metrics.request_totals as Record<string, unknown>) : {};
  const sampled =
    typeof totals.successful === "number" &&
    facts.listedSuccessful !== undefined &&
    totals.successful !== facts.listedSuccessful;
  const sampleNote = sampled
    ? ` (from the ${facts.listedSuccessful} listed of ${String(totals.successful)} requests)`
    : "";
  for (const metric of Object.keys(METRICS) as Metric[]) {
    const m = metrics[metric];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) continue;
    const def = METRICS[metric];
    appendAll(
      rows,
      statRows(reportedStats(metric, dist), {
        point,
        definition: () => `${def.definition}; weighted nearest rank, weighted population std`,
        unit: () => (metric === "request_latency" ? "s" : metric.endsWith("_ms") ? "ms" : "tokens"),
        recompute: (stat) => {
          const rec = recomputeGuidellm(metric, stat, requests);
          return sampled && rec.value !== null
            ? {...rec, status: "approximate", note: `sampled_requests${sampleNote}`}
            : rec;
        },
        canonical: (stat, unit) => {
          const codes: ReasonCode[] = [...def.codes, ...percentileCodes(stat, true)];
          return {
            ref: canonicalRef(canonical, def.canonical, stat, unit),
            codes: sampled ? [...codes, "sampled_requests"] : codes,
            why: def.why
          };
        }
      })
    );
  }
  appendAll(rows, totalRows(input, totals, sampled));
  appendAll(rows, windowRows(input, agg, metrics));
  return rows;
}
