import type {ServerScrape} from "../schema/records.ts";
import type {GpuEntry} from "../schema/hardware.ts";
import {combine, known, unknown} from "./fact.ts";
import type {Fact, FitRow, MeasuredHost, ModelFacts} from "./schema.ts";

const MIB = 2 ** 20;

/**
 * Memory the model may use. A GPU host: the serving GPUs' memory as the tool measured it (MiB), else the
 * catalogue's (GB as the vendor prints it, 10⁹ bytes: the smaller reading, so a fit is never flattered). A CPU
 * host: its RAM (shared with everything else on it).
 */
export function capacityOf(host: MeasuredHost, card: GpuEntry | null): Fact {
  const n = host.gpuCount.value;
  // measured memory only when every serving GPU was measured (hardware.gpu_count may name more than are listed)
  if (host.kind === "gpu" && (n === null || n <= host.gpus.length)) {
    const mem = host.gpus.slice(0, n ?? host.gpus.length).map((g) => g.memoryMiB);
    if (mem.length > 0 && mem.every((m) => m !== null))
      return known(
        mem.reduce((a, m) => a + m! * MIB, 0),
        `${mem.length} GPU(s), memory.total as measured`
      );
  }
  if ((host.kind === "gpu" || host.kind === "declared") && card?.memory_gb !== undefined && n !== null)
    return known(n * card.memory_gb.value * 1e9, `${n} × ${card.memory_gb.value} GB (catalogue: ${card.name})`);
  if (host.kind === "cpu" && host.cpu.memoryBytes !== null)
    return known(host.cpu.memoryBytes, "host RAM (os.totalmem), shared with the OS and other processes");
  return unknown(
    host.kind === "declared"
      ? "declared card not in the catalogue, or its memory is not sourced"
      : "memory size unknown"
  );
}

/** Weights + KV cache for `concurrency` sequences of `context` tokens each, against `capacity`. */
export function fitRow(model: ModelFacts, capacity: Fact, context: number, concurrency: number): FitRow {
  const kv = combine(
    [model.kvBytesPerToken],
    (b) => b * context * concurrency,
    "kv bytes per token × context × concurrency"
  );
  const total = combine([model.weightBytes, kv], (w, k) => w + k, "weights + KV cache");
  const base = {
    context,
    concurrency,
    weightsBytes: model.weightBytes.value,
    kvBytes: kv.value,
    totalBytes: total.value,
    capacityBytes: capacity.value
  };
  if (total.value === null || capacity.value === null)
    return {...base, fits: "unknown", headroomPct: null, reason: total.reason ?? capacity.reason};
  const headroomPct = ((capacity.value - total.value) / capacity.value) * 100;
  return {
    ...base,
    fits: total.value <= capacity.value ? "yes" : "no",
    headroomPct,
    reason: "weights and KV cache only: activations, CUDA graphs and the runtime need more"
  };
}

const KV_USAGE = /^(vllm:(kv|gpu)_cache_usage_perc|llamacpp:kv_cache_usage_ratio|sglang:token_usage)$/;
const PREEMPT = /^vllm:num_preemptions(_total)?$/;

/** The server's own memory signals over the run: peak KV-cache usage and preemptions (counter delta). */
export function serverMemory(scrapes: readonly ServerScrape[]): {kvUsagePeak: Fact; preemptions: Fact} {
  let peak: number | null = null;
  let kvName: string | null = null;
  const pre: number[] = [];
  let preName: string | null = null;
  for (const s of scrapes) {
    if (!s.ok) continue;
    let sum: number | null = null;
    for (const [name, , v] of s.samples) {
      if (v === null) continue;
      if (KV_USAGE.test(name) && (peak === null || v > peak)) [peak, kvName] = [v, name];
      if (PREEMPT.test(name)) [sum, preName] = [(sum ?? 0) + v, name];
    }
    if (sum !== null) pre.push(sum);
  }
  const none = scrapes.length === 0 ? "no /metrics scrapes in the bundle" : "the server's /metrics has no such series";
  return {
    kvUsagePeak: peak === null ? unknown(`KV-cache usage not reported: ${none}`) : known(peak, `peak of ${kvName}`),
    preemptions:
      pre.length < 2
        ? unknown(`preemptions not reported: ${pre.length === 1 ? "one scrape only" : none}`)
        : known(pre.at(-1)! - pre[0]!, `${preName}, last − first scrape`)
  };
}
