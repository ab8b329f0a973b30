import {z} from "zod";

import {NumLike, TokenCount} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * LLMPerf (ray-project/llmperf `token_benchmark_ray.py`): `*_individual_responses.json` (a JSON array,
 * one object per request, no timestamps) and `*_summary.json` (flattened `results_<metric>_…` keys).
 */
/** A time, rate or token count of one request: never negative (the value is named when it is). */
const NonNeg = NumLike.pipe(
  z.number().min(0, {error: (i) => `expected a non-negative number, got ${String(i.input)}`})
);

/** A token count of one request: a whole number ≥ 0 a record can hold (a numeric string too, as pandas writes). */
const Tokens = NumLike.pipe(TokenCount);

export const Individual = z.looseObject({
  error_code: z.union([z.number(), z.string()]).nullable().optional(),
  error_msg: z.string().nullable().optional(),
  inter_token_latency_s: NonNeg.nullable().optional(),
  ttft_s: NonNeg.nullable().optional(),
  end_to_end_latency_s: NonNeg.nullable().optional(),
  request_output_throughput_token_per_s: NonNeg.nullable().optional(),
  number_total_tokens: Tokens.nullable().optional(),
  number_output_tokens: Tokens.nullable().optional(),
  number_input_tokens: Tokens.nullable().optional()
});
export type Individual = z.infer<typeof Individual>;

export const Summary = z.looseObject({
  version: z.string().optional(),
  name: z.string().optional(),
  model: z.string().optional(),
  num_concurrent_requests: NumLike.optional(),
  timestamp: NumLike.optional(),
  results_num_completed_requests: NumLike.optional(),
  results_mean_output_throughput_token_per_s: NumLike.optional()
});

/** A summary value as a number: pandas writes some as numeric strings ("550"); anything else is null. */
export const summaryNumber = (v: unknown): number | null => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

export const isIndividual = (v: unknown): v is unknown[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) && ("ttft_s" in x || "end_to_end_latency_s" in x));
export const isSummary = (v: unknown): boolean =>
  isObject(v) && Object.keys(v).some((k) => /^results_(ttft_s|end_to_end_latency_s|inter_token_latency_s)_/.test(k));

/** Per-request metrics and the summary key stem of each. */
export const METRICS = [
  "ttft_s",
  "end_to_end_latency_s",
  "inter_token_latency_s",
  "request_output_throughput_token_per_s",
  "number_input_tokens",
  "number_output_tokens"
] as const;
export type Metric = (typeof METRICS)[number];

export function detectLlmperf(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter((d) => d.kind === "json" && (isIndividual(d.value) || isSummary(d.value)))
    .map((d) => d.name);
  return files.length ? {tool: "llmperf", files, shape: "LLMPerf individual responses and/or summary"} : null;
}

export const LLMPERF_EXPECTED =
  "LLMPerf: *_individual_responses.json (a JSON array of objects with ttft_s, end_to_end_latency_s, inter_token_latency_s, number_output_tokens) and/or *_summary.json (results_ttft_s_mean, … keys)";
