import parsePrometheusTextFormat from "parse-prometheus-text-format";

import type {ServerScrape} from "../../src/analysis/schema/records.ts";
import type {Effects} from "../effects.ts";

type PromSample = ServerScrape["samples"][number];

/** Engines whose metric families we keep: vLLM, SGLang, llama.cpp, TGI. */
export const ENGINE_PREFIXES = ["vllm:", "sglang:", "llamacpp:", "tgi_"] as const;

/** Families kept (after an engine prefix): load, KV cache, token counters, latency histograms, prefix cache, speculative decoding. */
export const FAMILY_ALLOWLIST: readonly RegExp[] = [
  /num_requests_(running|waiting|swapped)/,
  /num_(running|queue)_reqs/,
  /requests_(processing|deferred)/,
  /queue_size|batch_current_size/,
  /(kv|gpu)_cache_usage|token_usage|kv_cache_(tokens|usage_ratio)/,
  /prompt_tokens|generation_tokens|tokens_predicted|predicted_tokens|generated_tokens|input_length/,
  /prompt_seconds|n_decode|n_busy_slots/,
  /time_to_first_token|inter_token_latency|time_per_output_token|e2e_request_latency|request_(duration|queue_time|prefill_time|decode_time)|queue_duration|mean_time_per_token/,
  /prefix_cache_(queries|hits)|cache_hit_rate/,
  /num_preemptions|request_success/,
  // speculative decoding: vLLM's and llama.cpp's counters (`…spec_decode_num_drafts_total`,
  // `…_num_draft_tokens_total`, `…_num_accepted_tokens_total`, `…_num_accepted_tokens_per_pos_total{position}`,
  // docs/spec-decode.md) and SGLang's gauges `sglang:spec_accept_length`
  // ("The average acceptance length of speculative decoding") and `sglang:spec_accept_rate` (accepted / draft
  // tokens in the batch), as sgl-project/sglang python/sglang/srt/metrics/collector.py defines them
  /spec_decode_num_(drafts|draft_tokens|accepted_tokens|accepted_tokens_per_pos)_total|spec_accept_(length|rate)/
];

export function allowedName(name: string): boolean {
  return ENGINE_PREFIXES.some((p) => name.startsWith(p)) && FAMILY_ALLOWLIST.some((re) => re.test(name));
}

const NAME = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/;

/**
 * Raw samples of the allowlisted families, as [name, labels | null, value] (value null when not finite).
 * Uses parse-prometheus-text-format for the sample lines. Its histogram/summary grouping drops labelled
 * series (it merges every `le` bucket of all label sets into one object), so the `# TYPE`/`# HELP` lines
 * are left out: every sample line then comes back on its own, with its full name (`_bucket`, `_sum`,
 * `_count`) and all labels, `le` included.
 */
export function parseScrape(text: string): PromSample[] {
  const kept: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = NAME.exec(line);
    if (m && allowedName(m[1]!)) kept.push(line);
  }
  if (kept.length === 0) return [];
  const out: PromSample[] = [];
  // the trailing newline matters: the parser drops the final sample of a text that does not end with one
  for (const fam of parsePrometheusTextFormat(`${kept.join("\n")}\n`)) {
    for (const m of fam.metrics) {
      const v = m.value === undefined ? NaN : Number(m.value);
      out.push([
        fam.name,
        m.labels && Object.keys(m.labels).length > 0 ? m.labels : null,
        Number.isFinite(v) ? v : null
      ]);
    }
  }
  return out;
}

/** Guesses the engine from the metric names it exposes. */
export function engineFromMetrics(text: string): string | null {
  if (/^vllm:/m.test(text)) return "vllm";
  if (/^sglang:/m.test(text)) return "sglang";
  if (/^llamacpp:/m.test(text)) return "llama.cpp";
  if (/^tgi_/m.test(text)) return "tgi";
  return null;
}

/** One scrape of /metrics as a ServerScrape record (without seq). A failure is a record with ok:false. */
export async function scrapeOnce(
  fx: Pick<Effects, "http" | "clock">,
  url: string,
  origin: bigint,
  timeoutMs: number,
  redact: (s: string) => string
): Promise<Omit<ServerScrape, "seq">> {
  const t0 = fx.clock.nowNs();
  const tNs = Number(t0 - origin);
  const dur = () => Number(fx.clock.nowNs() - t0) / 1e6;
  try {
    const res = await fx.http({url, timeoutMs, headers: {accept: "text/plain"}});
    if (res.status < 200 || res.status >= 300)
      return {
        tNs,
        durationMs: dur(),
        ok: false,
        error: redact(`http ${res.status}: ${res.body.slice(0, 200)}`),
        samples: []
      };
    let samples: PromSample[];
    try {
      samples = parseScrape(res.body);
    } catch (e) {
      return {
        tNs,
        durationMs: dur(),
        ok: false,
        error: redact(`unparseable metrics: ${(e as Error).message.slice(0, 200)}`),
        samples: []
      };
    }
    for (const smp of samples) {
      const labels = smp[1];
      if (labels) for (const k of Object.keys(labels)) labels[k] = redact(labels[k]!);
    }
    return {tNs, durationMs: dur(), ok: true, error: null, samples};
  } catch (e) {
    return {tNs, durationMs: dur(), ok: false, error: redact((e as Error).message), samples: []};
  }
}
