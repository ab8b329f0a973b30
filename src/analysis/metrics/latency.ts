import type {DerivedRequest} from "../derive/request.ts";
import type {RequestMetric} from "./types.ts";
import {spanMs} from "./units.ts";

const request = {kind: "request", weighting: "request", method: "nearest-rank"} as const;
const successes = "successful measured requests";

export const ttftMs: RequestMetric = {
  ...request,
  id: "ttft_ms",
  streamsOnly: true,
  family: "latency",
  headline: true,
  label: {en: "TTFT", zh: "首 token 时延 (TTFT)"},
  unit: "ms",
  direction: "lower",
  formula: "t_tok1 − t_start",
  population: successes,
  definition: {
    en: "Time to first token: from the request's start (its scheduled time in open-loop modes, the moment its slot freed in closed loop) to the first event carrying a non-empty delta on any output channel — content, reasoning or tool call. Role-only, empty, usage-only and finish-only events do not count, except where the server's own count says they carried a token: an empty-text event with a per-event token delta, the empty-text events of a stream whose every token arrived as empty text (held-back partial UTF-8), or the finish chunk of a model that stopped at once.",
    zh: "首 token 时延：从请求开始（开环模式为计划发送时间，闭环为并发槽位空出的时刻）到第一个在任一输出通道（正文、推理、工具调用）携带非空增量的事件。仅含 role、空内容、仅 usage 或仅 finish 的事件不计，除非服务器自己的计数表明它们携带了 token：带逐事件 token 增量的空文本事件、全部 token 都以空文本到达（被扣留的不完整 UTF-8）的流中的空文本事件，或立即停止的模型的 finish 块。"
  },
  value: (r) => spanMs(r.tStart, r.tTok1)
};

export const ttftContentMs: RequestMetric = {
  ...request,
  id: "ttft_content_ms",
  streamsOnly: true,
  family: "latency",
  label: {en: "Time to first visible token", zh: "首个可见 token 时延"},
  unit: "ms",
  direction: "lower",
  formula: "t_content1 − t_start",
  population: successes,
  definition: {
    en: "Like TTFT but ignoring reasoning deltas: the first non-empty content or tool-call delta (AIPerf's TTFO). Differs from TTFT for reasoning models, and where the first token's text is held back (a token the server counts, streamed as empty text, which TTFT counts and this does not).",
    zh: "与 TTFT 相同，但不计推理增量：第一个非空正文或工具调用增量（AIPerf 的 TTFO）。对推理模型与 TTFT 不同；首个 token 的文本被扣留时（服务器计数但以空文本流出的 token，TTFT 计入而本指标不计入）也不同。"
  },
  value: (r) => spanMs(r.tStart, r.tContent1)
};

export const ttftFirstEventMs: RequestMetric = {
  ...request,
  id: "ttft_first_event_ms",
  streamsOnly: true,
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
  streamsOnly: true,
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

/** Where an answer ends for E2E: its counted tokens (streams), or its body (non-streamed embeddings). */
const answerEnd = (r: DerivedRequest): number | null => (r.nonStreamed ? r.tEnd : r.tTokN);

export const e2eMs: RequestMetric = {
  ...request,
  id: "e2e_ms",
  family: "latency",
  headline: true,
  label: {en: "E2E latency", zh: "端到端时延 (E2E)"},
  unit: "ms",
  direction: "lower",
  formula: "t_tokN − t_start (t_tokN: where the counted tokens end; embeddings: the end of the answer)",
  population: successes,
  definition: {
    en: "End-to-end latency: from the request's start to the event where its counted output tokens end — the last token-bearing event, or the finish chunk after it when that chunk carries the end-of-sequence token the server counts (a natural stop). A trailing usage chunk and [DONE] do not extend it (see request_time_ms). A non-streamed answer (embeddings) ends where its body ends.",
    zh: "端到端时延：从请求开始到其计数的输出 token 结束的事件——最后一个携带 token 的事件；若其后的 finish 块携带了服务器计数的结束 token（自然停止），则到该 finish 块。末尾的 usage 块和 [DONE] 不计入（见 request_time_ms）。非流式响应（嵌入）以其响应体结束为止。"
  },
  value: (r) => spanMs(r.tStart, answerEnd(r))
};

export const e2eDispatchMs: RequestMetric = {
  ...request,
  id: "e2e_dispatch_ms",
  family: "diagnostic",
  label: {en: "E2E from dispatch", zh: "从实际发送起的 E2E"},
  unit: "ms",
  direction: "lower",
  formula: "t_tokN − t_disp (embeddings: t_end − t_disp)",
  population: successes,
  definition: {
    en: "E2E latency measured from dispatch instead of the schedule (the view most other tools print in open-loop runs).",
    zh: "从实际发送时刻起计的端到端时延（多数其他工具在开环测试中打印的口径）。"
  },
  value: (r) => spanMs(r.tDisp, answerEnd(r))
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
    en: "From the request's start to the end of the stream, including the trailing usage chunk and [DONE]. A stream the server kept open after its terminal marker ends at its last event here (the hang is gated by G29).",
    zh: "从请求开始到流结束，包含末尾的 usage 块和 [DONE]。服务器在结束标记后仍保持打开的流，此处以其最后一个事件为结束（挂起由 G29 门禁判定）。"
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
  formula: "t_call − t_sched (bundle v1: t_disp − t_sched)",
  population: "all measured requests with both times",
  allMeasured: true,
  definition: {
    en: "How late the client started a request relative to its schedule: the client's own lateness, without the network's share (connect and TLS are connection_setup_ms). Client backlog is evidence, not noise: it feeds the client-health and arrival-fidelity gates. Bundles of format v1 did not record the start, so there it runs to the dispatch and includes connect time.",
    zh: "客户端开始发送请求相对计划时间的滞后：仅客户端自身的延迟，不含网络部分（连接与 TLS 见 connection_setup_ms）。客户端积压是证据而非噪声：它用于客户端健康与到达保真度门禁。v1 格式的证据包未记录开始时刻，因此其值算到实际发送，包含连接时间。"
  },
  value: (r: DerivedRequest) => spanMs(r.tSched, r.tCall ?? r.tDisp)
};

export const connectionSetupMs: RequestMetric = {
  ...request,
  id: "connection_setup_ms",
  family: "diagnostic",
  label: {en: "Connection setup", zh: "连接建立"},
  unit: "ms",
  direction: "lower",
  formula: "t_disp − t_call",
  population: "all measured requests with both times (bundle v2)",
  allMeasured: true,
  definition: {
    en: "From the client's start of a request to its bytes in the socket: DNS, TCP connect, TLS and waiting for a pooled connection. Near zero on a reused keep-alive connection; one network round trip (plus TLS) on a fresh one. It is part of TTFT — what a user waits — and shown apart so that a slow network is not mistaken for a slow server.",
    zh: "从客户端开始一个请求到其字节进入 socket：DNS、TCP 连接、TLS 以及等待连接池中的连接。复用 keep-alive 连接时接近零；新连接为一个网络往返（加 TLS）。它是 TTFT 的一部分（用户确实要等待），单独列出以免把慢网络误认为慢服务器。"
  },
  value: (r) => spanMs(r.tCall, r.tDisp)
};

export const connectMs: RequestMetric = {
  ...request,
  id: "connect_ms",
  family: "diagnostic",
  label: {en: "TCP connect", zh: "TCP 连接"},
  unit: "ms",
  direction: "lower",
  formula: "t_conn − t_call",
  population: "measured requests that opened a fresh connection (bundle v2)",
  allMeasured: true,
  definition: {
    en: "Time to establish a fresh TCP connection (DNS included), from the client's start of the request. Absent for requests sent on a reused connection.",
    zh: "建立新 TCP 连接所用时间（含 DNS），从客户端开始请求算起。复用连接发送的请求没有此值。"
  },
  value: (r) => spanMs(r.tCall, r.tConn)
};

export const tlsMs: RequestMetric = {
  ...request,
  id: "tls_ms",
  family: "diagnostic",
  label: {en: "TLS handshake", zh: "TLS 握手"},
  unit: "ms",
  direction: "lower",
  formula: "t_tls − t_conn",
  population: "measured https requests that opened a fresh connection (bundle v2)",
  allMeasured: true,
  definition: {
    en: "Time of the TLS handshake on a fresh https connection, after TCP connect.",
    zh: "新 https 连接在 TCP 连接之后的 TLS 握手时间。"
  },
  value: (r) => spanMs(r.tConn, r.tTls)
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
  dispatchLagMs,
  connectionSetupMs,
  connectMs,
  tlsMs
] as const;
