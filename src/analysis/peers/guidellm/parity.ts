import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  approximate,
  canonicalRef,
  canonicalRun,
  derived,
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
import {statRows, type ReportedStat} from "../shared/statRows.ts";
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
export function guidellmValues(
  metric: Metric,
  ok: readonly DerivedRequest[],
  legacy = false
): {values: number[]; weights: number[]} {
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
      // 0.4+: (last token − request start)/out, TTFT included; 0.3: (last − first token)/out
      v = span(legacy ? r.tTok1 : r.tDisp, r.tTokN)! / r.out;
      w = r.out;
    }
    if (v !== null && Number.isFinite(v)) {
      values.push(v);
      weights.push(w);
    }
  }
  return {values, weights};
}

/**
 * GuideLLM's statistic: weighted mean, weighted population std, nearest rank on the weighted CDF, built
 * the way the version that wrote the file builds it (0.3: one CDF step per value; 0.4+: equal values merged).
 */
export function recomputeGuidellm(metric: Metric, stat: Stat, requests: readonly DerivedRequest[], legacy = false) {
  const {values, weights} = guidellmValues(metric, successes(requests), legacy);
  // 0.3 counts values, 0.4+ the weights (tokens for TPOT and ITL)
  if (legacy && stat === "count") return exact(values.length);
  return exact(weightedStat(values, weights, stat, legacy ? "per-value" : "merged"));
}

/**
 * GuideLLM's definition of each metric, our canonical metric for it (shown in the row's unit: see unitScale)
 * and how the two differ. Each difference is stated on the statistics it touches (statReasons): a definition
 * on all of them, a weighting on all but min and max (an extreme does not depend on weights), the
 * percentile method on the median and the percentiles only.
 */
const METRICS: Record<Metric, {definition: string; canonical: string; differs?: string; weighting?: string}> = {
  time_to_first_token_ms: {
    definition: "first token iteration − request start; weight 1",
    canonical: "ttft_ms"
  },
  inter_token_latency_ms: {
    definition: "(last − first token iteration)/(out − 1) per request; token-weighted (out − 1)",
    canonical: "tpot_ms",
    weighting: "ours is request-weighted; theirs token-weighted (out − 1)"
  },
  time_per_output_token_ms: {
    definition: "(last token iteration − request start)/out — includes TTFT; token-weighted (out)",
    canonical: "tpot_ms",
    differs: "their TPOT includes TTFT (a legacy name); our tpot_ms = (e2e − ttft)/(out − 1) excludes it",
    weighting: "ours is request-weighted; theirs token-weighted (out)"
  },
  request_latency: {
    definition: "request end − request start, s",
    canonical: "request_time_ms"
  },
  output_token_count: {
    definition: "output tokens (server usage when prefer_response_metrics)",
    canonical: "output_tokens"
  },
  prompt_token_count: {
    definition: "prompt tokens",
    canonical: "input_tokens"
  }
};

/** The reason codes and the one-line why of a statistic of a metric: only the differences that touch it. */
function statReasons(metric: Metric, stat: Stat, legacy: boolean): {codes: ReasonCode[]; why?: string} {
  const def = METRICS[metric];
  const codes: ReasonCode[] = [];
  const why: string[] = [];
  const differs =
    legacy && metric === "time_per_output_token_ms"
      ? "their 0.3 TPOT is (last − first token)/out, ours (last − first token)/(out − 1)"
      : def.differs;
  if (differs) {
    codes.push("definition");
    why.push(differs);
  }
  if (def.weighting && stat !== "min" && stat !== "max") {
    codes.push("weighting");
    why.push(def.weighting);
  }
  // our p50 is the median (canonicalStat), so their p50 differs from it as their median does
  if (stat === "median" || (typeof stat === "object" && stat.p === 50)) {
    codes.push("percentile_method");
    why.push(
      `their ${stat === "median" ? "median" : "p50"} is a nearest rank on the weighted CDF; our median the midpoint of the middle values`
    );
  } else if (typeof stat === "object") {
    codes.push("percentile_method");
    why.push(
      `their p${stat.p} is the first value whose weighted cumulative share reaches ${stat.p} %; ours the nearest rank ⌈p·n⌉`
    );
  }
  return why.length ? {codes, why: why.join("; ")} : {codes};
}

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

/**
 * Request totals by outcome, counted over the stored requests inside the window. In a file that stores a
 * sample, no total is recomputable: a count over the sample can only be at most GuideLLM's, so even a status
 * whose stored count equals its total (0 of 0 errored when the requests were stripped) proves nothing.
 */
function totalRows(
  input: ComparisonInput,
  totals: Record<string, unknown>,
  sampled: readonly string[],
  why: string
): SourceComparisonRow[] {
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
        recomputed:
          sampled.length > 0
            ? missing(`sampled_requests: ${why}`)
            : exact(kindCount, "stored requests inside GuideLLM's measured window"),
        canonical: null,
        codes: sampled.length ? ["sampled_requests"] : []
      })
    );
  }
  return rows;
}

interface Facts {
  listedSuccessful?: number;
  generation?: string;
  windowNs?: {start: number | null; end: number | null} | null;
  sampled?: string[];
  inWindow?: Record<string, number>;
  sampleSize?: number | null;
}

/**
 * GuideLLM's rate means over its measured window [ws, we] (statistics.py, 0.4+): requests per second is
 * the number of successful requests ending inside the window over its length; concurrency the time-weighted
 * mean of requests in flight, each clipped to the window; output tokens per second Σ output tokens over the
 * span from the first to the last token (not clipped).
 */
function rateMeans(ok: readonly DerivedRequest[], w: {start: number; end: number}) {
  const len = (w.end - w.start) / 1e9;
  const ends = ok.filter((r) => r.record.tEndNs !== null && r.record.tEndNs >= w.start && r.record.tEndNs <= w.end);
  let busy = 0;
  for (const r of ok) {
    if (r.tDisp === null || r.record.tEndNs === null) continue;
    busy += Math.max(0, Math.min(r.record.tEndNs, w.end) - Math.max(r.tDisp, w.start));
  }
  const firsts = ok.map((r) => r.tTok1).filter((t): t is number => t !== null);
  const lasts = ok.map((r) => r.tTokN).filter((t): t is number => t !== null);
  const tokens = ok.every((r) => r.out !== null) ? ok.reduce((a, r) => a + r.out!, 0) : null;
  const tokSpan = firsts.length && lasts.length ? (max(lasts)! - min(firsts)!) / 1e9 : null;
  return {
    requests_per_second: len > 0 ? ends.length / len : null,
    request_concurrency: len > 0 ? busy / 1e9 / len : null,
    output_tokens_per_second: tokens !== null && tokSpan ? tokens / tokSpan : null
  };
}

/** The benchmark's duration and the means of its time-weighted rate distributions. */
function windowRows(
  input: ComparisonInput,
  agg: Record<string, unknown>,
  metrics: Record<string, unknown>,
  facts: Facts,
  sampledWhy: string | null
): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const point = source.point;
  const rows: SourceComparisonRow[] = [];
  const w = facts.windowNs && facts.windowNs.start !== null && facts.windowNs.end !== null ? facts.windowNs : null;
  const window = w ? {start: w.start!, end: w.end!} : null;
  const starts = requests.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const ends = requests.map((r) => r.record.tEndNs).filter((t): t is number => t !== null);
  rows.push(
    finishRow({
      point,
      metric: "duration",
      definition: "benchmark start to end (measure window), s",
      unit: "s",
      reported: typeof agg.duration === "number" ? agg.duration : null,
      recomputed: window
        ? derived((window.end - window.start) / 1e9, "GuideLLM's measure window (scheduler_metrics)")
        : starts.length && ends.length
          ? approximate((max(ends)! - min(starts)!) / 1e9, "first request start to last request end")
          : missing("no request times"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window runs from the first measured request's start to the last one's end"
    })
  );
  const means = window ? rateMeans(successes(requests), window) : null;
  const rate = (name: keyof ReturnType<typeof rateMeans>, canonicalId: string, definition: string) => {
    const m = metrics[name];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) return;
    const value = means?.[name] ?? null;
    rows.push(
      finishRow({
        point,
        metric: `${name}.mean`,
        definition,
        unit: name === "requests_per_second" ? "req/s" : name === "request_concurrency" ? "requests" : "tok/s",
        reported: typeof dist.mean === "number" ? dist.mean : null,
        recomputed: sampledWhy
          ? missing(`sampled_requests: ${sampledWhy}`)
          : window && value !== null
            ? exact(value)
            : missing(
                "window: GuideLLM 0.3 keeps no measured window in the file (its time-weighted rates cannot be rebuilt)"
              ),
        canonical: canonicalRun(canonical, canonicalId),
        codes: ["weighting", "window"],
        why: "ours is a count over our measurement window (Σ/window), not the mean of a time-weighted rate distribution"
      })
    );
  };
  rate(
    "requests_per_second",
    "request_throughput_rps",
    "successful requests ending inside the measure window / its length (mean of the time-weighted rate)"
  );
  rate(
    "output_tokens_per_second",
    "output_throughput_tok_s",
    "Σ output tokens / (last token − first token) of the measured requests (mean of the time-weighted token rate)"
  );
  rate(
    "request_concurrency",
    "achieved_concurrency",
    "time in flight, clipped to the measure window / its length (mean of the time-weighted concurrency)"
  );
  return rows;
}

export function compareGuidellm(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aggregatesOf(source);
  const metrics = (isObject(agg.metrics) ? agg.metrics : {}) as Record<string, unknown>;
  const point = source.point;
  const facts = source.facts as Facts;
  const legacy = facts.generation === "0.3";
  const rows: SourceComparisonRow[] = [];
  const totals = isObject(metrics.request_totals)
    ? (metrics.request_totals as Record<string, unknown>)
    : isObject(agg.request_totals)
      ? (agg.request_totals as Record<string, unknown>)
      : {};
  // Older bundles (imported before the window and sample facts): listed successful vs the total
  const sampled =
    facts.sampled ??
    (typeof totals.successful === "number" &&
    facts.listedSuccessful !== undefined &&
    totals.successful !== facts.listedSuccessful
      ? ["successful"]
      : []);
  const stored = facts.inWindow?.successful ?? facts.listedSuccessful;
  const why = sampled.length
    ? `the file stores ${sampled.map((k) => `${facts.inWindow?.[k] ?? stored} of ${String(totals[k])} ${k}`).join(", ")} requests (GuideLLM's sample${facts.sampleSize ? ` of size ${facts.sampleSize}` : ""}); the reported number covers all of them`
    : null;
  const successSampled = sampled.includes("successful") ? why : null;
  for (const metric of Object.keys(METRICS) as Metric[]) {
    const m = metrics[metric];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) continue;
    const def = METRICS[metric];
    appendAll(
      rows,
      statRows(reportedStats(metric, dist), {
        point,
        definition: () =>
          `${legacy && metric === "time_per_output_token_ms" ? "(last − first token iteration)/out (0.3: TTFT excluded); token-weighted (out)" : def.definition}; weighted nearest rank, weighted population std`,
        unit: () => (metric === "request_latency" ? "s" : metric.endsWith("_ms") ? "ms" : "tokens"),
        recompute: (stat) =>
          successSampled
            ? missing(`sampled_requests: ${successSampled}`)
            : recomputeGuidellm(metric, stat, requests, legacy),
        canonical: (stat, unit) => {
          const own = statReasons(metric, stat, legacy);
          const sampledWhy = `ours covers only the ${stored} stored requests`;
          return {
            ref: canonicalRef(canonical, def.canonical, stat, unit),
            codes: successSampled ? [...own.codes, "sampled_requests"] : own.codes,
            ...(successSampled
              ? {why: own.why ? `${own.why}; ${sampledWhy}` : sampledWhy}
              : own.why
                ? {why: own.why}
                : {})
          };
        }
      })
    );
  }
  appendAll(rows, totalRows(input, totals, sampled, why ?? ""));
  appendAll(rows, windowRows(input, agg, metrics, facts, successSampled));
  return rows;
}
