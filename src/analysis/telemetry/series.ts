import type {GpuSample, ServerScrape} from "../schema/records.ts";

/**
 * Logical names for the Prometheus series of common engines (first alias found wins).
 * Gauges are plotted as they are; counters become per-second rates between consecutive scrapes.
 */
export const SERVER_SERIES: readonly {id: string; label: string; unit: string; counter: boolean; aliases: string[]}[] =
  [
    {
      id: "running",
      label: "requests running",
      unit: "requests",
      counter: false,
      aliases: ["vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"]
    },
    {
      id: "waiting",
      label: "requests waiting",
      unit: "requests",
      counter: false,
      aliases: ["vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"]
    },
    {
      id: "kv_cache",
      label: "KV cache usage",
      unit: "fraction",
      counter: false,
      aliases: [
        "vllm:kv_cache_usage_perc",
        "vllm:gpu_cache_usage_perc",
        "sglang:token_usage",
        "llamacpp:kv_cache_usage_ratio"
      ]
    },
    {
      id: "generation_tok_s",
      label: "generation tokens/s (server)",
      unit: "tok/s",
      counter: true,
      aliases: ["vllm:generation_tokens_total", "sglang:generation_tokens_total", "llamacpp:tokens_predicted_total"]
    },
    {
      id: "prompt_tok_s",
      label: "prompt tokens/s (server)",
      unit: "tok/s",
      counter: true,
      aliases: ["vllm:prompt_tokens_total", "sglang:prompt_tokens_total", "llamacpp:prompt_tokens_total"]
    }
  ];

export interface SeriesPoint {
  series: string;
  tS: number;
  value: number;
  gpu?: number;
}

/** Sums samples of one metric name across label sets. */
function valueOf(scrape: ServerScrape, name: string): number | null {
  let found = false;
  let total = 0;
  for (const [n, , v] of scrape.samples) {
    if (n !== name || v === null || !Number.isFinite(v)) continue;
    found = true;
    total += v;
  }
  return found ? total : null;
}

/** Builds plottable server series from raw scrapes; counters become rates, counter resets are skipped. */
export function serverSeries(scrapes: readonly ServerScrape[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  const ok = scrapes.filter((s) => s.ok);
  for (const def of SERVER_SERIES) {
    const name = def.aliases.find((a) => ok.some((s) => valueOf(s, a) !== null));
    if (!name) continue;
    let prev: {t: number; v: number} | null = null;
    for (const s of ok) {
      const v = valueOf(s, name);
      if (v === null) continue;
      const t = s.tNs / 1e9;
      if (!def.counter) out.push({series: def.id, tS: t, value: v});
      else if (prev && t > prev.t && v >= prev.v) out.push({series: def.id, tS: t, value: (v - prev.v) / (t - prev.t)});
      prev = {t, v};
    }
  }
  return out;
}

export function gpuSeries(samples: readonly GpuSample[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (const s of samples) {
    if (!s.ok) continue;
    const t = s.tNs / 1e9;
    for (const g of s.gpus) {
      if (g.utilPct !== null) out.push({series: "gpu_util_pct", tS: t, value: g.utilPct, gpu: g.index});
      if (g.memUsedMiB !== null) out.push({series: "gpu_mem_used_mib", tS: t, value: g.memUsedMiB, gpu: g.index});
      if (g.powerW !== null) out.push({series: "gpu_power_w", tS: t, value: g.powerW, gpu: g.index});
    }
  }
  return out;
}
