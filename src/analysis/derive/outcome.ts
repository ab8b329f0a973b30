import type {TransportError} from "../schema/records.ts";

/**
 * Request outcome classes (metric-definitions.md §C.9, validity-and-faults.md §3).
 * A streamed request succeeds only with a 2xx status, at least one token-bearing event, a terminal marker
 * (`[DONE]` or a finish_reason) and no in-band error event; an embeddings request with a 2xx JSON answer
 * holding one finite vector per input, all of one length (derive/embedding.ts).
 */
export const FAILURE_CLASSES = [
  "http_error",
  "inband_error",
  "parse_error",
  "truncated_stream",
  "empty_output",
  "invalid_embedding",
  "timeout_headers",
  "timeout_body",
  "timeout_total",
  "conn_refused",
  "conn_reset",
  "client_abort",
  "transport_error"
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];
export type Outcome = "success" | FailureClass;

export const FAILURE_LABELS: Readonly<Record<FailureClass, {en: string; zh: string}>> = {
  http_error: {en: "HTTP error status", zh: "HTTP 错误状态"},
  inband_error: {en: "error event inside the stream", zh: "流内错误事件"},
  parse_error: {en: "malformed event data", zh: "事件数据格式错误"},
  truncated_stream: {en: "stream ended without [DONE] or finish_reason", zh: "流在 [DONE] 或 finish_reason 之前中断"},
  empty_output: {en: "finished without any token", zh: "结束但没有任何 token"},
  invalid_embedding: {
    en: "embeddings answer without one finite vector per input",
    zh: "嵌入响应未给每个输入一个有限值向量"
  },
  timeout_headers: {en: "timed out waiting for headers", zh: "等待响应头超时"},
  timeout_body: {en: "stream went silent past the idle timeout", zh: "流静默超过空闲超时"},
  timeout_total: {en: "request exceeded its total deadline", zh: "请求超过总时限"},
  conn_refused: {en: "connection refused or host not found", zh: "连接被拒绝或主机不存在"},
  conn_reset: {en: "connection reset", zh: "连接被重置"},
  client_abort: {en: "aborted by the client (interrupt or deadline)", zh: "客户端中止（中断或时限）"},
  transport_error: {en: "other transport error", zh: "其他传输错误"}
};

/**
 * The outcome a transport error decides on its own, or null when the answer's content decides (no error,
 * or a close timeout after a terminal marker).
 */
export function transportOutcome(e: TransportError | null): Outcome | null {
  switch (e) {
    case null:
    case "close_timeout":
      return null;
    case "timeout_headers":
    case "timeout_body":
    case "timeout_total":
    case "conn_refused":
    case "conn_reset":
    case "client_abort":
      return e;
    case "dns":
      return "conn_refused";
    case "event_too_large":
      return "parse_error";
    default:
      return "transport_error";
  }
}
