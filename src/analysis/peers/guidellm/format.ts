import {z} from "zod";

import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * GuideLLM `benchmarks.json`. Per-request timings are wall-clock epoch seconds: `info.timings`
 * (request_start, first_token_iteration, last_token_iteration, request_end, targeted_start; 0.5+) or
 * the older top-level start_time/first_token_time/last_token_time/end_time.
 */
const n = z.number().nullable().optional();
const Timings = z.looseObject({
  targeted_start: n,
  request_start: n,
  first_token_iteration: n,
  last_token_iteration: n,
  request_end: n,
  token_iterations: n,
  request_iterations: n
});
export const Req = z.looseObject({
  request_id: z.string().nullable().optional(),
  request_args: z.unknown().optional(),
  output: z.string().nullable().optional(),
  prompt_tokens: z.number().int().nullable().optional(),
  output_tokens: z.number().int().nullable().optional(),
  info: z
    .looseObject({timings: Timings.optional(), status: z.string().nullable().optional(), error: z.unknown().optional()})
    .optional(),
  start_time: n,
  end_time: n,
  first_token_time: n,
  last_token_time: n,
  error: z.unknown().optional()
});
export type Req = z.infer<typeof Req>;
// Requests are validated one by one (importGuidellm): zod gathers an array's issues with push(...issues),
// which overflows the stack when a benchmark has more than ~120k of them.
const ReqList = z.array(z.unknown()).nullable().optional();
const Benchmark = z.looseObject({
  type_: z.string().optional(),
  config: z
    .looseObject({
      strategy: z
        .looseObject({
          type_: z.string().optional(),
          streams: z.number().nullable().optional(),
          max_concurrency: z.number().nullable().optional(),
          worker_count: z.number().nullable().optional(),
          rate: z.number().nullable().optional()
        })
        .optional(),
      prefer_response_metrics: z.boolean().optional()
    })
    .optional(),
  metrics: z.record(z.string(), z.unknown(), {error: "expected a metrics object"}),
  requests: z.looseObject({successful: z.array(z.unknown()), errored: ReqList, incomplete: ReqList}),
  start_time: n,
  end_time: n,
  duration: n
});
export type Benchmark = z.infer<typeof Benchmark>;
export const Report = z.looseObject({
  metadata: z.looseObject({guidellm_version: z.string().optional(), version: z.unknown().optional()}).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  benchmarks: z.array(Benchmark).min(1, "expected at least one benchmark")
});

export const isGuidellm = (v: unknown): boolean =>
  isObject(v) &&
  Array.isArray(v.benchmarks) &&
  v.benchmarks.some(
    (b) => isObject(b) && (b.type_ === "generative_benchmark" || (isObject(b.metrics) && isObject(b.requests)))
  );

export function detectGuidellm(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => d.kind === "json" && isGuidellm(d.value)).map((d) => d.name);
  return files.length ? {tool: "guidellm", files, shape: "GuideLLM benchmarks.json"} : null;
}

export interface Times {
  start: number;
  first: number | null;
  last: number | null;
  end: number | null;
  targeted: number | null;
}

export function timesOf(r: Req): Times | null {
  const t = r.info?.timings;
  const start = t?.request_start ?? r.start_time ?? null;
  if (start === null) return null;
  return {
    start,
    first: t?.first_token_iteration ?? r.first_token_time ?? null,
    last: t?.last_token_iteration ?? r.last_token_time ?? null,
    end: t?.request_end ?? r.end_time ?? null,
    targeted: t?.targeted_start ?? null
  };
}

export const GUIDELLM_EXPECTED =
  "GuideLLM benchmarks.json: an object with benchmarks[] (type_ generative_benchmark) holding metrics{} and requests{successful[], errored[], incomplete[]}";
