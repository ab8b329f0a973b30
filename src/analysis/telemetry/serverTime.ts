import type {ServerScrape} from "../schema/records.ts";

/**
 * Where the server's time goes per load point (issue 14), from the engine's own metrics in the scrapes:
 * vLLM's request_queue_time / request_prefill_time / request_decode_time histograms give the mean seconds
 * per request finished in the window (Δ_sum / Δ_count between the last scrape before the point's measured
 * window and the first after it); the waiting gauges (vLLM num_requests_waiting, SGLang num_queue_reqs,
 * llama.cpp requests_deferred) give the mean queue length over the scrapes inside the window.
 */

export const PHASE_HISTOGRAMS = {
  queue: "vllm:request_queue_time_seconds",
  prefill: "vllm:request_prefill_time_seconds",
  decode: "vllm:request_decode_time_seconds"
} as const;
export const WAITING_GAUGES = ["vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"];

type Phase = keyof typeof PHASE_HISTOGRAMS;
const PHASES = Object.keys(PHASE_HISTOGRAMS) as Phase[];

const WANTED: ReadonlySet<string> = new Set([
  ...Object.values(PHASE_HISTOGRAMS).flatMap((h) => [`${h}_sum`, `${h}_count`]),
  ...WAITING_GAUGES
]);

/** One successful scrape reduced to the series this needs, each summed over its label sets. */
export interface PhaseScrape {
  tNs: number;
  values: Record<string, number>;
}

/** The scrape's phase series, or null when it failed or has none (kept for every scrape: a few numbers each). */
export function phaseScrape(s: ServerScrape): PhaseScrape | null {
  if (!s.ok) return null;
  const values: Record<string, number> = {};
  let any = false;
  for (const [name, , v] of s.samples)
    if (v !== null && Number.isFinite(v) && WANTED.has(name)) {
      values[name] = (values[name] ?? 0) + v;
      any = true;
    }
  return any ? {tNs: s.tNs, values} : null;
}

export interface ServerTime {
  /** Mean seconds per request in the engine's queue, prefill and decode (null with `reason`). */
  queue_s: number | null;
  prefill_s: number | null;
  decode_s: number | null;
  /** Requests the histograms counted in the window (Δ_count of the queue histogram). */
  requests: number | null;
  /** Mean of the waiting gauge over the scrapes inside the window, and which gauge. */
  waiting_mean: number | null;
  waiting_series: string | null;
  /** Seconds since the run's origin of the two scrapes the deltas are taken between. */
  window_s: [number, number] | null;
  reason: string | null;
}

const none = (reason: string): ServerTime => ({
  queue_s: null,
  prefill_s: null,
  decode_s: null,
  requests: null,
  waiting_mean: null,
  waiting_series: null,
  window_s: null,
  reason
});

/** The server's time per request over the measured window `span` (ns) of one point. */
export function serverTime(scrapes: readonly PhaseScrape[], span: [number, number] | null): ServerTime {
  if (scrapes.length === 0)
    return none(
      "no scrape carries queue/prefill/decode histograms or a waiting gauge (engine does not export them, or no server metrics)"
    );
  if (span === null) return none("the point has no measured window");
  let before: PhaseScrape | null = null;
  let after: PhaseScrape | null = null;
  for (const s of scrapes) {
    if (s.tNs <= span[0]) before = s;
    if (s.tNs >= span[1] && after === null) after = s;
  }
  const out = none("");
  const inside = scrapes.filter((s) => s.tNs >= span[0] && s.tNs <= span[1]);
  const gauge = WAITING_GAUGES.find((g) => inside.some((s) => g in s.values)) ?? null;
  if (gauge !== null) {
    const vs = inside.filter((s) => gauge in s.values).map((s) => s.values[gauge]!);
    out.waiting_mean = vs.reduce((a, b) => a + b, 0) / vs.length;
    out.waiting_series = gauge;
  }
  const reasons: string[] = [];
  if (gauge === null) reasons.push("no waiting gauge scraped during the point");
  if (before === null || after === null) reasons.push("no scrape before and after the point's window");
  else {
    out.window_s = [before.tNs / 1e9, after.tNs / 1e9];
    const delta = (name: string) =>
      name in before!.values && name in after!.values ? after!.values[name]! - before!.values[name]! : null;
    const count = delta(`${PHASE_HISTOGRAMS.queue}_count`);
    if (count === null) reasons.push("the engine exports no vLLM queue/prefill/decode histograms");
    else if (count <= 0) reasons.push("no request finished between the scrapes around the point");
    else {
      out.requests = count;
      for (const ph of PHASES) {
        const sum = delta(`${PHASE_HISTOGRAMS[ph]}_sum`);
        const n = delta(`${PHASE_HISTOGRAMS[ph]}_count`);
        out[`${ph}_s`] = sum !== null && n !== null && n > 0 ? sum / n : null;
      }
    }
  }
  out.reason = reasons.length > 0 ? reasons.join("; ") : null;
  return out;
}
