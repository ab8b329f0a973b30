import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  canonicalRef,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow,
  aggregatesOf
} from "../shared/compare.ts";
import {numpyStat, parseStat, type Stat} from "../shared/stats.ts";
import {percentileCodes, statRows, type ReportedStat} from "../shared/statRows.ts";
import {defined, endOf, lastTokenOf, successes, sumOf, ttftOf} from "../shared/views.ts";
import {METRICS, summaryNumber as num, type Metric} from "./format.ts";

/**
 * LLMPerf parity: each `results_<metric>_…` summary statistic recomputed from the individual responses
 * under LLMPerf's definitions (pandas R-7 quantiles, sample std), its counts and its per-minute rate.
 */
/**
 * Per-request values of LLMPerf's own metrics, from the imported records. `chunks` holds the SSE chunks
 * each request received (by request index), which LLMPerf divides by the latency as "output throughput".
 */
export function llmperfValues(
  metric: Metric,
  ok: readonly DerivedRequest[],
  chunks: readonly (number | null)[] = []
): number[] {
  const s = (ms: number | null) => (ms === null ? null : ms / 1000);
  switch (metric) {
    case "ttft_s":
      return defined(ok.map((r) => s(ttftOf(r))));
    case "end_to_end_latency_s":
      return defined(ok.map((r) => s(endOf(r))));
    case "inter_token_latency_s":
      // Σ time-to-next-token (first token included) / output tokens
      return defined(ok.map((r) => (r.out ? s(lastTokenOf(r))! / r.out : null)));
    case "request_output_throughput_token_per_s":
      return defined(
        ok.map((r) =>
          chunks[r.record.index] == null || !endOf(r) ? null : (chunks[r.record.index]! * 1000) / endOf(r)!
        )
      );
    case "number_input_tokens":
      return defined(ok.map((r) => r.in));
    case "number_output_tokens":
      return defined(ok.map((r) => r.out));
  }
}

/** Recomputes one summary statistic: pandas R-7 quantiles, sample std (ddof 1). */
export function recomputeLlmperf(
  metric: Metric,
  stat: Stat,
  requests: readonly DerivedRequest[],
  chunks: readonly (number | null)[] = []
) {
  return exact(numpyStat(llmperfValues(metric, successes(requests), chunks), stat, 1));
}

/**
 * LLMPerf's definition of each metric, our canonical metric for it (shown in the row's unit: see unitScale)
 * and why the two differ; the percentile method is added for percentiles.
 */
const MAPPING: Record<Metric, {definition: string; canonical: string; codes: ReasonCode[]; why: string}> = {
  ttft_s: {
    definition: "first chunk with non-empty delta.content minus send time, s",
    canonical: "ttft_ms",
    codes: [],
    why: "percentiles R-7 vs nearest rank; std ddof 1 vs 0"
  },
  end_to_end_latency_s: {
    definition: "send time to the end of the stream loop, s",
    canonical: "e2e_ms",
    codes: ["end_of_request"],
    why: "our e2e_ms ends at the last token; theirs after the stream loop ended"
  },
  inter_token_latency_s: {
    definition: "Σ time-to-next-token (starting with TTFT) / output tokens, s — includes TTFT",
    canonical: "tpot_ms",
    codes: ["definition"],
    why: "their ITL includes TTFT (≈ e2e/out); our tpot_ms = (e2e − ttft)/(out − 1) excludes it"
  },
  request_output_throughput_token_per_s: {
    definition:
      "tokens received / end-to-end latency: SSE chunks before ray-project/llmperf afd137a (2024-04), its tokenizer's output tokens since",
    canonical: "e2e_output_tok_s",
    codes: ["definition", "end_of_request"],
    why: "ours divides output tokens by the time to the last token; theirs its count (chunks before 2024-04) by the time to the end of the stream"
  },
  number_input_tokens: {
    definition: "prompt tokens (LLMPerf's Llama tokenizer)",
    canonical: "input_tokens",
    codes: [],
    why: "percentile method"
  },
  number_output_tokens: {
    definition: "output tokens (LLMPerf's Llama tokenizer)",
    canonical: "output_tokens",
    codes: [],
    why: "percentile method"
  }
};

/** The summary keys of one metric's statistics (`results_ttft_s_quantiles_p99`), or the defaults without a summary. */
function reportedStats(metric: Metric, agg: Record<string, unknown>, have: boolean): ReportedStat[] {
  const keys = Object.keys(agg).filter((k) => k.startsWith(`results_${metric}_`));
  const labels = keys.length
    ? keys.map((k) => k.slice(`results_${metric}_`.length).replace(/^quantiles_/, ""))
    : have
      ? ["mean", "p50", "p99"]
      : [];
  const out: ReportedStat[] = [];
  for (const label of labels) {
    const stat = parseStat(label);
    if (stat === null) continue;
    const key = keys.length
      ? `results_${metric}_${typeof stat === "object" ? "quantiles_" : ""}${label}`
      : `results_${metric}_${label}`;
    out.push({metric: key, label, stat, reported: num(agg[key])});
  }
  return out;
}

/** Completed and errored requests, the run's throughput and its per-minute rate (no shared clock: derived). */
function countRows(input: ComparisonInput, agg: Record<string, unknown>): SourceComparisonRow[] {
  const {source, requests} = input;
  const point = source.point;
  const have = requests.length > 0;
  const ok = successes(requests);
  const rows: SourceComparisonRow[] = [];
  const completed = num(agg.results_num_completed_requests);
  const errorsN = requests.length - ok.length;
  rows.push(
    finishRow({
      point,
      metric: "results_num_completed_requests",
      definition: "requests without an error code",
      unit: "requests",
      reported: completed,
      recomputed: have ? exact(ok.length) : missing("no individual-responses file"),
      canonical: null,
      codes: []
    }),
    finishRow({
      point,
      metric: "results_number_errors",
      definition: "requests with an error code",
      unit: "requests",
      reported: num(agg.results_number_errors),
      recomputed: have ? exact(errorsN) : missing("no individual-responses file"),
      canonical: null,
      codes: []
    })
  );
  const thr = num(agg.results_mean_output_throughput_token_per_s);
  // without the individual responses no token was counted: the sum is unknown, not 0 (and neither is the window)
  const sumOut = have && ok.every((r) => r.out !== null) ? sumOf(ok.map((r) => r.out!)) : null;
  const windowS = thr && sumOut !== null && sumOut > 0 ? sumOut / thr : null;
  rows.push(
    finishRow({
      point,
      metric: "results_mean_output_throughput_token_per_s",
      definition: "Σ output tokens of completed requests / (end − start of the run)",
      unit: "tok/s",
      reported: thr,
      recomputed: missing("the run's start and end are in neither file"),
      canonical: {
        metric: "output_throughput_tok_s",
        value: null,
        note: "request times are not on a shared clock (imported data)"
      },
      codes: ["window"]
    }),
    finishRow({
      point,
      metric: "results_num_completed_requests_per_min",
      definition: "completed requests / run window × 60",
      unit: "req/min",
      reported: num(agg.results_num_completed_requests_per_min),
      recomputed:
        windowS === null
          ? missing(
              have
                ? "window not derivable (no output tokens counted, or no mean output throughput reported)"
                : "window not derivable: no individual-responses file, so the output tokens are not counted"
            )
          : derived(
              (ok.length * 60) / windowS,
              `window derived as Σ output tokens / results_mean_output_throughput_token_per_s = ${windowS.toFixed(3)} s`
            ),
      canonical: null,
      codes: ["window"]
    })
  );
  return rows;
}

export function compareLlmperf(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests} = input;
  const agg = aggregatesOf(source);
  const point = source.point;
  const have = requests.length > 0;
  const chunks = Array.isArray(source.facts.chunksReceived) ? (source.facts.chunksReceived as (number | null)[]) : [];
  const rows: SourceComparisonRow[] = [];
  for (const metric of METRICS) {
    const m = MAPPING[metric];
    appendAll(
      rows,
      statRows(reportedStats(metric, agg, have), {
        point,
        definition: (s) => `${m.definition}; pandas R-7 quantiles, std ddof 1: ${s.label}`,
        unit: () => (metric.endsWith("_s") ? "s" : metric.includes("throughput") ? "tok/s" : "tokens"),
        recompute: (stat) =>
          have ? recomputeLlmperf(metric, stat, requests, chunks) : missing("no individual-responses file"),
        canonical: (stat, unit) => ({
          ref: canonicalRef(input.canonical, m.canonical, stat, unit),
          codes: [...m.codes, ...percentileCodes(stat)],
          why: m.why
        })
      })
    );
  }
  appendAll(rows, countRows(input, agg));
  return rows;
}
