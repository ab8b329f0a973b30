import {z} from "zod";

import {NsInt, TokenCount} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * InferScope v1 (Python) artifacts: `results/raw/<run-id>/` (manifest.json, config.resolved.yaml,
 * requests.jsonl, validation.json) and `results/processed/<run-id>/aggregate.json`. Monotonic ns clock.
 */
const NsN = NsInt.nullable().optional();
export const Row = z.looseObject({
  run_id: z.string().optional(),
  request_id: z.string().optional(),
  sequence: z.number().int().optional(),
  scheduled_at_ns: NsN,
  started_at_ns: NsN,
  first_content_at_ns: NsN,
  finished_at_ns: NsN,
  input_tokens: TokenCount.nullable().optional(),
  output_tokens: TokenCount.nullable().optional(),
  token_count_source: z.string().nullable().optional(),
  chunk_times_ns: z.array(NsInt).nullable().optional(),
  status: z.string(),
  http_status: z.number().int().min(100).max(999).nullable().optional(),
  finish_reason: z.string().nullable().optional(),
  error_code: z.string().nullable().optional(),
  phase: z.string().nullable().optional(),
  warmup: z.boolean().nullable().optional()
});
export type Row = z.infer<typeof Row>;

const Dist = z.looseObject({count: z.number().optional()}).nullable().optional();
export const Aggregate = z.looseObject({
  validation_status: z.string().nullable().optional(),
  measured_seconds: z.number().nullable(),
  requests: z.looseObject({scheduled: z.number().optional(), successful: z.number().optional()}).optional(),
  throughput: z.record(z.string(), z.number().nullable()).optional(),
  latency_ms: z.looseObject({ttft: Dist, tpot: Dist, e2e: Dist}).optional()
});

const isRow = (v: unknown) => isObject(v) && "scheduled_at_ns" in v && "started_at_ns" in v && "status" in v;
const isAggregate = (v: unknown) => isObject(v) && "measured_seconds" in v && ("latency_ms" in v || "throughput" in v);
const isManifest = (v: unknown) => isObject(v) && typeof v.run_id === "string" && "config_sha256" in v;
const isValidation = (v: unknown) => isObject(v) && Array.isArray(v.checks) && typeof v.status === "string";
const isConfig = (v: unknown) =>
  isObject(v) && isObject(v.workload) && isObject(v.target) && ("slo" in v || "generation" in v);

export function role(d: Doc): "requests" | "aggregate" | "manifest" | "validation" | "config" | null {
  if (d.kind === "jsonl" && d.lines.length > 0 && d.lines.every((l) => isRow(l.value))) return "requests";
  if (d.kind === "json" && isRow(d.value)) return "requests";
  if (d.kind === "json" && isAggregate(d.value)) return "aggregate";
  if (d.kind === "json" && isManifest(d.value)) return "manifest";
  if (d.kind === "json" && isValidation(d.value)) return "validation";
  if (d.kind === "yaml" && isConfig(d.value)) return "config";
  return null;
}

export function detectInferscopeV1(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => role(d) !== null).map((d) => d.name);
  return docs.some((d) => role(d) === "requests" || role(d) === "aggregate")
    ? {tool: "inferscope-v1", files, shape: "InferScope v1 artifact folder"}
    : null;
}

export const INFERSCOPE_V1_EXPECTED =
  "InferScope v1 artifacts: requests.jsonl (scheduled_at_ns, started_at_ns, first_content_at_ns, finished_at_ns, chunk_times_ns, status…) with aggregate.json, manifest.json, config.resolved.yaml, validation.json";
