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
  type SourceComparisonRow
} from "../shared/compare.ts";
import {numpyStat, parseStat, type Stat} from "../shared/stats.ts";
import {percentileCodes, statRows, type ReportedStat} from "../shared/statRows.ts";
import {defined, gapsOf, lastTokenOf, measuredOf, successes, sumOf, ttftOf} from "../shared/views.ts";
import {isObject} from "../shared/parse.ts";
import {aiperfAggregates} from "./format.ts";

/**
 * AIPerf parity: each aggregate statistic recomputed from the profile_export records under AIPerf's
 * definitions (numpy R-7 percentiles, population std), and its counts and rates over its own duration.
 */
type Family =
  | "ttft"
  | "ttst"
  | "request_latency"
  | "inter_token_latency"
  | "inter_chunk_latency"
  | "output_sequence_length"
  | "input_sequence_length"
  | "reasoning_token_count"
  | "output_token_throughput_per_user";

/** Per-request (or per-chunk) values of AIPerf's own metrics from the imported records, ms or tokens. */
export function aiperfValues(family: Family, ok: readonly DerivedRequest[]): number[] {
  switch (family) {
    case "ttft":
      return defined(ok.map(ttftOf));
    case "ttst":
      return defined(ok.map((r) => gapsOf(r)[0] ?? null));
    case "request_latency":
      return defined(ok.map(lastTokenOf));
    case "inter_chunk_latency":
      return ok.flatMap(gapsOf);
    case "output_sequence_length":
      return defined(ok.map((r) => r.out));
    case "input_sequence_length":
      return defined(ok.map((r) => r.in));
    case "reasoning_token_count":
      return defined(ok.map((r) => r.record.usage?.reasoningTokens ?? null));
    case "inter_token_latency":
    case "output_token_throughput_per_user":
      return defined(
        ok.map((r) => {
          const l = lastTokenOf(r);
          const t = ttftOf(r);
          if (l === null || t === null || r.out === null || r.out < 2) return null;
          const itl = (l - t) / (r.out - 1);
          return family === "inter_token_latency" ? itl : 1000 / itl;
        })
      );
  }
}

/**
 * AIPerf ≥ 0.10 (aggregate schema ≥ 1.1, whose blocks carry count and sum) keeps pooled per-chunk values in
 * a t-digest (compression 500) and reports its percentiles, not the exact ones; count, sum, mean, std, min
 * and max stay exact. Observed differences are ~2e-4 of the value; beyond 1 % it is still a finding.
 */
const TDIGEST_TOLERANCE = 0.01;
const TDIGEST_NOTE =
  "AIPerf takes pooled per-chunk percentiles from a t-digest (compression 500), an approximation of the exact value recomputed here";

/** AIPerf's statistic: numpy R-7 percentiles, population std (the Oct-2025 example's convention). */
export function recomputeAiperf(
  family: Family,
  stat: Stat,
  requests: readonly DerivedRequest[],
  sketched = false,
  phase: Phase = "measure"
) {
  const ok = successes(inPhase(requests, phase));
  const value = numpyStat(aiperfValues(family, ok), stat, 0);
  return sketched && typeof stat !== "string" ? approximate(value, TDIGEST_NOTE, TDIGEST_TOLERANCE) : exact(value);
}

/** Measured requests, or (AIPerf's warmup_metrics) the warmup ones. */
type Phase = "measure" | "warmup";
const inPhase = (rs: readonly DerivedRequest[], phase: Phase): DerivedRequest[] =>
  phase === "measure" ? measuredOf(rs) : rs.filter((r) => r.record.phase === "warmup");

/** AIPerf's definition of each metric and our canonical metric for it (null: we have none). */
const FAMILIES: Record<Family, {definition: string; canonical: string | null}> = {
  ttft: {definition: "first response with content (reasoning included) − request start", canonical: "ttft_ms"},
  ttst: {definition: "second response − first response", canonical: null},
  request_latency: {definition: "last response − request start", canonical: "e2e_ms"},
  inter_token_latency: {definition: "(request_latency − ttft)/(OSL − 1) per request", canonical: "itl_ms"},
  inter_chunk_latency: {definition: "gaps between responses, pooled (chunk-weighted)", canonical: "inter_chunk_ms"},
  output_sequence_length: {definition: "output tokens incl. reasoning (OSL)", canonical: "output_tokens"},
  input_sequence_length: {definition: "prompt tokens (ISL)", canonical: "input_tokens"},
  reasoning_token_count: {definition: "reasoning tokens", canonical: null},
  output_token_throughput_per_user: {
    definition: "1000 / inter_token_latency per request",
    canonical: "interactivity_tok_s"
  }
};

/** Metric names of both generations: the later one spells ttft and ttst out. */
const ALIASES: Readonly<Record<string, Family>> = {
  ...Object.fromEntries(Object.keys(FAMILIES).map((f) => [f, f as Family])),
  time_to_first_token: "ttft",
  time_to_second_token: "ttst"
};

const WHY = "numpy R-7 percentiles vs our nearest rank (with small-n withholding)";

/** Rows of every reported statistic (all but count) of every AIPerf metric we know. */
function statisticRows(
  input: ComparisonInput,
  agg: Record<string, Record<string, unknown>>,
  phase: Phase = "measure"
): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const prefix = phase === "warmup" ? "warmup_metrics." : "";
  // flat aggregates (schema ≥ 1.0) whose blocks carry count (≥ 1.1) come from the t-digest era; the
  // Oct-2025 `records{}` generation computed exact percentiles
  const raw = input.source.aggregates;
  const flat = isObject(raw) && !isObject(raw.records);
  const have = requests.length > 0;
  const rows: SourceComparisonRow[] = [];
  const names = Object.keys(agg).length
    ? Object.keys(agg)
    : have
      ? ["ttft", "request_latency", "inter_token_latency", "inter_chunk_latency"]
      : [];
  for (const name of names) {
    const family = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : null;
    if (!family) continue;
    const stats = agg[name] ?? {avg: null, p50: null, p99: null};
    const reported: ReportedStat[] = [];
    for (const [label, value] of Object.entries(stats)) {
      const stat = parseStat(label);
      if (stat === null || label === "count") continue;
      reported.push({
        metric: `${prefix}${name}.${label}`,
        label,
        stat,
        reported: typeof value === "number" ? value : null
      });
    }
    const {definition, canonical: id} = FAMILIES[family];
    const sketched = flat && "count" in stats;
    appendAll(
      rows,
      statRows(reported, {
        point: source.point,
        definition: () => `${definition}; numpy R-7, population std`,
        unit: () => (typeof stats.unit === "string" ? stats.unit : ""),
        recompute: (stat) =>
          have
            ? recomputeAiperf(family, stat, requests, family === "inter_chunk_latency" && sketched, phase)
            : missing("no profile_export.jsonl records"),
        canonical: (stat, unit) =>
          id === null || phase === "warmup"
            ? {ref: null, codes: [], why: ""}
            : {ref: canonicalRef(canonical, id, stat, unit), codes: percentileCodes(stat), why: WHY}
      })
    );
  }
  return rows;
}

/**
 * Counts, sums and rates over AIPerf's benchmark_duration (max response − min request timestamp). Over
 * 80 lines because most of it is the table of counts, one entry per number AIPerf reports.
 */
// eslint-disable-next-line max-lines-per-function -- the table of counts (see above)
function countRows(
  input: ComparisonInput,
  agg: Record<string, Record<string, unknown>>,
  phase: Phase = "measure"
): SourceComparisonRow[] {
  const {source, requests} = input;
  const canonical = phase === "warmup" ? null : input.canonical;
  const point = source.point;
  const have = requests.length > 0;
  const measured = inPhase(requests, phase);
  const ok = successes(measured);
  const pick = (k: string) => (typeof agg[k]?.avg === "number" ? (agg[k]!.avg as number) : null);
  const rows: SourceComparisonRow[] = [];
  const lastTok = ok.map((r) => r.tTokN).filter((t): t is number => t !== null);
  const firstDisp = ok.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const duration = lastTok.length && firstDisp.length ? (max(lastTok)! - min(firstDisp)!) / 1e9 : null;
  const sumOsl = ok.every((r) => r.out !== null) ? sumOf(ok.map((r) => r.out!)) : null;
  // AIPerf writes reasoning counts only for reasoning output: none anywhere (records or aggregate) means 0
  const noReasoning =
    ok.every((r) => r.record.usage?.reasoningTokens == null) &&
    !("total_reasoning_tokens" in agg) &&
    !("reasoning_token_count" in agg);
  const sumReasoning = ok.every((r) => r.record.usage?.reasoningTokens != null)
    ? sumOf(ok.map((r) => r.record.usage!.reasoningTokens!))
    : noReasoning
      ? 0
      : null;
  const counts: [string, string, number | null, string, ReturnType<typeof canonicalRun>, ReasonCode[], string?][] = [
    ["request_count", "successful requests", ok.length, "requests", null, []],
    ["error_request_count", "requests that ended with an error", measured.length - ok.length, "requests", null, []],
    [
      "benchmark_duration",
      "max response timestamp − min request timestamp, s",
      duration,
      "sec",
      canonicalRun(canonical, "window_s"),
      ["window"],
      "our window starts at the first measured request (failed ones included)"
    ],
    [
      "request_throughput",
      "successful requests / benchmark_duration",
      duration ? ok.length / duration : null,
      "requests/sec",
      canonicalRun(canonical, "request_throughput_rps"),
      ["window"],
      "measured over our window"
    ],
    [
      "output_token_throughput",
      "Σ OSL (reasoning included) / benchmark_duration",
      duration && sumOsl !== null ? sumOsl / duration : null,
      "tokens/sec",
      canonicalRun(canonical, "output_throughput_tok_s"),
      ["window"],
      "measured over our window"
    ],
    ["total_osl", "Σ output sequence length (answer + reasoning)", sumOsl, "tokens", null, []],
    ["total_reasoning_tokens", "Σ reasoning tokens", sumReasoning, "tokens", null, []],
    [
      "total_output_tokens",
      "Σ answer tokens (reasoning excluded)",
      sumOsl !== null && sumReasoning !== null ? sumOsl - sumReasoning : null,
      "tokens",
      null,
      ["token_source"]
    ],
    [
      "total_isl",
      "Σ input sequence length",
      ok.every((r) => r.in !== null) ? sumOf(ok.map((r) => r.in!)) : null,
      "tokens",
      null,
      []
    ]
  ];
  for (const [metric, definition, value, unit, ref, codes, why] of counts) {
    if (!(metric in agg) && (!have || phase === "warmup")) continue;
    rows.push(
      finishRow({
        point,
        metric: phase === "warmup" ? `warmup_metrics.${metric}` : metric,
        definition,
        unit,
        reported: pick(metric),
        recomputed: !have ? missing("no profile_export.jsonl records") : exact(value),
        canonical: ref,
        codes,
        why
      })
    );
  }
  return rows;
}

/**
 * Every reported number, and (schema ≥ 1.4) the warmup phase's own `warmup_metrics` recomputed over the
 * warmup records (AIPerf keeps them apart from the profiling metrics).
 */
export function compareAiperf(input: ComparisonInput): SourceComparisonRow[] {
  const agg = aiperfAggregates(input.source.aggregates);
  const rows = [...statisticRows(input, agg), ...countRows(input, agg)];
  const raw = isObject(input.source.aggregates) ? input.source.aggregates.warmup_metrics : null;
  if (isObject(raw)) {
    const warm = {...input, requests: input.warmup ?? []};
    const wagg = aiperfAggregates(raw);
    appendAll(rows, statisticRows(warm, wagg, "warmup"));
    appendAll(rows, countRows(warm, wagg, "warmup"));
  }
  return rows;
}
