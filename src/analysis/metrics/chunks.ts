import {requestTokenGaps, tokenEventGaps} from "../derive/request.ts";
import type {RequestMetric, SampleMetric} from "./types.ts";
import {ms} from "./units.ts";

export const interChunkMs: SampleMetric = {
  kind: "sample",
  weighting: "chunk",
  method: "nearest-rank",
  id: "inter_chunk_ms",
  streamsOnly: true,
  family: "speed",
  label: {en: "Inter-chunk latency", zh: "块间时延"},
  unit: "ms",
  direction: "lower",
  formula: "t(k) − t(k−1) over consecutive token-bearing events",
  population: "gaps between token-bearing events of successful measured requests, pooled",
  definition: {
    en: "One sample per gap between consecutive token-bearing SSE events, pooled over requests (chunk-weighted). This is what vLLM and SGLang call ITL; with several tokens per chunk (speculative decoding, stream intervals) it is not a per-token time.",
    zh: "相邻两个携带 token 的 SSE 事件之间的每个间隔计一个样本，跨请求汇总（按块加权）。这就是 vLLM 和 SGLang 所称的 ITL；一个块含多个 token 时（投机解码、流间隔）它不是每 token 时间。"
  },
  samples: (r, emit) => {
    if (r.chunksKnown) tokenEventGaps(r, (gap) => emit(ms(gap)));
  }
};

export const itlTokenMs: SampleMetric = {
  kind: "sample",
  weighting: "token",
  method: "nearest-rank",
  id: "itl_token_ms",
  streamsOnly: true,
  family: "speed",
  label: {en: "Per-token ITL", zh: "逐 token 时延"},
  unit: "ms/token",
  direction: "lower",
  formula: "Δt(k)/Δn(k), repeated Δn(k) times",
  population: "tokens after the first event of successful requests whose events all carry server token deltas",
  definition: {
    en: "Token-weighted inter-token latency: each token-bearing event after the first, with gap Δt and server-reported token delta Δn, contributes Δn samples of Δt/Δn. Null when the server did not report per-event token counts (continuous usage).",
    zh: "按 token 加权的 token 间时延：第一个事件之后每个携带 token 的事件（间隔 Δt，服务器报告的 token 增量 Δn）贡献 Δn 个 Δt/Δn 样本。服务器未报告逐事件 token 数（continuous usage）时为空。"
  },
  samples: (r, emit) => {
    if (!r.deltasKnown) return;
    requestTokenGaps(r, (gap, count) => {
      const v = ms(gap);
      for (let i = 0; i < count; i++) emit(v);
    });
  }
};

export const tokensPerEvent: RequestMetric = {
  kind: "request",
  weighting: "request",
  method: "nearest-rank",
  id: "tokens_per_event",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Tokens per SSE event", zh: "每个 SSE 事件的 token 数"},
  unit: "tokens/event",
  direction: "none",
  formula: "out / token-bearing events",
  population: "successful measured requests with known output tokens",
  definition: {
    en: "Output tokens divided by token-bearing events, per request. Above 1 means chunks carry several tokens, so chunk gaps are not token gaps.",
    zh: "每个请求的输出 token 数除以携带 token 的事件数。大于 1 表示每个块含多个 token，块间隔不等于 token 间隔。"
  },
  value: (r) => (r.out === null || r.tokenEvents === 0 || !r.chunksKnown ? null : r.out / r.tokenEvents)
};

export const CHUNK_METRICS = [interChunkMs, itlTokenMs] as const;
