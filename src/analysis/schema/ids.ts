import {z} from "zod";

/**
 * Every metric id, snake_case with the unit last. Stable across versions: ids appear in URLs, JSON
 * output and goldens (percentile keys are schema/config.ts `Percentile`) (docs/report-schema.md: a rename keeps the old id as an alias for one analyzer
 * version). The metrics registry defines each exactly once (test/analysis/registries.test.ts).
 */
export const METRIC_IDS = [
  // latency (per request)
  "ttft_ms",
  "ttft_content_ms",
  "ttft_first_event_ms",
  "ttft_first_byte_ms",
  "ttft_dispatch_ms",
  "e2e_ms",
  "e2e_dispatch_ms",
  "request_time_ms",
  "dispatch_lag_ms",
  "connection_setup_ms",
  "connect_ms",
  "tls_ms",
  // speed (per request)
  "tpot_ms",
  "itl_ms",
  "decode_tok_s",
  "prefill_tok_s",
  "server_prefill_tok_s",
  "server_decode_tok_s",
  "interactivity_tok_s",
  "e2e_output_tok_s",
  "output_tokens",
  "input_tokens",
  "tokens_per_event",
  // reasoning models (per request)
  "ttft_reasoning_ms",
  "reasoning_tokens",
  "answer_tokens",
  "answer_decode_tok_s",
  // samples (per chunk or token gap)
  "inter_chunk_ms",
  "itl_token_ms",
  // run level (per load point)
  "request_throughput_rps",
  "output_throughput_tok_s",
  "input_output_throughput_tok_s",
  "input_throughput_tok_s",
  "success_rate_pct",
  "goodput_pct",
  "goodput_rps",
  "achieved_concurrency",
  "achieved_rate_rps",
  "interactivity_share_tok_s",
  "tokens_per_chunk",
  "window_s"
] as const;
export const MetricId = z.enum(METRIC_IDS);
export type MetricId = z.infer<typeof MetricId>;

/** Gate ids: the code; each gate also has a slug (`G3` / `error_rate`). Gaps are retired gates, never reused. */
export const GATE_IDS = [
  "G1",
  "G2",
  "G3",
  "G4",
  "G5",
  "G6",
  "G7",
  "G8",
  "G9",
  "G10",
  "G11",
  "G12",
  "G13",
  "G14",
  "G16",
  "G19",
  "G21",
  "G24",
  "G28",
  "G29",
  "G30",
  "G31",
  "G32"
] as const;
export const GateId = z.enum(GATE_IDS);
export type GateId = z.infer<typeof GateId>;
