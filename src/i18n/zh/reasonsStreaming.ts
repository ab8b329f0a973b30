/** Chinese for the streaming gates' reasons (G9, G31, G16, stream close; see reasons.ts). */
import type {Phrase} from "../localize.ts";

export const zhStreamingReasons: readonly Phrase[] = [
  // gates/streaming.ts
  {en: "{n} responses contain inline <think> tags inside content", zh: "{n} 个响应在 content 中内嵌 <think> 标签"},
  {
    en: "{n} requests streamed a reasoning channel (ttft_ms counts it; ttft_content_ms does not)",
    zh: "{n} 个请求流式输出了推理通道（ttft_ms 计入它；ttft_content_ms 不计入）"
  },
  {en: "no reasoning channel seen", zh: "未见推理通道"},
  {en: "no successful streamed request to inspect", zh: "没有可检查的成功流式请求"},
  {
    en: "no request stops at max_tokens before its first answer token",
    zh: "没有请求在首个回答 token 之前就因 max_tokens 停止"
  },
  {
    en: "{c}/{n} reasoning requests stopped at max_tokens before their first answer token (e.g. {eg...})",
    zh: "{c}/{n} 个推理请求在首个回答 token 之前因 max_tokens 停止（例如 {eg}）"
  },
  {en: "every one of {n} reasoning requests reached its answer", zh: "全部 {n} 个推理请求都产出了回答"},
  {en: "0 buffered responses the client does not explain", zh: "0 个客户端无法解释的缓冲响应"},
  {en: "tokens arrived spread over events", zh: "token 分散在多个事件中到达"},
  {en: "{n} of them as the client resumed from a stall", zh: "其中 {n} 个出现在客户端从停顿中恢复时"},
  {
    en: "{text...}, each as the client's event loop resumed from a stall: the client's, see G6",
    zh: "{text}，均出现在客户端事件循环从停顿中恢复时：属于客户端问题，见 G6"
  },
  {en: "≤ {pct} % failed samples", zh: "失败采样 ≤ {pct} %"},
  {en: "{name}: not captured ({why...})", zh: "{name}：未采集（{why}）"},
  {en: "{name}: not captured", zh: "{name}：未采集"},
  {en: "{name}: {ok}/{n} ok", zh: "{name}：{ok}/{n} 成功"},
  {en: "closed within {ms} ms of the terminal marker", zh: "在结束标记后 {ms} ms 内关闭"},
  {
    en: "all {n} successful streams closed after their terminal marker",
    zh: "全部 {n} 个成功的流在结束标记后关闭"
  },
  {
    en: "no successful stream recorded its terminal marker (an import keeps the source's verdict, not the stream's end)",
    zh: "没有成功的流记录了结束标记（导入保留的是来源的判定，而不是流的结束）"
  },
  {
    en: "all {k} of {n} successful streams that recorded a terminal marker closed after it",
    zh: "记录了结束标记的 {k} 个（共 {n} 个）成功流均在其后关闭"
  },
  {
    en: "{n} torn final line(s) in a bundle its manifest calls complete (a crashed run is sealed as partial, its torn tail cut)",
    zh: "清单称为完整的证据包中有 {n} 个被截断的末行（崩溃的运行会被封存为部分完成，并切掉被截断的末尾）"
  }
];
