import {z} from "zod";

import {NsInt, timeToNs} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * AIPerf `profile_export.jsonl` (one record per request: metadata, metrics {tag: {value, unit}}, error)
 * and `profile_export_aiperf.json` (aggregates), in both generations: Oct 2025 (metadata.timestamp_ns,
 * credit_phase, tags ttft/ttst, aggregates under `records`) and later (request_start_ns/request_end_ns,
 * benchmark_phase, tags time_to_first_token/…, aggregates at the top level).
 */

/** Tag aliases per generation: our key → every name a generation uses. */
const TAGS = {
  ttft: ["ttft", "time_to_first_token"],
  ttst: ["ttst", "time_to_second_token"],
  ttfo: ["ttfo", "time_to_first_output_token"],
  request_latency: ["request_latency"],
  itl: ["inter_token_latency"],
  icl: ["inter_chunk_latency"],
  isl: ["input_sequence_length"],
  osl: ["output_sequence_length"],
  output_tokens: ["output_token_count"],
  reasoning: ["reasoning_token_count"],
  min_request_ts: ["min_request_timestamp"],
  max_response_ts: ["max_response_timestamp"],
  per_user: ["output_token_throughput_per_user"]
} as const;
export type Tag = keyof typeof TAGS;

const MetricValue = z.looseObject({value: z.unknown(), unit: z.string().optional()});
export const Rec = z.looseObject({
  metadata: z.looseObject({
    x_request_id: z.string().nullable().optional(),
    session_num: z.number().nullable().optional(),
    timestamp_ns: NsInt.nullable().optional(),
    request_start_ns: NsInt.nullable().optional(),
    request_end_ns: NsInt.nullable().optional(),
    credit_phase: z.string().nullable().optional(),
    benchmark_phase: z.string().nullable().optional(),
    was_cancelled: z.boolean().nullable().optional(),
    credit_issued_ns: NsInt.nullable().optional(),
    request_ack_ns: NsInt.nullable().optional(),
    turn_index: z.number().int().nullable().optional(),
    conversation_id: z.string().nullable().optional(),
    agent_depth: z.number().int().nullable().optional()
  }),
  metrics: z.record(z.string(), MetricValue).nullable(),
  error: z
    .looseObject({
      code: z.number().nullable().optional(),
      type: z.string().nullable().optional(),
      message: z.string().nullable().optional()
    })
    .nullable()
    .optional()
});
export type Rec = z.infer<typeof Rec>;

/** Metadata keys that every generation's records carry at least one of (AIPerf omits null fields since 0.8). */
const RECORD_KEYS = [
  "request_start_ns",
  "timestamp_ns",
  "session_num",
  "benchmark_phase",
  "credit_phase",
  "x_request_id"
];
export const isAiperfRecord = (v: unknown): boolean =>
  isObject(v) &&
  isObject(v.metadata) &&
  (v.metrics === null || isObject(v.metrics) || (!("metrics" in v) && isObject(v.error))) &&
  ("error" in v || RECORD_KEYS.some((k) => k in (v.metadata as Record<string, unknown>)));
/** Oct-2025 aggregates sit under `records`; later ones at the top level beside AIPerf's own sections. */
export const isAiperfAggregate = (v: unknown): boolean =>
  isObject(v) &&
  ((isObject(v.records) && Object.values(v.records).some((x) => isObject(x) && "avg" in x)) ||
    (("schema_version" in v ||
      Array.isArray(v.error_summary) ||
      (isObject(v.input_config) && isObject(v.input_config.loadgen))) &&
      Object.values(v).some((x) => isObject(x) && "unit" in x && "avg" in x)));
export function detectAiperf(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter(
      (d) =>
        (d.kind === "jsonl" && d.lines.length > 0 && d.lines.every((l) => isAiperfRecord(l.value))) ||
        (d.kind === "json" && (isAiperfAggregate(d.value) || isAiperfRecord(d.value)))
    )
    .map((d) => d.name);
  return files.length ? {tool: "aiperf", files, shape: "AIPerf profile export"} : null;
}

/** The tag's {value, unit} under any of its names. */
export function tag(
  m: Record<string, {value: unknown; unit?: string}> | null,
  t: Tag
): {value: unknown; unit: string} | null {
  if (!m) return null;
  for (const name of TAGS[t]) if (m[name]) return {value: m[name].value, unit: m[name].unit ?? ""};
  return null;
}
export const tagNum = (m: Rec["metrics"], t: Tag): number | null => {
  const x = tag(m, t);
  return x && typeof x.value === "number" ? x.value : x && typeof x.value === "bigint" ? Number(x.value) : null;
};
export const tagNs = (m: Rec["metrics"], t: Tag): number | null => {
  const x = tag(m, t);
  return x && typeof x.value === "number" ? timeToNs(x.value, x.unit || "ms") : null;
};

/** Aggregates of both generations normalised to tag → stats object. */
export function aiperfAggregates(v: unknown): Record<string, Record<string, unknown>> {
  if (!isObject(v)) return {};
  const src = isObject(v.records) ? v.records : v;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, x] of Object.entries(src)) if (isObject(x) && "avg" in x) out[k] = x;
  return out;
}

export const AIPERF_EXPECTED =
  "AIPerf: profile_export.jsonl (one JSON record per line with metadata, metrics {tag: {value, unit}} and error) and/or profile_export_aiperf.json (aggregates)";
