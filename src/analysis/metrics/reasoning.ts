import type {DerivedRequest} from "../derive/request.ts";
import type {RequestMetric} from "./types.ts";
import {ms, spanMs} from "./units.ts";

/**
 * Reasoning models (issue 16): when thinking starts, when the answer starts, how many of the output tokens
 * were thinking, and the decode speed of the answer alone. decode_tok_s and tpot_ms count every output
 * token, thinking included; answer_decode_tok_s counts the answer's tokens only.
 */
const request = {kind: "request", weighting: "request", method: "nearest-rank"} as const;

/** Output tokens after thinking: the server's output count less its reasoning count, when both are known. */
export function answerTokens(r: DerivedRequest): number | null {
  if (r.out === null || r.reasoningTokens === null) return null;
  return Math.max(0, r.out - r.reasoningTokens);
}

export const ttftReasoningMs: RequestMetric = {
  ...request,
  id: "ttft_reasoning_ms",
  streamsOnly: true,
  family: "latency",
  label: {en: "Time to first reasoning token", zh: "首个推理 token 时延"},
  unit: "ms",
  direction: "lower",
  formula: "t_reason1 − t_start",
  population: "successful measured requests that streamed a reasoning channel",
  definition: {
    en: "From the request's start (as for TTFT) to the first non-empty reasoning delta (reasoning_content / reasoning). Null for requests without a reasoning channel. The time to the first answer token is ttft_content_ms.",
    zh: "从请求开始（与 TTFT 相同）到第一个非空推理增量（reasoning_content / reasoning）。没有推理通道的请求为空值。到首个回答 token 的时间见 ttft_content_ms。"
  },
  value: (r) => spanMs(r.tStart, r.tReason1)
};

export const reasoningTokensMetric: RequestMetric = {
  ...request,
  id: "reasoning_tokens",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Reasoning tokens", zh: "推理 token 数"},
  unit: "tokens",
  direction: "none",
  formula: "usage.completion_tokens_details.reasoning_tokens, else Σ reasoning-event deltas",
  population: "successful measured requests whose reasoning count is known",
  definition: {
    en: "Output tokens spent thinking: the server's reasoning count, else the exact per-event token deltas of the reasoning events (0 when the stream shows none). Null when neither is known — a count of reasoning chunks is not a token count.",
    zh: "用于思考的输出 token 数：服务器报告的推理 token 数，否则为推理事件的逐事件精确 token 增量之和（流中没有推理时为 0）。两者都未知时为空值——推理块数不等于 token 数。"
  },
  value: (r) => r.reasoningTokens
};

export const answerTokensMetric: RequestMetric = {
  ...request,
  id: "answer_tokens",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Answer tokens", zh: "回答 token 数"},
  unit: "tokens",
  direction: "none",
  formula: "out − reasoning_tokens",
  population: "successful measured requests whose output and reasoning counts are known",
  definition: {
    en: "Output tokens after thinking: the server's output count less its reasoning count.",
    zh: "思考之后的输出 token 数：服务器输出 token 数减去推理 token 数。"
  },
  value: answerTokens
};

export const answerDecodeTokS: RequestMetric = {
  ...request,
  id: "answer_decode_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Answer decode speed (thinking excluded)", zh: "回答解码速度（不含思考）"},
  unit: "tok/s",
  direction: "higher",
  formula: "(answer_tokens − 1) / (t_tokN − t_answer1)",
  population: "successful measured requests with ≥ 2 answer tokens and a known reasoning count",
  definition: {
    en: "Decode speed of the answer alone: the answer's tokens after its first, over the span from the first answer token to where the counted tokens end. The first answer token is the first token event after the thinking — a token the server counts but streams as empty text (held-back partial UTF-8) included, so the span holds every answer token the count holds. decode_tok_s counts every output token, thinking included; for a model without a reasoning channel the two agree.",
    zh: "仅回答部分的解码速度：回答首 token 之后的 token 数，除以从首个回答 token 到计数 token 结束的时长。首个回答 token 是思考之后的第一个 token 事件——包括服务器计数但以空文本流出的 token（被扣留的不完整 UTF-8），因此该区间包含计数中的每个回答 token。decode_tok_s 计入全部输出 token（含思考）；没有推理通道的模型两者一致。"
  },
  value: (r) => {
    const n = answerTokens(r);
    if (n === null || n < 2 || r.tAnswer1 === null || r.tTokN === null) return null;
    const span = ms(r.tTokN - r.tAnswer1);
    return span > 0 ? ((n - 1) * 1000) / span : null;
  }
};

export const REASONING_METRICS = [ttftReasoningMs, reasoningTokensMetric, answerTokensMetric, answerDecodeTokS];
