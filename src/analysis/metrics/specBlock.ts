import {z} from "zod";

import type {SpecServerWindow, SpecTimingsFacts} from "./specDecode.ts";
import type {Bilingual} from "./types.ts";

/**
 * The `spec_decode` block of a load point: speculative-decoding facts that are not per-request metrics (they
 * come from server counters over the point's span, or pooled over its responses), so they live here and not
 * in the metric registry. Each field is defined once, in SPEC_DECODE_FIELDS (the methodology page and
 * docs/spec-decode.md read it). Tokens per SSE event stays the registry's `tokens_per_event`.
 */

export const SPEC_SOURCES = ["server_counters", "server_gauges", "response_timings"] as const;
export type SpecSource = (typeof SPEC_SOURCES)[number];

const SpecValue = z
  .object({
    value: z.number().nullable().describe("null when unknown, with the reason (never 0 for not exported)"),
    source: z.enum(SPEC_SOURCES).nullable().describe("where the value comes from"),
    reason: z.string().optional().describe("why value is null")
  })
  .describe("a speculative-decoding value of one load point");

export const SpecDecodeBlock = z
  .object({
    acceptance_rate: SpecValue.describe("accepted draft tokens / draft tokens, a fraction 0…1"),
    mean_acceptance_length: SpecValue.describe("vLLM's definition: 1 + accepted tokens / drafts (tokens per step)"),
    per_position: z
      .object({
        value: z.array(z.number()).nullable().describe("position i (0-based): accepted at i / drafts"),
        source: z.enum(SPEC_SOURCES).nullable(),
        reason: z.string().optional()
      })
      .describe("acceptance rate per draft position"),
    counters: z
      .object({
        engine: z.string(),
        from_s: z.number().describe("scrape time of the baseline (s since the run's origin)"),
        to_s: z.number().describe("scrape time of the end reading (s)"),
        drafts: z.number(),
        draft_tokens: z.number(),
        accepted_tokens: z.number(),
        accepted_per_position: z.array(z.number())
      })
      .nullable()
      .describe("counter deltas over the point's span (vLLM, llama.cpp), null when not exported or not readable"),
    gauges: z
      .object({
        engine: z.string(),
        scrapes: z.number().int(),
        accept_length: z.number().nullable(),
        accept_rate: z.number().nullable()
      })
      .nullable()
      .describe("SGLang's spec_accept_length / spec_accept_rate gauges, mean of the scrapes over the point's span"),
    timings: z
      .object({
        requests: z.number().int(),
        draft_tokens: z.number(),
        accepted_tokens: z.number()
      })
      .nullable()
      .describe("llama.cpp's per-response timings.draft_n / draft_n_accepted summed over successful measured requests")
  })
  .describe("speculative decoding of one load point (metrics/specBlock.ts; docs/spec-decode.md)");
export type SpecDecodeBlock = z.infer<typeof SpecDecodeBlock>;

export interface SpecFieldDef {
  id: "acceptance_rate" | "mean_acceptance_length" | "per_position";
  label: Bilingual;
  unit: string;
  formula: string;
  definition: Bilingual;
}

/** The one definition of each spec_decode field. */
export const SPEC_DECODE_FIELDS: readonly SpecFieldDef[] = [
  {
    id: "acceptance_rate",
    label: {en: "Draft acceptance rate", zh: "草稿接受率"},
    unit: "fraction",
    formula: "Δaccepted_tokens / Δdraft_tokens (counters); Σdraft_n_accepted / Σdraft_n (llama.cpp timings)",
    definition: {
      en: "Share of drafted tokens the target model accepted over the load point: from the server's counters (vLLM, llama.cpp: deltas between the last scrape before the point and the first after it), else SGLang's spec_accept_rate gauge, else llama.cpp's per-response timings. Null with the reason when the server exports none of them.",
      zh: "负载点内目标模型接受的草稿 token 占比：优先取服务器计数器（vLLM、llama.cpp：负载点开始前最后一次与结束后第一次抓取之差），其次 SGLang 的 spec_accept_rate 指标，再次 llama.cpp 每个响应的 timings。服务器都未导出时为空并给出原因。"
    }
  },
  {
    id: "mean_acceptance_length",
    label: {en: "Mean acceptance length", zh: "平均接受长度"},
    unit: "tokens/step",
    formula: "1 + Δaccepted_tokens / Δdrafts (vLLM's definition)",
    definition: {
      en: "Tokens one draft-and-verify step yields on average: the accepted draft tokens per draft plus the target's own token (vLLM's mean acceptance length; SGLang's spec_accept_length gauge means the same). llama.cpp's timings count draft tokens but not drafts, so they give no length.",
      zh: "每个草稿+验证步骤平均产出的 token 数：每个草稿被接受的 token 数加上目标模型自己的一个 token（vLLM 的平均接受长度；SGLang 的 spec_accept_length 含义相同）。llama.cpp 的 timings 只有草稿 token 数没有草稿次数，因此无法给出长度。"
    }
  },
  {
    id: "per_position",
    label: {en: "Acceptance per draft position", zh: "各草稿位置接受率"},
    unit: "fraction",
    formula: "Δaccepted_tokens_per_pos[i] / Δdrafts",
    definition: {
      en: "For draft position i (0-based), the share of drafts whose token at i was accepted (vLLM's per-position acceptance rate). From the per-position counters only.",
      zh: "第 i 个草稿位置（从 0 起）被接受的草稿占比（vLLM 的逐位置接受率）。仅来自逐位置计数器。"
    }
  }
];

const NOT_EXPORTED = "not exported: the server's metrics and responses carry no speculative-decoding counts";
const NO_DRAFT_TOKENS = "the server counted drafts but exports no draft-token counter: no acceptance rate";

/** A point's spec_decode block from its scrape window and timings sums; null when the bundle has neither. */
export function specDecodeBlock(
  server: SpecServerWindow | undefined,
  timings: SpecTimingsFacts["specTimings"] | undefined
): SpecDecodeBlock | null {
  const t = timings !== undefined && timings.requests > 0 ? timings : null;
  if (server === undefined && t === null) return null;
  const c = server?.counters ?? null;
  const g = server?.gauges ?? null;
  const why = server?.countersReason ?? NOT_EXPORTED;
  const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
  const noDrafts = "no drafts in the load point's span (speculative decoding off, or no decode step)";
  const rate = (): SpecDecodeBlock["acceptance_rate"] => {
    if (c !== null && c.draftTokens > 0) return {value: c.accepted / c.draftTokens, source: "server_counters"};
    if (g !== null && g.acceptRate !== null) return {value: g.acceptRate, source: "server_gauges"};
    if (t !== null && t.draftTokens > 0) return {value: t.accepted / t.draftTokens, source: "response_timings"};
    if (c !== null && c.drafts > 0) return {value: null, source: null, reason: NO_DRAFT_TOKENS};
    return {value: null, source: null, reason: c !== null || t !== null ? noDrafts : why};
  };
  const length = (): SpecDecodeBlock["mean_acceptance_length"] => {
    if (c !== null && c.drafts > 0) return {value: 1 + c.accepted / c.drafts, source: "server_counters"};
    if (g !== null && g.acceptLength !== null) return {value: g.acceptLength, source: "server_gauges"};
    if (c !== null) return {value: null, source: null, reason: noDrafts};
    return {
      value: null,
      source: null,
      reason: t !== null ? "llama.cpp's timings count draft tokens, not drafts: no length without its counters" : why
    };
  };
  const perPos: SpecDecodeBlock["per_position"] =
    c !== null && c.drafts > 0 && c.perPos.length > 0
      ? {value: c.perPos.map((n) => ratio(n, c.drafts)!), source: "server_counters"}
      : {
          value: null,
          source: null,
          reason: c === null ? why : c.drafts > 0 ? "per-position counters not exported" : noDrafts
        };
  return {
    acceptance_rate: rate(),
    mean_acceptance_length: length(),
    per_position: perPos,
    counters:
      c === null
        ? null
        : {
            engine: c.engine,
            from_s: c.fromS,
            to_s: c.toS,
            drafts: c.drafts,
            draft_tokens: c.draftTokens,
            accepted_tokens: c.accepted,
            accepted_per_position: c.perPos
          },
    gauges:
      g === null
        ? null
        : {engine: g.engine, scrapes: g.scrapes, accept_length: g.acceptLength, accept_rate: g.acceptRate},
    timings: t === null ? null : {requests: t.requests, draft_tokens: t.draftTokens, accepted_tokens: t.accepted}
  };
}

/** The spec_decode block of a point report, or the "not exported" block for a point whose report has none. */
export function specDecodeOf(point: {spec_decode?: SpecDecodeBlock}): SpecDecodeBlock {
  if (point.spec_decode !== undefined) return point.spec_decode;
  const none = {value: null, source: null, reason: NOT_EXPORTED};
  return {
    acceptance_rate: none,
    mean_acceptance_length: none,
    per_position: none,
    counters: null,
    gauges: null,
    timings: null
  };
}
