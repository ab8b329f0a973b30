import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {RequestRecord} from "../schema/records.ts";
import {
  isoFromEpochS,
  loadPoint,
  numberRecords,
  requestRecord,
  sToNs,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "./build.ts";
import {
  canonicalRef,
  derived,
  exact,
  finishRow,
  missing,
  type CanonicalRef,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow
} from "./compare.ts";
import {NumLike} from "./numeric.ts";
import {isObject, jsonSafe, validate} from "./parse.ts";
import {numpyStat, parseStat, type Stat} from "./stats.ts";
import type {Claim, Doc, ImportedRun, PeerError, PeerFormat, Result} from "./types.ts";
import {defined, endOf, lastTokenOf, successes, sumOf, ttftOf} from "./views.ts";
import {appendAll} from "../util/append.ts";

/**
 * LLMPerf (ray-project/llmperf `token_benchmark_ray.py`): `*_individual_responses.json` (a JSON array,
 * one object per request, no timestamps) and `*_summary.json` (flattened `results_<metric>_…` keys).
 */
const Individual = z.looseObject({
  error_code: z.union([z.number(), z.string()]).nullable().optional(),
  error_msg: z.string().nullable().optional(),
  inter_token_latency_s: NumLike.nullable().optional(),
  ttft_s: NumLike.nullable().optional(),
  end_to_end_latency_s: NumLike.nullable().optional(),
  request_output_throughput_token_per_s: NumLike.nullable().optional(),
  number_total_tokens: NumLike.nullable().optional(),
  number_output_tokens: NumLike.nullable().optional(),
  number_input_tokens: NumLike.nullable().optional()
});
type Individual = z.infer<typeof Individual>;

const Summary = z.looseObject({
  version: z.string().optional(),
  name: z.string().optional(),
  model: z.string().optional(),
  num_concurrent_requests: NumLike.optional(),
  timestamp: NumLike.optional(),
  results_num_completed_requests: NumLike.optional(),
  results_mean_output_throughput_token_per_s: NumLike.optional()
});

const isIndividual = (v: unknown): v is unknown[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) && ("ttft_s" in x || "end_to_end_latency_s" in x));
const isSummary = (v: unknown): boolean =>
  isObject(v) && Object.keys(v).some((k) => /^results_(ttft_s|end_to_end_latency_s|inter_token_latency_s)_/.test(k));

/** Per-request metrics and the summary key stem of each. */
const METRICS = [
  "ttft_s",
  "end_to_end_latency_s",
  "inter_token_latency_s",
  "request_output_throughput_token_per_s",
  "number_input_tokens",
  "number_output_tokens"
] as const;
type Metric = (typeof METRICS)[number];

function detect(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter((d) => d.kind === "json" && (isIndividual(d.value) || isSummary(d.value)))
    .map((d) => d.name);
  return files.length ? {tool: "llmperf", files, shape: "LLMPerf individual responses and/or summary"} : null;
}

function importLlmperf(docs: readonly Doc[]): Result<ImportedRun> {
  const errors: PeerError[] = [];
  let individual: {file: string; rows: Individual[]} | null = null;
  let summary: {file: string; raw: Record<string, unknown>; s: z.infer<typeof Summary>} | null = null;
  for (const doc of docs) {
    const v = doc.kind === "json" ? doc.value : undefined;
    if (isIndividual(v)) {
      const r = validate(z.array(Individual), v, doc.name);
      if (r.ok) individual = {file: doc.name, rows: r.value};
      else appendAll(errors, r.errors);
    } else if (isSummary(v)) {
      const r = validate(Summary, v, doc.name);
      if (r.ok) summary = {file: doc.name, raw: v as Record<string, unknown>, s: r.value};
      else appendAll(errors, r.errors);
    } else
      errors.push({
        file: doc.name,
        path: "$",
        expected:
          "an LLMPerf individual-responses array (objects with ttft_s, end_to_end_latency_s, …) or a summary object (results_ttft_s_… keys)"
      });
  }
  if (errors.length) return {ok: false, errors};
  const concurrency = summary?.s.num_concurrent_requests;
  const requestsN = individual?.rows.length ?? null;
  const point =
    concurrency === undefined
      ? unknownPoint({requests: requestsN})
      : loadPoint("concurrency", concurrency, {requests: requestsN});
  const requests: RequestRecord[] = (individual?.rows ?? []).map((row, i) => mapRow(row, i, point.id));
  const timestamp = summary?.s.timestamp ?? null;
  const notes = [
    "LLMPerf records no timestamps: request times are relative to each request's own send time",
    "the last token time is derived as inter_token_latency_s × number_output_tokens (LLMPerf's Σ time-to-next-token, which starts with TTFT)",
    "token counts come from LLMPerf's fixed Llama tokenizer, whatever the model (client_tokenizer, foreign)"
  ];
  if (concurrency === undefined) notes.push("no summary file: the concurrency is unknown");
  return {
    ok: true,
    value: {
      tool: "llmperf",
      toolVersion: summary?.s.version ?? null,
      model: summary?.s.model ?? null,
      startedAt: null,
      finishedAt: isoFromEpochS(timestamp),
      clock: "request",
      originNs: "0",
      loadPoints: [point],
      requests: numberRecords(requests),
      sources: numberRecords([
        sourceRecord({
          tool: "llmperf",
          toolVersion: summary?.s.version ?? null,
          file: summary?.file ?? individual!.file,
          point: point.id,
          aggregates: summary ? jsonSafe(summary.raw) : null,
          facts: {
            individualFile: individual?.file ?? null,
            summaryFile: summary?.file ?? null,
            requests: requests.length,
            // LLMPerf's per-request throughput counts SSE chunks received (tokens_received), not tokens;
            // the count is not stored but is exactly throughput × latency (an integer).
            chunksReceived: (individual?.rows ?? []).map((r) =>
              r.request_output_throughput_token_per_s != null && r.end_to_end_latency_s != null
                ? Math.round(r.request_output_throughput_token_per_s * r.end_to_end_latency_s)
                : null
            )
          }
        })
      ]),
      workload: {},
      environment: {engine: typeof summary?.raw.framework === "string" ? summary.raw.framework : undefined, extra: {}},
      labels: {imported_from: "llmperf", ...(summary?.s.name ? {source_name: summary.s.name} : {})},
      notes,
      status: "complete",
      statusReason: null
    }
  };
}

function mapRow(row: Individual, i: number, point: string): RequestRecord {
  const ok = row.error_code == null && row.ttft_s != null && row.end_to_end_latency_s != null;
  const out = row.number_output_tokens ?? null;
  const first = ok ? sToNs(row.ttft_s!) : null;
  const lastS = ok && row.inter_token_latency_s != null && out !== null ? row.inter_token_latency_s * out : null;
  const last = lastS === null ? null : sToNs(lastS);
  const events =
    first === null ? [] : last !== null && last > first ? [tokenEvent(first), tokenEvent(last)] : [tokenEvent(first)];
  return requestRecord({
    id: `r${i}`,
    point,
    index: i,
    tDispNs: 0,
    tEndNs: ok ? sToNs(row.end_to_end_latency_s!) : null,
    events,
    eventCoverage: "first_last",
    httpStatus: ok
      ? 200
      : typeof row.error_code === "number" && row.error_code >= 100 && row.error_code < 600
        ? row.error_code
        : null,
    transportError: ok || typeof row.error_code === "number" ? null : "other",
    errorMessage: ok ? null : (row.error_msg || `error code ${String(row.error_code)}`).slice(0, 4096),
    usage: {
      promptTokens: row.number_input_tokens ?? null,
      completionTokens: ok ? out : null,
      reasoningTokens: null,
      cachedTokens: null
    },
    usageSource: out === null ? "none" : "client_tokenizer",
    nullReasons: {tSchedNs: "LLMPerf records no send or schedule times"}
  });
}

// ---------------------------------------------------------------------------------------------------

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

const DEF: Record<Metric, string> = {
  ttft_s: "first chunk with non-empty delta.content minus send time, s",
  end_to_end_latency_s: "send time to the end of the stream loop, s",
  inter_token_latency_s: "Σ time-to-next-token (starting with TTFT) / output tokens, s — includes TTFT",
  request_output_throughput_token_per_s: "SSE chunks received (tokens_received, not tokens) / end-to-end latency",
  number_input_tokens: "prompt tokens (LLMPerf's Llama tokenizer)",
  number_output_tokens: "output tokens (LLMPerf's Llama tokenizer)"
};

function canonicalFor(
  input: ComparisonInput,
  metric: Metric,
  stat: Stat
): {ref: CanonicalRef | null; codes: ReasonCode[]; why: string} {
  const v = input.canonical;
  const pm: ReasonCode[] = typeof stat === "object" ? ["percentile_method"] : [];
  switch (metric) {
    case "ttft_s":
      return {
        ref: canonicalRef(v, "ttft_ms", stat, 1e-3),
        codes: pm,
        why: "percentiles R-7 vs nearest rank; std ddof 1 vs 0"
      };
    case "end_to_end_latency_s":
      return {
        ref: canonicalRef(v, "e2e_ms", stat, 1e-3),
        codes: ["end_of_request", ...pm],
        why: "our e2e_ms ends at the last token; theirs after the stream loop ended"
      };
    case "inter_token_latency_s":
      return {
        ref: canonicalRef(v, "tpot_ms", stat, 1e-3),
        codes: ["definition", ...pm],
        why: "their ITL includes TTFT (≈ e2e/out); our tpot_ms = (e2e − ttft)/(out − 1) excludes it"
      };
    case "request_output_throughput_token_per_s":
      return {
        ref: canonicalRef(v, "e2e_output_tok_s", stat),
        codes: ["definition", "end_of_request", ...pm],
        why: "ours divides output tokens by the time to the last token; theirs SSE chunks by the time to the end of the stream"
      };
    case "number_input_tokens":
      return {ref: canonicalRef(v, "input_tokens", stat), codes: pm, why: "percentile method"};
    case "number_output_tokens":
      return {ref: canonicalRef(v, "output_tokens", stat), codes: pm, why: "percentile method"};
  }
}

const num = (v: unknown): number | null => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

export function compareLlmperf(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests} = input;
  const agg = (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;
  const point = source.point;
  const have = requests.length > 0;
  const ok = successes(requests);
  const chunks = Array.isArray(source.facts.chunksReceived) ? (source.facts.chunksReceived as (number | null)[]) : [];
  const rows: SourceComparisonRow[] = [];
  for (const metric of METRICS) {
    const keys = Object.keys(agg).filter((k) => k.startsWith(`results_${metric}_`));
    const labels = keys.length
      ? keys.map((k) => k.slice(`results_${metric}_`.length).replace(/^quantiles_/, ""))
      : have
        ? ["mean", "p50", "p99"]
        : [];
    for (const label of labels) {
      const stat = parseStat(label);
      if (stat === null) continue;
      const key = keys.length
        ? `results_${metric}_${typeof stat === "object" ? "quantiles_" : ""}${label}`
        : `results_${metric}_${label}`;
      const c = canonicalFor(input, metric, stat);
      rows.push(
        finishRow({
          point,
          metric: key,
          definition: `${DEF[metric]}; pandas R-7 quantiles, std ddof 1: ${label}`,
          unit: metric.endsWith("_s") ? "s" : metric.includes("throughput") ? "tok/s" : "tokens",
          reported: num(agg[key]),
          recomputed: have ? recomputeLlmperf(metric, stat, requests, chunks) : missing("no individual-responses file"),
          canonical: c.ref,
          codes: c.codes,
          why: c.why
        })
      );
    }
  }
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
  const sumOut = ok.every((r) => r.out !== null) ? sumOf(ok.map((r) => r.out!)) : null;
  const windowS = thr && sumOut !== null ? sumOut / thr : null;
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
          ? missing("window not derivable")
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

export const llmperf: PeerFormat = {
  tool: "llmperf",
  expected:
    "LLMPerf: *_individual_responses.json (a JSON array of objects with ttft_s, end_to_end_latency_s, inter_token_latency_s, number_output_tokens) and/or *_summary.json (results_ttft_s_mean, … keys)",
  detect,
  import: importLlmperf
};
