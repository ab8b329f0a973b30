import {compareVllmLike, importVllmLike, recomputeVllmStat, vllmLikeShape} from "./vllmLike.ts";
import {docValues} from "./parse.ts";
import type {Claim, Doc, PeerFormat} from "./types.ts";

/**
 * SGLang `bench_serving` JSONL: one JSON object per line, one line per run (several request rates may
 * share a file); `total_output_retokenized`, `*_e2e_latency_ms`, `concurrency`, `accept_length`, and with
 * --output-details the per-request arrays ttfts/itls/input_lens/output_lens (no latencies, no start times).
 */
function detect(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter((d) => d.kind !== "yaml" && docValues(d).every(({value}) => vllmLikeShape(value) === "sglang"))
    .map((d) => d.name);
  return files.length ? {tool: "sglang", files, shape: "SGLang bench_serving JSONL"} : null;
}

/** SGLang's TTFT/ITL/TPOT follow vLLM's formulas (E2E includes [DONE]); one implementation serves both. */
export const recomputeSglang = recomputeVllmStat;
export const compareSglang = compareVllmLike;

export const sglang: PeerFormat = {
  tool: "sglang",
  expected:
    'SGLang bench_serving: JSON Lines, one object per run with "duration", "completed", "total_output_retokenized" and "<stat>_ttft_ms"/"<stat>_e2e_latency_ms" keys',
  detect,
  import: (docs) => importVllmLike("sglang", docs)
};
