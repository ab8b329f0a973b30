import {compareVllmLike, importVllmLike, recomputeVllmStat, vllmLikeShape} from "./vllmLike.ts";
import {docValues} from "./parse.ts";
import type {Claim, Doc, PeerFormat} from "./types.ts";

/**
 * vLLM `bench serve --save-result` (formerly `benchmarks/benchmark_serving.py`): the 2024 schema
 * (`*_latency_ms`, per-request `ttfts`/`itls`, no latencies) and the 2025+ schema (`*_e2el_ms`, `failed`,
 * `latencies` always, `start_times`/`ttfts`/`itls` with --save-detailed), one JSON object or JSON Lines.
 */
function detect(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter((d) => d.kind !== "yaml" && docValues(d).every(({value}) => vllmLikeShape(value) === "vllm"))
    .map((d) => d.name);
  return files.length ? {tool: "vllm", files, shape: "vLLM save-result JSON"} : null;
}

export const recomputeVllm = recomputeVllmStat;
export const compareVllm = compareVllmLike;

export const vllm: PeerFormat = {
  tool: "vllm",
  expected:
    'vLLM --save-result: a JSON object (or JSON Lines of them) with "duration", "completed" and "<stat>_ttft_ms" keys, optionally per-request arrays ttfts/itls/latencies',
  detect,
  import: (docs) => importVllmLike("vllm", docs)
};
