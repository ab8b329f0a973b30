import type {Claim, Doc} from "../shared/types.ts";
import {allOfFlavor} from "../vllm/format.ts";

/**
 * SGLang `bench_serving` JSONL: one JSON object per line, one line per run (several request rates may
 * share a file); `total_output_tokens_retokenized` (the client's re-tokenized count), `*_e2e_latency_ms`,
 * `concurrency`, `accept_length`, and with --output-details the per-request arrays ttfts/itls/input_lens/output_lens
 * (no latencies, no start times).
 * The shape is vLLM's (`../vllm/format.ts`); the keys above tell the two apart.
 */
export function detectSglang(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => allOfFlavor(d, "sglang")).map((d) => d.name);
  return files.length ? {tool: "sglang", files, shape: "SGLang bench_serving JSONL"} : null;
}

export const SGLANG_EXPECTED =
  'SGLang bench_serving: JSON Lines, one object per run with "duration", "completed", "total_output_tokens_retokenized" and "<stat>_ttft_ms"/"<stat>_e2e_latency_ms" keys';
