import {z} from "zod";

import {isObject} from "../shared/parse.ts";
import {parseStat} from "../shared/stats.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * vLLM `bench serve --save-result` (2024 and 2025+ schemas) and SGLang `bench_serving` JSONL share one
 * shape: run-level stats as `<stat>_<metric>_ms` keys and optional index-aligned per-request arrays.
 */
export type Flavor = "vllm" | "sglang";

/** `mean_ttft_ms`, `p99.9_itl_ms`, `median_e2el_ms`, … */
export const STAT_KEY = /^(mean|median|std|min|max|p\d+(?:\.\d+)?)_([a-z0-9_]+?)_ms$/;

/** The metric families vLLM and SGLang report statistics of. */
export type Family = "ttft" | "tpot" | "itl" | "e2e";

/** Metric names per schema generation, mapped to one family. */
const FAMILY: Record<string, Family> = {
  ttft: "ttft",
  tpot: "tpot",
  itl: "itl",
  e2el: "e2e", // vLLM 2025+
  latency: "e2e", // vLLM 2024
  e2e_latency: "e2e" // SGLang
};

/** A time, length or count no run can make negative, with the value in the message when it is. */
const nonNeg = (what: string) => z.number().min(0, {error: (i) => `${what} (≥ 0), got ${String(i.input)}`});
const numArray = z.array(nonNeg("expected a duration in seconds"));
const intArray = z.array(z.number().int().nonnegative().nullable());

/**
 * The run-level numbers besides `<stat>_<metric>_ms`: counts, token totals, rates. vLLM and SGLang write each
 * as a JSON number (Python's NaN or Infinity, read as null, where a statistic had no values).
 */
export const RUN_NUMBERS = new Set([
  "total_input_tokens",
  "total_output_tokens",
  "total_input",
  "total_output",
  "total_output_retokenized",
  "total_output_tokens_retokenized",
  "total_input_tokens_retokenized",
  "total_throughput_retokenized",
  "request_throughput",
  "request_goodput",
  "request_goodput:",
  "input_throughput",
  "output_throughput",
  "output_throughput_retokenized",
  "total_token_throughput",
  "total_throughput",
  "max_output_tokens_per_s",
  "max_concurrent_requests",
  "concurrency",
  "accept_length"
]);

/**
 * Every statistic (`mean_ttft_ms`, `p99_itl_ms`, …) and run-level number is a non-negative number or null:
 * a string or a negative latency is not what either tool writes, and is refused with its key and value
 * rather than read as "not reported" or kept as if measured.
 */
function checkRunNumbers(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [key, x] of Object.entries(v)) {
    if (!STAT_KEY.test(key) && !RUN_NUMBERS.has(key)) continue;
    if (x === null || x === undefined) continue;
    if (typeof x !== "number")
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `expected a number, got ${typeof x === "string" ? `the string ${JSON.stringify(x.slice(0, 40))}` : typeof x}`
      });
    else if (x < 0) ctx.addIssue({code: "custom", path: [key], message: `expected a non-negative number, got ${x}`});
  }
}

export const VllmLikeRun = z
  .looseObject({
    date: z.string().optional(),
    backend: z.string().optional(),
    model_id: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
    tokenizer_id: z.string().nullable().optional(),
    endpoint_type: z.string().nullable().optional(),
    num_prompts: z.number().int().nullable().optional(),
    request_rate: z.union([z.number(), z.string(), z.null()]).optional(),
    burstiness: z.number().nullable().optional(),
    max_concurrency: z.number().int().positive().nullable().optional(),
    duration: z
      .number({error: "expected the run duration in seconds (a number)"})
      .min(0, {error: (i) => `expected the run duration in seconds (≥ 0), got ${String(i.input)}`}),
    completed: z
      .number({error: "expected the count of completed requests (an integer)"})
      .int()
      .min(0, {error: (i) => `expected the count of completed requests (≥ 0), got ${String(i.input)}`}),
    failed: z.number().int().nonnegative().nullable().optional(),
    input_lens: intArray.optional(),
    output_lens: intArray.optional(),
    ttfts: z.array(nonNeg("expected a time to first token in seconds").nullable()).optional(),
    itls: z.array(z.array(nonNeg("expected an inter-token latency in seconds"))).optional(),
    latencies: numArray.optional(),
    start_times: z.array(z.number()).optional(),
    errors: z.array(z.string().nullable()).optional(),
    generated_texts: z.array(z.string().nullable()).optional()
  })
  .superRefine(checkRunNumbers);
export type VllmLikeRun = z.infer<typeof VllmLikeRun>;

export const ARRAYS = [
  "input_lens",
  "output_lens",
  "itls",
  "errors",
  "generated_texts",
  "latencies",
  "start_times"
] as const;

/** One result object of a file: its value, where it is (for messages) and how a message names it. */
export interface RunValue {
  value: unknown;
  /** Prefix of the JSON path: `line 3 ` in JSON Lines, else empty. */
  where: string;
  /** The JSON path of the object: `$`, or `$[1]` in an array. */
  base: string;
  /** `file`, `file line 3` or `file [1]`. */
  label: string;
}

/**
 * The result objects of a file: the object of a JSON file, each line of JSON Lines, or each element of a JSON
 * array. `vllm bench sweep` writes, per parameter combination, a summary.json that is the list of its runs'
 * results (the run=N.json objects, each with run_number and the swept parameters added).
 */
export function runValues(doc: Doc): RunValue[] {
  if (doc.kind === "jsonl")
    return doc.lines.map((l) => ({
      value: l.value,
      where: `line ${l.line} `,
      base: "$",
      label: `${doc.name} line ${l.line}`
    }));
  if (Array.isArray(doc.value))
    return doc.value.map((value, i) => ({value, where: "", base: `$[${i}]`, label: `${doc.name} [${i}]`}));
  return [{value: doc.value, where: "", base: "$", label: doc.name}];
}

/** Whether every result object of a file (at least one) has the flavour's shape. */
export const allOfFlavor = (doc: Doc, flavor: Flavor): boolean => {
  if (doc.kind === "yaml") return false;
  const values = runValues(doc);
  return values.length > 0 && values.every(({value}) => vllmLikeShape(value) === flavor);
};

/** Which flavour a JSON value looks like, by shape; null when it is neither. */
export function vllmLikeShape(v: unknown): Flavor | null {
  if (!isObject(v) || !("duration" in v)) return null;
  const keys = Object.keys(v);
  if (!keys.some((k) => STAT_KEY.test(k) && k.endsWith("_ttft_ms"))) return null;
  const sglang =
    "total_output_retokenized" in v ||
    "accept_length" in v ||
    "output_throughput_retokenized" in v ||
    "mean_e2e_latency_ms" in v ||
    ("total_input" in v && !("total_input_tokens" in v));
  return sglang ? "sglang" : "vllm";
}

/** Parsed `<stat>_<metric>_ms` keys: family → stat label → {key, value}. */
export function statsOf(run: Record<string, unknown>): Map<string, Map<string, {key: string; value: number | null}>> {
  const out = new Map<string, Map<string, {key: string; value: number | null}>>();
  for (const [key, value] of Object.entries(run)) {
    const m = STAT_KEY.exec(key);
    if (!m) continue;
    const family = FAMILY[m[2]!];
    if (!family || parseStat(m[1]!) === null) continue;
    if (!out.has(family)) out.set(family, new Map());
    out.get(family)!.set(m[1]!, {key, value: typeof value === "number" ? value : null});
  }
  return out;
}

/**
 * vLLM's client takes the first SSE chunk that has `choices` as the first token — on the chat endpoint a
 * role-only chunk counts (vLLM issue #15106; the content check of PR #3768 is gone from the refactored
 * client). Its per-request TTFT then ends at the role chunk, and so does every TTFT recomputed from it.
 */
export const VLLM_CHAT_TTFT_CAVEAT =
  "vLLM's chat client counts the first chunk with choices as the first token, a role-only chunk included (vLLM issue #15106): where the server sends the role chunk early, this TTFT — and ttft_ms recomputed from its per-request first-token times — ends before the first content token";

/**
 * vLLM `bench serve --save-result` (formerly `benchmarks/benchmark_serving.py`): the 2024 schema
 * (`*_latency_ms`, per-request `ttfts`/`itls`, no latencies) and the 2025+ schema (`*_e2el_ms`, `failed`,
 * `latencies` always, `start_times`/`ttfts`/`itls` with --save-detailed), one JSON object, JSON Lines, or the
 * array of a `vllm bench sweep` summary.json.
 */
export function detectVllm(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => allOfFlavor(d, "vllm")).map((d) => d.name);
  return files.length ? {tool: "vllm", files, shape: "vLLM save-result JSON"} : null;
}

export const VLLM_EXPECTED =
  'vLLM --save-result: a JSON object (or JSON Lines of them, or the array of them a vllm bench sweep summary.json holds) with "duration", "completed" and "<stat>_ttft_ms" keys, optionally per-request arrays ttfts/itls/latencies';
