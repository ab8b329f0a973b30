import {z} from "zod";

import {countProblem, statProblem, TokenCount} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * GuideLLM `benchmarks.json` (or `benchmarks.yaml`, the same object as YAML). Per-request timings are
 * wall-clock epoch seconds: `info.timings` (request_start, first_token_iteration, last_token_iteration,
 * request_end, targeted_start; 0.5+) or the older top-level start_time/first_token_time/last_token_time/end_time.
 */
const n = z.number().nullable().optional();
const Timings = z.looseObject({
  targeted_start: n,
  resolve_start: n,
  request_start: n,
  first_token_iteration: n,
  last_token_iteration: n,
  request_end: n,
  resolve_end: n,
  token_iterations: n,
  request_iterations: n
});
export const Req = z.looseObject({
  request_id: z.string().nullable().optional(),
  request_args: z.unknown().optional(),
  output: z.string().nullable().optional(),
  prompt_tokens: TokenCount.nullable().optional(),
  output_tokens: TokenCount.nullable().optional(),
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
/** The moments GuideLLM writes of a distribution (beside `percentiles`); `pdf` and the like are not statistics. */
const MOMENTS = ["mean", "median", "mode", "variance", "std_dev", "min", "max", "count", "total_sum"];
const STATUSES = ["successful", "errored", "incomplete", "total"];

/**
 * Every statistic under `metrics` (a distribution's moments and percentiles, at any depth: per status, and per
 * modality under text/image/…) is a number ≥ 0 or null, and every request total a whole number ≥ 0 or null: a
 * string or a negative value is refused with its path and value, as vLLM's statistics are, never read as "not
 * reported" or kept as if measured.
 */
function checkStats(v: unknown, path: (string | number)[], ctx: z.RefinementCtx, depth = 0): void {
  if (!isObject(v) || depth > 6) return;
  const add = (key: string, problem: string | null, at = path) =>
    problem && ctx.addIssue({code: "custom", path: [...at, key], message: `expected ${problem}`});
  // a distribution: several moments, none of them an object (tool_call.count is a family of counters)
  const moments = MOMENTS.filter((k) => k in v);
  if (moments.length >= 2 && moments.every((k) => !isObject(v[k]))) {
    for (const k of MOMENTS) add(k, statProblem(v[k]));
    if (isObject(v.percentiles))
      for (const [k, x] of Object.entries(v.percentiles)) add(k, statProblem(x), [...path, "percentiles"]);
    return;
  }
  for (const [k, x] of Object.entries(v)) checkStats(x, [...path, k], ctx, depth + 1);
}

function checkTotals(v: unknown, path: (string | number)[], ctx: z.RefinementCtx): void {
  if (!isObject(v)) return;
  for (const k of STATUSES) {
    const problem = countProblem(v[k]);
    if (problem) ctx.addIssue({code: "custom", path: [...path, k], message: `expected ${problem}`});
  }
}

const Benchmark = z
  .looseObject({
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
        prefer_response_metrics: z.boolean().optional(),
        sample_requests: z.number().nullable().optional(),
        sample_size: z.number().nullable().optional()
      })
      .optional(),
    scheduler_metrics: z
      .looseObject({
        measure_start_time: n,
        measure_end_time: n,
        requests_made: z.record(z.string(), z.unknown()).nullable().optional()
      })
      .optional(),
    request_totals: z.record(z.string(), z.unknown()).nullable().optional(),
    request_samples: z.unknown().optional(),
    metrics: z.record(z.string(), z.unknown(), {error: "expected a metrics object"}),
    requests: z.looseObject({successful: z.array(z.unknown()), errored: ReqList, incomplete: ReqList}),
    start_time: n,
    end_time: n,
    duration: n
  })
  .superRefine((b, ctx) => {
    checkStats(b.metrics, ["metrics"], ctx);
    checkTotals(b.metrics.request_totals, ["metrics", "request_totals"], ctx);
    checkTotals(b.request_totals, ["request_totals"], ctx);
  });
export type Benchmark = z.infer<typeof Benchmark>;
export const Report = z.looseObject({
  metadata: z.looseObject({guidellm_version: z.string().optional(), version: z.unknown().optional()}).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  benchmarks: z.array(Benchmark).min(1, "expected at least one benchmark")
});

export const isGuidellm = (v: unknown): boolean =>
  isObject(v) &&
  Array.isArray(v.benchmarks) &&
  v.benchmarks.some(
    (b) => isObject(b) && (b.type_ === "generative_benchmark" || (isObject(b.metrics) && isObject(b.requests)))
  );

/** A whole-file document's value: GuideLLM writes benchmarks.json, or the same object as YAML (output *.yaml). */
export const reportValue = (d: Doc): unknown => (d.kind === "jsonl" ? undefined : d.value);

export function detectGuidellm(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => isGuidellm(reportValue(d))).map((d) => d.name);
  return files.length ? {tool: "guidellm", files, shape: "GuideLLM benchmarks.json or .yaml"} : null;
}

/**
 * The report's generation, by shape (GuideLLM's own `guidellm_version` can be a dev string):
 * 0.2–0.3 (benchmark-level request_totals, run_stats), 0.4 (args, no metadata), 0.5–0.6 (metadata.version
 * 1), 0.7–0.8 (metadata.version 2, `config` instead of `args`).
 */
export type Generation = "0.3" | "0.4" | "report v1" | "report v2";
export function generationOf(r: z.infer<typeof Report>): Generation {
  const version = r.metadata?.version;
  if (version === 2 || (r.config !== undefined && r.args === undefined)) return "report v2";
  if (version === 1) return "report v1";
  const b = r.benchmarks[0];
  if (b && b.scheduler_metrics === undefined && (b.request_totals != null || "run_stats" in b)) return "0.3";
  return "0.4";
}

/** The window GuideLLM measured (0.4+: scheduler_metrics.measure_*; 0.3 stores in-window requests only). */
export function windowOf(b: Benchmark, gen: Generation): {start: number; end: number} | null {
  if (gen === "0.3") return null;
  const start = b.scheduler_metrics?.measure_start_time ?? b.start_time ?? null;
  const end = b.scheduler_metrics?.measure_end_time ?? b.end_time ?? null;
  return start !== null && end !== null && end >= start ? {start, end} : null;
}

/** GuideLLM's rule (accumulator get_within_range): a request counts if [start, end] overlaps the window. */
export function inWindow(t: Times, w: {start: number; end: number} | null): "warmup" | "measure" | "cooldown" {
  if (w === null) return "measure";
  const end = t.end ?? t.start;
  if (end < w.start) return "warmup";
  return t.start <= w.end ? "measure" : "cooldown";
}

/** Requests GuideLLM counted per status in the window (0.4+: metrics.request_totals; 0.3: request_totals). */
export function totalsOf(b: Benchmark): Record<string, unknown> | null {
  const m = b.metrics.request_totals;
  if (isObject(m)) return m;
  return isObject(b.request_totals) ? b.request_totals : null;
}

export interface Times {
  start: number;
  first: number | null;
  last: number | null;
  end: number | null;
  targeted: number | null;
  /** Where each time was read, as a JSON path inside the request (`.info.timings.request_start`). */
  at: Record<"start" | "first" | "last" | "end" | "targeted", string>;
}

/** The first of a request's candidate fields that holds a time, with its path inside the request. */
function pick(r: Req, keys: readonly string[]): {value: number | null; at: string} {
  const timings = (r.info?.timings ?? {}) as Record<string, unknown>;
  const top = r as Record<string, unknown>;
  for (const k of keys) {
    const v = k.startsWith("info.") ? timings[k.slice("info.timings.".length)] : top[k];
    if (typeof v === "number") return {value: v, at: `.${k}`};
  }
  return {value: null, at: `.${keys[0]!}`};
}

export function timesOf(r: Req): Times | null {
  const start = pick(r, ["info.timings.request_start", "info.timings.resolve_start", "start_time"]);
  if (start.value === null) return null;
  const first = pick(r, ["info.timings.first_token_iteration", "first_token_time"]);
  const last = pick(r, ["info.timings.last_token_iteration", "last_token_time"]);
  const end = pick(r, ["info.timings.request_end", "info.timings.resolve_end", "end_time"]);
  const targeted = pick(r, ["info.timings.targeted_start"]);
  return {
    start: start.value,
    first: first.value,
    last: last.value,
    end: end.value,
    targeted: targeted.value,
    at: {start: start.at, first: first.at, last: last.at, end: end.at, targeted: targeted.at}
  };
}

export const GUIDELLM_EXPECTED =
  "GuideLLM benchmarks.json (or its YAML twin, benchmarks.yaml): an object with benchmarks[] (type_ generative_benchmark) holding metrics{} and requests{successful[], errored[], incomplete[]}";
