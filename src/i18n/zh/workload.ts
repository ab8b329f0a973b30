import type {enWorkload} from "../en/workload.ts";

/** 负载点工作负载区块的中文字符串（issue 16），与 en/workload.ts 同键。 */
export const zhWorkload: Record<keyof typeof enWorkload, string> = {
  wlHeading: "工作负载",
  wlKind: "提示来源：{kind}",
  wlLengths: "长度（token）：请求值与实际值",
  wlWhat: "项目",
  wlRequested: "请求值",
  wlRealised: "实际值（服务器计数）",
  wlInput: "提示",
  wlOutput: "输出",
  wlMeanP50P95: "均值 · P50 · P95",
  wlPrefix: "前缀缓存：工作负载允许的上限与服务器实际命中",
  wlBound: "上限（无界缓存）",
  wlRoom: "上限（可容纳 {tokens} 个 token 的缓存，{source}）",
  wlRoomConfig: "声明的容量",
  wlRoomInFlight: "本次运行同时在途最多的提示",
  wlMeasured: "实际命中（Σ cached_tokens / Σ 提示 token）",
  wlNoCounts: "— 服务器未报告缓存 token 数",
  wlServer: "按服务器前缀缓存计数器的实际命中（该负载点窗口内 hits / queries）",
  wlApprox: "提示分段按每个填充词约 1 个 token 估算（未经分词器核对）。",
  wlTtftHit: "TTFT（缓存命中）",
  wlTtftMiss: "TTFT（未命中）",
  wlTurns: "各轮对话的 TTFT",
  wlTurn: "轮次"
};
