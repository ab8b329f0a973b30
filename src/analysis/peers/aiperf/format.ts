import {z} from "zod";

import {jsonPath} from "../../util/zodIssues.ts";
import {shownValue} from "../shared/jsonScan.ts";
import {NsInt, requestTimeError, statProblem, timeToNs, type RequestTime} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc, PeerError} from "../shared/types.ts";

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

/** Where a record's start is read: request_start_ns, else timestamp_ns (Oct 2025), else min_request_timestamp. */
export function startOf(rec: Rec): {key: string; value: bigint | number} | null {
  const md = rec.metadata;
  if (md.request_start_ns != null) return {key: ".metadata.request_start_ns", value: md.request_start_ns};
  if (md.timestamp_ns != null) return {key: ".metadata.timestamp_ns", value: md.timestamp_ns};
  const ms = tag(rec.metrics, "min_request_ts");
  return ms && (typeof ms.value === "bigint" || typeof ms.value === "number")
    ? {key: jsonPath(["metrics", tagName(rec.metrics, "min_request_ts"), "value"], ""), value: ms.value}
    : null;
}

/** The tag's name as the record spells it (the first alias present), for paths. */
const tagName = (m: Rec["metrics"], t: Tag): string => TAGS[t].find((name) => m?.[name]) ?? TAGS[t][0];

/** What is wrong with a tag a record's request is built from (a time or a count), or null. */
function tagProblem(m: Rec["metrics"], t: Tag, kind: "time" | "times" | "count"): string | null {
  const x = tag(m, t);
  if (x === null || x.value === null) return null;
  if (kind !== "count" && timeToNs(0, x.unit || "ms") === null)
    return `a time unit (ns, us, ms or s) in .unit, got ${shownValue(x.unit)}`;
  const values = kind === "times" && Array.isArray(x.value) ? x.value : [x.value];
  if (kind === "times" && !Array.isArray(x.value)) return `an array of chunk gaps, got ${shownValue(x.value)}`;
  for (const v of values) {
    if (typeof v !== "number") return `a number, got ${shownValue(v)}`;
    if (kind === "count" && !(Number.isSafeInteger(v) && v >= 0))
      return `a token count (a whole number from 0 to 2^53 − 1), got ${v}`;
    if (v < 0) return `a non-negative number, got ${v}`;
  }
  return null;
}

/**
 * The first problem of one record a request is built from (import.ts mapRecord), located at its line: a time or
 * count metric of the wrong type or sign, then its times as the record holds them (credit issued where open-loop,
 * start, acknowledged, first token, last chunk) checked by the rule every importer's times obey (shared/numeric.ts).
 */
export function recordError(
  file: string,
  line: number,
  rec: Rec,
  at: {origin: bigint; openLoop: boolean; start: {key: string; value: bigint | number}}
): PeerError | null {
  const m = rec.metrics;
  const where = `line ${line} $`;
  const tags: [Tag, "time" | "times" | "count"][] = [
    ["ttft", "time"],
    ["ttfo", "time"],
    ["request_latency", "time"],
    ["icl", "times"],
    ["isl", "count"],
    ["osl", "count"],
    ["reasoning", "count"]
  ];
  for (const [t, kind] of tags) {
    const problem = tagProblem(m, t, kind);
    if (problem) return {file, path: `${where}${jsonPath(["metrics", tagName(m, t), "value"], "")}`, expected: problem};
  }
  const md = rec.metadata;
  const disp = Number(BigInt(at.start.value) - at.origin);
  const meta = (key: string, what: string, v: bigint | number | null | undefined): RequestTime | null =>
    v == null ? null : {path: `${where}.metadata.${key}`, what, value: v, ns: Number(BigInt(v) - at.origin)};
  const metric = (t: Tag, what: string, ns: number | null, value: unknown): RequestTime | null =>
    ns === null
      ? null
      : {
          path: `${where}${jsonPath(["metrics", tagName(m, t), "value"], "")}`,
          what,
          value: value as number,
          ns,
          unit: tag(m, t)!.unit || "ms"
        };
  const ttft = rec.error == null ? tagNs(m, "ttft") : null;
  const icl = tag(m, "icl");
  const gaps = ttft !== null && icl && Array.isArray(icl.value) ? (icl.value as number[]) : null;
  const latency = ttft !== null && gaps === null ? tagNs(m, "request_latency") : null;
  const start = {path: `${where}${at.start.key}`, what: "a request start", value: at.start.value, ns: disp};
  const received = [
    ttft === null ? null : metric("ttft", "a time to first token", disp + ttft, tag(m, "ttft")!.value),
    gaps === null
      ? null
      : metric(
          "icl",
          "the last chunk (ttft + Σ inter-chunk latencies)",
          gaps.reduce((t, g) => t + timeToNs(g, icl!.unit || "ms")!, disp + ttft!),
          gaps.reduce((t, g) => t + g, tag(m, "ttft")!.value as number)
        ),
    latency !== null && latency > ttft!
      ? metric("request_latency", "a request latency", disp + latency, tag(m, "request_latency")!.value)
      : null
  ];
  const origin = "the earliest request start in the file";
  return (
    requestTimeError(file, "ns", origin, [
      at.openLoop ? meta("credit_issued_ns", "a credit issue time", md.credit_issued_ns) : null,
      start,
      meta("request_ack_ns", "a request acknowledgement", md.request_ack_ns),
      ...received
    ]) ??
    // the request's end (the stream's close, or its error's time) comes after its start and after every response
    // it received; an acknowledgement is not ordered against it (a request cancelled early may carry one)
    requestTimeError(file, "ns", origin, [
      start,
      ...received,
      meta("request_end_ns", "a request end", md.request_end_ns)
    ])
  );
}

/** The statistics of an aggregate's metric object: avg, min, max, std, count and the percentiles. */
const STAT_KEY = /^(avg|min|max|std|count|p\d+(\.\d+)?)$/;

/**
 * Every statistic of every metric in an aggregates file (`records.<tag>.<stat>` in Oct 2025, `<tag>.<stat>` later)
 * is a number ≥ 0 or null: a string, a boolean or a negative value is refused with its path and value, as
 * vLLM's statistics are, never read as "not reported" or kept as if measured.
 */
export function aggregateErrors(file: string, v: unknown): PeerError[] {
  if (!isObject(v)) return [];
  const nested = isObject(v.records);
  const src = nested ? (v.records as Record<string, unknown>) : v;
  const errors: PeerError[] = [];
  for (const [t, x] of Object.entries(src)) {
    if (!isObject(x) || !("avg" in x)) continue;
    for (const [k, stat] of Object.entries(x)) {
      const problem = STAT_KEY.test(k) ? statProblem(stat) : null;
      if (problem) errors.push({file, path: jsonPath(nested ? ["records", t, k] : [t, k]), expected: problem});
    }
  }
  return errors;
}

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
