import {z} from "zod";

import type {RequestRecord, SourceRequestCounts} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {
  isoFromEpochS,
  loadPoint,
  numberRecords,
  requestCounts,
  requestRecord,
  sToNs,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "../shared/build.ts";
import {requestTimeError} from "../shared/numeric.ts";
import {jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {Individual, isIndividual, isSummary, Summary, summaryNumber} from "./format.ts";
import {oneRunErrors, pairErrors} from "./pair.ts";

type SummaryFile = {file: string; raw: Record<string, unknown>; s: z.infer<typeof Summary>};

/**
 * The run's files, each validated: at most one individual-responses file and one summary, and a summary only
 * with the responses it was computed from (pair.ts). Every error of every file together.
 */
function readLlmperf(
  docs: readonly Doc[]
): Result<{individual: {file: string; rows: Individual[]} | null; summary: SummaryFile | null}> {
  const errors: PeerError[] = [];
  const individuals: {file: string; rows: Individual[]}[] = [];
  const summaries: SummaryFile[] = [];
  for (const doc of docs) {
    const v = doc.kind === "json" ? doc.value : undefined;
    if (isIndividual(v)) {
      const r = validate(z.array(Individual), v, doc.name);
      const times = r.ok ? rowTimeErrors(doc.name, r.value) : [];
      if (r.ok && times.length === 0) individuals.push({file: doc.name, rows: r.value});
      else appendAll(errors, r.ok ? times : r.errors);
    } else if (isSummary(v)) {
      const r = validate(Summary, v, doc.name);
      if (r.ok) summaries.push({file: doc.name, raw: v as Record<string, unknown>, s: r.value});
      else appendAll(errors, r.errors);
    } else
      errors.push({
        file: doc.name,
        path: "$",
        expected:
          "an LLMPerf individual-responses array (objects with ttft_s, end_to_end_latency_s, …) or a summary object (results_ttft_s_… keys)"
      });
  }
  const names = (xs: readonly {file: string}[]) => xs.map((x) => x.file);
  appendAll(errors, oneRunErrors("individual-responses", names(individuals)));
  appendAll(errors, oneRunErrors("summary", names(summaries)));
  const individual = individuals.length === 1 ? individuals[0]! : null;
  const summary = summaries.length === 1 ? summaries[0]! : null;
  if (individual && summary) appendAll(errors, pairErrors(individual, summary));
  return errors.length ? {ok: false, errors} : {ok: true, value: {individual, summary}};
}

/**
 * The summary's request counts: LLMPerf counts a row with an error code as an error and every other as completed
 * (pair.ts); a request started but never returned is incomplete.
 */
function summaryCounts(raw: Record<string, unknown>): SourceRequestCounts {
  const started = summaryNumber(raw.results_num_requests_started);
  const completed = summaryNumber(raw.results_num_completed_requests);
  const failed = summaryNumber(raw.results_number_errors);
  const incomplete = started !== null && completed !== null && failed !== null ? started - completed - failed : null;
  return requestCounts(completed, failed, incomplete);
}

/**
 * Maps one LLMPerf run, its individual responses (no timestamps: per-request clocks) and/or its summary, to
 * one imported run. Several runs, or a summary of another run, are refused (pair.ts): never one dropped.
 */
export function importLlmperf(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readLlmperf(docs);
  if (!read.ok) return read;
  const {individual, summary} = read.value;
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
            ...(summary ? {requestCounts: summaryCounts(summary.raw)} : {}),
            individualFile: individual?.file ?? null,
            summaryFile: summary?.file ?? null,
            requests: requests.length,
            // LLMPerf's per-request throughput divides what it counted by the latency: SSE chunks received
            // before ray-project/llmperf afd137a (2024-04), its tokenizer's output tokens since (the audit's
            // 2024-09 and 2025-04 files: throughput × latency = number_output_tokens for 178 of 178 requests).
            // The count is not stored but is exactly throughput × latency (an integer).
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

/**
 * Why a row is not a success. LLMPerf writes a null error_code for a request that succeeded; one whose timing is
 * missing anyway cannot be measured, and says which field is absent rather than "error code null".
 */
function failureMessage(row: Individual): string {
  if (row.error_code != null) return (row.error_msg || `error code ${String(row.error_code)}`).slice(0, 4096);
  const absent = (["ttft_s", "end_to_end_latency_s"] as const).filter((k) => row[k] == null);
  return `no error code, but no ${absent.join(" and ")} recorded: the request's timing is unknown`;
}

/**
 * The times a row's record holds, in ns from the request's own start: the first token (ttft_s), the last token
 * (inter_token_latency_s × number_output_tokens, LLMPerf's Σ time-to-next-token, kept only after the first) and
 * the end (end_to_end_latency_s). Null for a row that is not a success (its record holds no time).
 */
function rowTimes(row: Individual): {first: number; last: number | null; lastS: number | null; end: number} | null {
  if (row.error_code != null || row.ttft_s == null || row.end_to_end_latency_s == null) return null;
  const out = row.number_output_tokens ?? null;
  const first = sToNs(row.ttft_s);
  const lastS = row.inter_token_latency_s != null && out !== null ? row.inter_token_latency_s * out : null;
  const last = lastS === null ? null : sToNs(lastS);
  return {first, last: last !== null && last > first ? last : null, lastS, end: sToNs(row.end_to_end_latency_s)};
}

/** Each successful row's times checked by the rule every importer's times obey (shared/numeric.ts). */
function rowTimeErrors(file: string, rows: readonly Individual[]): PeerError[] {
  const errors: PeerError[] = [];
  rows.forEach((row, i) => {
    const t = rowTimes(row);
    if (t === null) return;
    const e = requestTimeError(file, "s", "the request's start", [
      {path: `$[${i}].ttft_s`, what: "a time to first token", value: row.ttft_s!, ns: t.first},
      t.last === null
        ? null
        : {
            path: `$[${i}].inter_token_latency_s`,
            what: "the last token (inter_token_latency_s × number_output_tokens)",
            value: t.lastS!,
            ns: t.last
          },
      {path: `$[${i}].end_to_end_latency_s`, what: "an end-to-end latency", value: row.end_to_end_latency_s!, ns: t.end}
    ]);
    if (e) errors.push(e);
  });
  return errors;
}

function mapRow(row: Individual, i: number, point: string): RequestRecord {
  const t = rowTimes(row);
  const ok = t !== null;
  const out = row.number_output_tokens ?? null;
  const events = t === null ? [] : t.last !== null ? [tokenEvent(t.first), tokenEvent(t.last)] : [tokenEvent(t.first)];
  return requestRecord({
    id: `r${i}`,
    point,
    index: i,
    tDispNs: 0,
    tEndNs: t === null ? null : t.end,
    events,
    eventCoverage: "first_last",
    httpStatus: ok
      ? 200
      : typeof row.error_code === "number" && row.error_code >= 100 && row.error_code < 600
        ? row.error_code
        : null,
    transportError: ok || typeof row.error_code === "number" ? null : "other",
    errorMessage: ok ? null : failureMessage(row),
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
