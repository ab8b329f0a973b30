import type {DerivedRequest} from "../derive/request.ts";
import type {RequestMetric} from "./types.ts";
import {ms} from "./units.ts";

const request = {kind: "request", weighting: "request", method: "nearest-rank"} as const;
const twoTokens = "successful measured requests with ≥ 2 output tokens";

/**
 * (t_tokN − t_tok1) in ms for a request with ≥ 2 known output tokens and a positive decode span; else null.
 * t_tokN is where the counted tokens end (derive/request.ts), so the span and the count cover the same tokens.
 */
export function decodeSpanMs(r: DerivedRequest): number | null {
  if (r.out === null || r.out < 2 || r.tTok1 === null || r.tTokN === null) return null;
  const span = ms(r.tTokN - r.tTok1);
  return span > 0 ? span : null;
}

export const tpotMs: RequestMetric = {
  ...request,
  id: "tpot_ms",
  streamsOnly: true,
  family: "speed",
  headline: true,
  label: {en: "TPOT", zh: "每输出 token 时间 (TPOT)"},
  unit: "ms/token",
  direction: "lower",
  formula: "(e2e − ttft) / (out − 1)",
  population: twoTokens,
  definition: {
    en: "Time per output token after the first: decode time divided by the tokens after the first. Output tokens come from the server's usage, never from chunk counts. Null for requests with fewer than 2 tokens.",
    zh: "首个 token 之后每个输出 token 的时间：解码时间除以首 token 之后的 token 数。输出 token 数取自服务器 usage，从不用块数代替。少于 2 个 token 的请求为空值。"
  },
  value: (r) => {
    const span = decodeSpanMs(r);
    return span === null ? null : span / (r.out! - 1);
  }
};

export const decodeTokS: RequestMetric = {
  ...request,
  id: "decode_tok_s",
  streamsOnly: true,
  family: "speed",
  headline: true,
  label: {en: "Pure decode speed", zh: "纯解码速度"},
  unit: "tok/s",
  direction: "higher",
  formula: "(out − 1) / (e2e − ttft)",
  population: twoTokens,
  definition: {
    en: "Steady-state generation speed of one request, first token excluded: the primary number for comparing decode speed (e.g. MTP on vs off). Read it with long outputs; with short outputs the first token dominates. It counts every output token, thinking included (answer_decode_tok_s counts the answer alone).",
    zh: "单个请求的稳态生成速度（不含首 token）：比较解码速度（如 MTP 开/关）的主要指标。应在长输出下解读；输出很短时首 token 占主导。它计入全部输出 token（含思考）；answer_decode_tok_s 只计回答部分。"
  },
  value: (r) => {
    const span = decodeSpanMs(r);
    return span === null ? null : ((r.out! - 1) * 1000) / span;
  }
};

export const itlMs: RequestMetric = {
  ...request,
  id: "itl_ms",
  streamsOnly: true,
  family: "speed",
  headline: true,
  label: {en: "ITL (per token)", zh: "token 间时延 (ITL)"},
  unit: "ms/token",
  direction: "lower",
  formula: "1000 / decode_tok_s",
  population: twoTokens,
  definition: {
    en: "Inter-token latency per request, first token excluded (the GenAI-Perf/AIPerf convention; equal to TPOT). Not LLMPerf's ITL, which includes TTFT, and not vLLM's, which is per SSE chunk (see inter_chunk_ms).",
    zh: "每个请求的 token 间时延，不含首 token（GenAI-Perf/AIPerf 口径，数值等于 TPOT）。不同于包含 TTFT 的 LLMPerf ITL，也不同于按 SSE 块计算的 vLLM ITL（见 inter_chunk_ms）。"
  },
  value: (r) => {
    const span = decodeSpanMs(r);
    return span === null ? null : span / (r.out! - 1);
  }
};

export const prefillTokS: RequestMetric = {
  ...request,
  id: "prefill_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Prefill speed (client-observed)", zh: "预填充速度（客户端观测）"},
  unit: "tok/s",
  direction: "higher",
  formula: "(in − cached) / (t_tok1 − t_disp)",
  population: "successful measured requests with known prompt tokens",
  definition: {
    en: "Prompt tokens the server had to compute (cached prompt tokens excluded when the server reports them) over the span from the request's bytes in the socket to its first token. Client backlog and connection setup are outside that span; the server's own queueing is inside it, so under load this is a lower bound on the server's prefill rate (compare server_prefill_tok_s where the server reports it).",
    zh: "服务器需要计算的提示 token 数（服务器报告缓存 token 时将其排除），除以从请求字节进入 socket 到首 token 的时间。客户端积压与连接建立不在此区间内；服务器自身的排队在其中，因此在负载下它是服务器预填充速率的下界（若服务器报告，可与 server_prefill_tok_s 对照）。"
  },
  value: (r) => {
    if (r.in === null || r.tDisp === null || r.tTok1 === null) return null;
    const computed = r.in - (r.cached ?? 0);
    const t = ms(r.tTok1 - r.tDisp);
    return t > 0 && computed > 0 ? (computed * 1000) / t : null;
  }
};

export const serverPrefillTokS: RequestMetric = {
  ...request,
  id: "server_prefill_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Prefill speed (server-reported)", zh: "预填充速度（服务器报告）"},
  unit: "tok/s",
  direction: "higher",
  formula: "timings.prompt_n / timings.prompt_ms",
  population: "successful measured requests whose server reported timings (llama.cpp)",
  definition: {
    en: "The server's own prefill rate for the request, from the timings it streams (llama.cpp: prompt tokens evaluated, cached ones excluded, over its prompt-processing time). No queueing or network is inside it. Shown beside the client-observed prefill_tok_s.",
    zh: "服务器自身报告的该请求预填充速率，来自其流中的 timings（llama.cpp：实际计算的提示 token 数（不含缓存）除以提示处理时间）。不含排队或网络。与客户端观测的 prefill_tok_s 并列显示。"
  },
  value: (r) => {
    const t = r.record.serverTimings;
    if (t === null || t.promptN === null || t.promptMs === null || !(t.promptMs > 0) || !(t.promptN > 0)) return null;
    return (t.promptN * 1000) / t.promptMs;
  }
};

export const serverDecodeTokS: RequestMetric = {
  ...request,
  id: "server_decode_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Decode speed (server-reported)", zh: "解码速度（服务器报告）"},
  unit: "tok/s",
  direction: "higher",
  formula: "timings.predicted_n / timings.predicted_ms",
  population: "successful measured requests whose server reported timings (llama.cpp)",
  definition: {
    en: "The server's own decode rate (llama.cpp's predicted_per_second). It counts the first generated token in the numerator while its time covers the steps after it, so for n tokens our decode_tok_s reads (n − 1)/n of it — a definition difference, not an error.",
    zh: "服务器自身的解码速率（llama.cpp 的 predicted_per_second）。它的分子包含首个生成 token，而时间只覆盖其后的步骤，因此 n 个 token 时本工具的 decode_tok_s 约为它的 (n − 1)/n——是口径差异，不是误差。"
  },
  value: (r) => {
    const t = r.record.serverTimings;
    if (t === null || t.predictedN === null || t.predictedMs === null || !(t.predictedMs > 0) || !(t.predictedN > 0))
      return null;
    return (t.predictedN * 1000) / t.predictedMs;
  }
};

export const e2eOutputTokS: RequestMetric = {
  ...request,
  id: "e2e_output_tok_s",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Output tok/s incl. TTFT (legacy 'total throughput')", zh: "含 TTFT 的输出速度（旧口径“总吞吐”）"},
  unit: "tok/s",
  direction: "higher",
  formula: "out / e2e",
  population: "successful measured requests with known output tokens",
  definition: {
    en: "The ModelRun console's legacy 'total throughput' (总吞吐) of one request: output tokens over E2E, first token included. For compatibility only — it hides TTFT cost and must not be used to judge speculative decoding. Not input_output_throughput_tok_s, which is a run-level rate of prompt plus output tokens.",
    zh: "ModelRun 控制台的旧口径“总吞吐”（单请求）：输出 token 数除以 E2E（含首 token）。仅为兼容保留——它掩盖 TTFT 代价，不能用来评判投机解码。它不是 input_output_throughput_tok_s（后者是提示加输出 token 的运行级速率）。"
  },
  value: (r) => {
    if (r.out === null || r.tStart === null || r.tTokN === null) return null;
    const t = ms(r.tTokN - r.tStart);
    return t > 0 ? (r.out * 1000) / t : null;
  }
};

export const interactivityTokS: RequestMetric = {
  ...request,
  id: "interactivity_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Interactivity (1000/TPOT)", zh: "交互速度 (1000/TPOT)"},
  unit: "tok/s/user",
  direction: "higher",
  formula: "1000 / tpot_ms, per request",
  population: twoTokens,
  definition: {
    en: "Tokens per second one user sees after the first token, per request (InferenceX's axis, summarized with its own percentiles: InferenceX's '1000/p99 TPOT' is our p1 of this).",
    zh: "单个用户在首 token 之后看到的每秒 token 数，按请求计算（InferenceX 的坐标轴；本指标用自身分位数汇总：InferenceX 的“1000/p99 TPOT”相当于本指标的 p1）。"
  },
  value: (r) => {
    const span = decodeSpanMs(r);
    return span === null ? null : ((r.out! - 1) * 1000) / span;
  }
};

export const outputTokens: RequestMetric = {
  ...request,
  id: "output_tokens",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Output tokens", zh: "输出 token 数"},
  unit: "tokens",
  direction: "none",
  formula: "usage.completion_tokens",
  population: "successful measured requests with a token count",
  definition: {
    en: "Output tokens per request as the server reported them (reasoning included).",
    zh: "服务器报告的每个请求输出 token 数（含推理 token）。"
  },
  value: (r) => r.out
};

export const inputTokens: RequestMetric = {
  ...request,
  id: "input_tokens",
  family: "diagnostic",
  label: {en: "Prompt tokens", zh: "提示 token 数"},
  unit: "tokens",
  direction: "none",
  formula: "usage.prompt_tokens",
  population: "successful measured requests with a prompt token count",
  definition: {
    en: "Prompt tokens per request as the server reported them.",
    zh: "服务器报告的每个请求提示 token 数。"
  },
  value: (r) => r.in
};

export const SPEED_METRICS = [
  tpotMs,
  itlMs,
  decodeTokS,
  prefillTokS,
  serverPrefillTokS,
  serverDecodeTokS,
  interactivityTokS,
  e2eOutputTokS,
  outputTokens,
  inputTokens
] as const;
