import type {DerivedRequest} from "../derive/request.ts";
import type {RequestMetric} from "./types.ts";
import {spanMs} from "./units.ts";

const request = {kind: "request", weighting: "request", method: "nearest-rank"} as const;
const successes = "successful measured requests";

export const ttftMs: RequestMetric = {
  ...request,
  id: "ttft_ms",
  family: "latency",
  headline: true,
  label: {en: "TTFT", zh: "首 token 时延 (TTFT)"},
  unit: "ms",
  direction: "lower",
  formula: "t_tok1 − t_start",
  population: successes,
  definition: {
    en: "Time to first token: from the request's start (its scheduled time in open-loop modes, the moment its slot freed in closed loop) to the first event carrying a non-empty delta on any output channel — content, reasoning or tool call. Role-only, empty, usage-only and finish-only events do not count.",
    zh: "首 token 时延：从请求开始（开环模式为计划发送时间，闭环为并发槽位空出的时刻）到第一个在任一输出通道（正文、推理、工具调用）携带非空增量的事件。仅含 role、空内容、仅 usage 或仅 finish 的事件不计。"
  },
  value: (r) => spanMs(r.tStart, r.tTok1)
};

export const ttftContentMs: RequestMetric = {
  ...request,
  id: "ttft_content_ms",
  family: "latency",
  label: {en: "Time to first visible token", zh: "首个可见 token 时延"},
  unit: "ms",
  direction: "lower",
  formula: "t_content1 − t_start",
  population: successes,
  definition: {
    en: "Like TTFT but ignoring reasoning deltas: the first non-empty content or tool-call delta (AIPerf's TTFO). Differs from TTFT only for reasoning models.",
    zh: "与 TTFT 相同，但不计推理增量：第一个非空正文或工具调用增量（AIPerf 的 TTFO）。仅对推理模型与 TTFT 不同。"
  },
  value: (r) => spanMs(r.tStart, r.tContent1)
};

export const ttftFirstEventMs: RequestMetric = {
  ...request,
  id: "ttft_first_event_ms",
  family: "diagnostic",
  label: {en: "Time to first SSE event", zh: "首个 SSE 事件时延"},
  unit: "ms",
  direction: "lower",
  formula: "t_ev1 − t_start",
  population: successes,
  definition: {
    en: "Time to the first SSE data event of any kind, including a role-only chunk. This is what vLLM's chat client reports as TTFT; far below ttft_ms when the server sends the role chunk early.",
    zh: "到任意类型的第一个 SSE 数据事件（包括仅含 role 的块）的时间。vLLM 聊天客户端把它当作 TTFT；服务器提前发送 role 块时远小于 ttft_ms。"
  },
  value: (r) => spanMs(r.tStart, r.tEv1)
};

export const ttftFirstByteMs: RequestMetric = {
  ...request,
  id: "ttft_first_byte_ms",
  family: "diagnostic",
  label: {en: "Time to first byte", zh: "首字节时延"},
  unit: "ms",
  direction: "lower",
  formula: "t_byte1 − t_start",
  population: successes,
  definition: {
    en: "Time to the first byte of the response body: a transport diagnostic.",
    zh: "到响应体第一个字节的时间：传输层诊断指标。"
  },
  value: (r) => spanMs(r.tStart, r.tByte1)
};

export const ttftDispatchMs: RequestMetric = {
  ...request,
  id: "ttft_dispatch_ms",
  family: "diagnostic",
  label: {en: "TTFT from dispatch", zh: "从实际发送起的 TTFT"},
  unit: "ms",
  direction: "lower",
  formula: "t_tok1 − t_disp",
  population: successes,
  definition: {
    en: "TTFT measured from the moment the request bytes were handed to the socket instead of the schedule. Kept beside ttft_ms: the gap between the two is client backlog (coordinated omission).",
    zh: "从请求字节实际交给 socket 的时刻起计的 TTFT，而非计划时间。与 ttft_ms 并列保留：两者之差就是客户端积压（协调遗漏）。"
  },
  value: (r) => spanMs(r.tDisp, r.tTok1)
};

export const e2eMs: RequestMetric = {
  ...request,
  id: "e2e_ms",
  family: "latency",
  headline: true,
  label: {en: "E2E latency", zh: "端到端时延 (E2E)"},
  unit: "ms",
  direction: "lower",
  formula: "t_tokN − t_start",
  population: successes,
  definition: {
    en: "End-to-end latency: from the request's start to its last token-bearing event. A trailing usage chunk and [DONE] do not extend it (see request_time_ms).",
    zh: "端到端时延：从请求开始到最后一个携带 token 的事件。末尾的 usage 块和 [DONE] 不计入（见 request_time_ms）。"
  },
  value: (r) => spanMs(r.tStart, r.tTokN)
};

export const e2eDispatchMs: RequestMetric = {
  ...request,
  id: "e2e_dispatch_ms",
  family: "diagnostic",
  label: {en: "E2E from dispatch", zh: "从实际发送起的 E2E"},
  unit: "ms",
  direction: "lower",
  formula: "t_tokN − t_disp",
  population: successes,
  definition: {
    en: "E2E latency measured from dispatch instead of the schedule (the view most other tools print in open-loop runs).",
    zh: "从实际发送时刻起计的端到端时延（多数其他工具在开环测试中打印的口径）。"
  },
  value: (r) => spanMs(r.tDisp, r.tTokN)
};

export const requestTimeMs: RequestMetric = {
  ...request,
  id: "request_time_ms",
  family: "diagnostic",
  label: {en: "Request time to stream close", zh: "到流关闭的请求时间"},
  unit: "ms",
  direction: "lower",
  formula: "t_end − t_start",
  population: successes,
  definition: {
    en: "From the request's start to the end of the stream, including the trailing usage chunk and [DONE].",
    zh: "从请求开始到流结束，包含末尾的 usage 块和 [DONE]。"
  },
  value: (r) => spanMs(r.tStart, r.tEnd)
};

export const dispatchLagMs: RequestMetric = {
  ...request,
  id: "dispatch_lag_ms",
  family: "load",
  label: {en: "Dispatch lag", zh: "发送滞后"},
  unit: "ms",
  direction: "lower",
  formula: "t_disp − t_sched",
  population: "all measured requests with both times",
  allMeasured: true,
  definition: {
    en: "How late the client handed a request to the socket relative to its schedule. Client backlog is evidence, not noise: it feeds the client-health gate.",
    zh: "客户端实际发送相对计划时间的滞后。客户端积压是证据而非噪声：它用于客户端健康门禁。"
  },
  value: (r: DerivedRequest) => spanMs(r.tSched, r.tDisp)
};

export const LATENCY_METRICS = [
  ttftMs,
  ttftContentMs,
  ttftFirstEventMs,
  ttftFirstByteMs,
  ttftDispatchMs,
  e2eMs,
  e2eDispatchMs,
  requestTimeMs,
  dispatchLagMs
] as const;
