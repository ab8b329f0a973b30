import type {PointTotals, RunMetric, RunValue} from "./types.ts";

const run = {kind: "run", weighting: "run"} as const;

function perWindow(p: PointTotals, count: number): RunValue {
  if (p.windowS === null || p.windowS <= 0)
    return {value: null, reason: p.windowReason ?? "measurement window unknown"};
  return {value: count / p.windowS};
}

export const requestThroughputRps: RunMetric = {
  ...run,
  id: "request_throughput_rps",
  family: "throughput",
  headline: true,
  label: {en: "Request throughput", zh: "请求吞吐"},
  unit: "req/s",
  direction: "higher",
  formula: "successful / window",
  population: "measured requests",
  definition: {
    en: "Successful requests per second over the measurement window: from the scheduled time of the first measured request to the end of the last measured request. Never the sum of latencies.",
    zh: "测量窗口内每秒成功请求数：窗口从第一个被测请求的计划时间到最后一个被测请求结束。绝不用时延之和。"
  },
  value: (p) => (p.measured === 0 ? {value: null, reason: "no measured requests"} : perWindow(p, p.successes))
};

export const outputThroughputTokS: RunMetric = {
  ...run,
  id: "output_throughput_tok_s",
  streamsOnly: true,
  family: "throughput",
  headline: true,
  label: {en: "Output token throughput", zh: "输出 token 吞吐"},
  unit: "tok/s",
  direction: "higher",
  formula: "Σ out(successful) / window",
  population: "successful measured requests",
  definition: {
    en: "Output tokens of successful requests per second of the measurement window. Null (not an undercount) when any counted request lacks a token count.",
    zh: "测量窗口内每秒成功请求的输出 token 数。只要有一个计入的请求缺少 token 数，就为空值（而不是少算）。"
  },
  value: (p) => {
    if (p.successes === 0) return {value: null, reason: "no successful requests"};
    if (p.successesMissingOut > 0)
      return {value: null, reason: `${p.successesMissingOut} successful requests lack an output token count`};
    return perWindow(p, p.outputTokens);
  }
};

export const inputOutputThroughputTokS: RunMetric = {
  ...run,
  id: "input_output_throughput_tok_s",
  streamsOnly: true,
  family: "throughput",
  label: {en: "Input + output token throughput", zh: "输入+输出 token 吞吐"},
  unit: "tok/s",
  direction: "higher",
  formula: "Σ (in + out)(successful) / window",
  population: "successful measured requests",
  definition: {
    en: "Prompt plus output tokens of successful requests per second of the measurement window (vLLM's total_token_throughput); null when any count is missing. Until analyzer version 2 it was called total_throughput_tok_s, a name easily confused with the ModelRun console's legacy 总吞吐 (output tokens over E2E per request, our e2e_output_tok_s); `analyze --json` kept that key as an alias in analyzer 2 only.",
    zh: "测量窗口内每秒成功请求的提示与输出 token 总数（即 vLLM 的 total_token_throughput）；任一计数缺失时为空值。分析器版本 2 之前名为 total_throughput_tok_s，容易与 ModelRun 控制台的旧口径“总吞吐”（单请求输出 token 除以 E2E，即本工具的 e2e_output_tok_s）混淆；`analyze --json` 仅在分析器版本 2 中保留旧键名作为别名。"
  },
  value: (p) => {
    if (p.successes === 0) return {value: null, reason: "no successful requests"};
    const missing = p.successesMissingOut + p.successesMissingIn;
    if (missing > 0) return {value: null, reason: `${missing} token counts missing among successful requests`};
    return perWindow(p, p.outputTokens + p.inputTokens);
  }
};

export const inputThroughputTokS: RunMetric = {
  ...run,
  id: "input_throughput_tok_s",
  family: "throughput",
  label: {en: "Input token throughput", zh: "输入 token 吞吐"},
  unit: "tok/s",
  direction: "higher",
  formula: "Σ in(successful) / window",
  population: "successful measured requests",
  definition: {
    en: "Prompt tokens of successful requests, as the server counts them, per second of the measurement window: the throughput of an embeddings endpoint, and the prompt side of a completion load (cached prompt tokens included). Null when any successful request lacks a prompt count.",
    zh: "测量窗口内每秒成功请求的提示 token 数（按服务端计数）：嵌入端点的吞吐，也是补全负载的提示侧（含命中缓存的提示 token）。只要有一个成功请求缺少提示 token 数，就为空值。"
  },
  value: (p) => {
    if (p.successes === 0) return {value: null, reason: "no successful requests"};
    if (p.successesMissingIn > 0)
      return {value: null, reason: `${p.successesMissingIn} successful requests lack a prompt token count`};
    return perWindow(p, p.inputTokens);
  }
};

export const successRatePct: RunMetric = {
  ...run,
  id: "success_rate_pct",
  family: "quality_of_service",
  headline: true,
  label: {en: "Success rate", zh: "成功率"},
  unit: "%",
  direction: "higher",
  formula: "100 · successful / measured",
  population: "measured requests",
  definition: {
    en: "Share of measured requests that succeeded: HTTP 2xx, at least one token, a terminal marker ([DONE] or finish_reason) and no error event in the stream.",
    zh: "被测请求中成功的比例：HTTP 2xx、至少一个 token、有结束标记（[DONE] 或 finish_reason）且流内无错误事件。"
  },
  value: (p) =>
    p.measured === 0 ? {value: null, reason: "no measured requests"} : {value: (100 * p.successes) / p.measured}
};

export const goodputPct: RunMetric = {
  ...run,
  id: "goodput_pct",
  family: "quality_of_service",
  headline: true,
  label: {en: "Goodput", zh: "有效产出率 (Goodput)"},
  unit: "%",
  direction: "higher",
  formula: "100 · good / measured (failures and unjudgeable requests stay in the denominator)",
  population: "all measured requests, failures included",
  definition: {
    en: "Share of all measured requests — failed and timed-out ones included — that succeeded and met every per-request SLO (TTFT, ITL, E2E). A request with fewer than 2 output tokens has no ITL and does not pass by default. A request whose SLO cannot be judged (output token count unknown) is not shown to be good: it stays in the denominator and counts as a miss, and their number is stated (the value is then a lower bound). When none of the successful requests can be judged, goodput is unknown (null), not 0.",
    zh: "全部被测请求（含失败和超时）中，成功且满足每一项单请求 SLO（TTFT、ITL、E2E）的比例。输出少于 2 个 token 的请求没有 ITL，默认不计为达标。无法判定 SLO 的请求（输出 token 数未知）不能证明达标：它留在分母中并计为未达标，并注明其数量（此时数值是下界）。若所有成功请求都无法判定，goodput 为未知（null）而不是 0。"
  },
  value: (p) => {
    if (p.measured === 0) return {value: null, reason: "no measured requests"};
    return withUnjudged(p, {value: (100 * p.good) / p.measured});
  }
};

/**
 * Unjudgeable requests stay in the denominator as misses; the value says how many (a lower bound then).
 * When no successful request could be judged at all, the value is unknown, not 0.
 */
function withUnjudged(p: PointTotals, v: RunValue): RunValue {
  if (p.unjudged === 0 || v.value === null) return v;
  if (p.unjudged === p.successes)
    return {
      value: null,
      reason: `none of the ${p.successes} successful requests can be judged: output token count unknown`
    };
  return {
    ...v,
    note: `lower bound: ${p.unjudged} successful requests could not be judged (output token count unknown) and count as misses`
  };
}

export const goodputRps: RunMetric = {
  ...run,
  id: "goodput_rps",
  family: "quality_of_service",
  label: {en: "Goodput rate", zh: "有效产出速率"},
  unit: "req/s",
  direction: "higher",
  formula: "good / window",
  population: "measured requests",
  definition: {
    en: "Requests per second that succeeded and met every SLO, over the measurement window.",
    zh: "测量窗口内每秒成功且满足所有 SLO 的请求数。"
  },
  value: (p) => {
    if (p.measured === 0) return {value: null, reason: "no measured requests"};
    return withUnjudged(p, perWindow(p, p.good));
  }
};

export const achievedConcurrency: RunMetric = {
  ...run,
  id: "achieved_concurrency",
  family: "load",
  label: {en: "Achieved concurrency", zh: "实际并发"},
  unit: "requests",
  direction: "none",
  formula: "∫ in-flight dt / window",
  population: "measured requests",
  definition: {
    en: "Time-weighted mean number of measured requests in flight (dispatch to stream end) across the measurement window.",
    zh: "测量窗口内在途被测请求数（从发送到流结束）的时间加权平均。"
  },
  value: (p) =>
    p.meanInFlight === null ? {value: null, reason: p.windowReason ?? "request times unknown"} : {value: p.meanInFlight}
};

export const achievedRateRps: RunMetric = {
  ...run,
  id: "achieved_rate_rps",
  family: "load",
  label: {en: "Achieved arrival rate", zh: "实际到达速率"},
  unit: "req/s",
  direction: "none",
  formula: "(n − 1) / (t_disp,last − t_disp,first)",
  population: "measured requests",
  definition: {
    en: "Rate at which the client actually dispatched measured requests. Compared with the target rate by the achieved-load gate.",
    zh: "客户端实际发送被测请求的速率。达成负载门禁会将其与目标速率比较。"
  },
  value: (p) =>
    p.dispatchRate === null ? {value: null, reason: "fewer than 2 dispatch times"} : {value: p.dispatchRate}
};

export const interactivityShareTokS: RunMetric = {
  ...run,
  id: "interactivity_share_tok_s",
  streamsOnly: true,
  family: "speed",
  label: {en: "Throughput per user (share)", zh: "每用户吞吐（均摊）"},
  unit: "tok/s/user",
  direction: "higher",
  formula: "output_throughput_tok_s / achieved_concurrency",
  population: "measured requests",
  definition: {
    en: "Output throughput divided by the mean number of requests in flight (vLLM's Pareto-plot convention). Includes TTFT time; differs from interactivity_tok_s.",
    zh: "输出吞吐除以平均在途请求数（vLLM Pareto 图的口径）。包含 TTFT 时间；与 interactivity_tok_s 不同。"
  },
  value: (p) => {
    const out = outputThroughputTokS.value(p);
    if (out.value === null) return out;
    if (p.meanInFlight === null || p.meanInFlight <= 0) return {value: null, reason: "concurrency unknown"};
    return {value: out.value / p.meanInFlight};
  }
};

export const tokensPerChunk: RunMetric = {
  ...run,
  id: "tokens_per_chunk",
  streamsOnly: true,
  family: "diagnostic",
  label: {en: "Tokens per chunk", zh: "每块 token 数"},
  unit: "tokens/event",
  direction: "none",
  formula: "Σ out / Σ token-bearing events",
  population: "successful measured requests",
  definition: {
    en: "Output tokens per token-bearing SSE event across the point. Above 1: chunk gaps (inter_chunk_ms) are not per-token times.",
    zh: "整个负载点每个携带 token 的 SSE 事件的输出 token 数。大于 1 时块间隔（inter_chunk_ms）不是每 token 时间。"
  },
  value: (p) => {
    if (p.chunksUnknown > 0)
      return {
        value: null,
        reason: `${p.chunksUnknown} imported requests record only their first and last token events`
      };
    if (p.tokenEvents === 0) return {value: null, reason: "no token-bearing events"};
    if (p.successesMissingOut > 0) return {value: null, reason: "output token counts missing"};
    return {value: p.outputTokens / p.tokenEvents};
  }
};

export const windowS: RunMetric = {
  ...run,
  id: "window_s",
  family: "load",
  label: {en: "Measurement window", zh: "测量窗口"},
  unit: "s",
  direction: "none",
  formula: "Σ over repeats of (max t_end − min t_start) over measured requests",
  population: "measured requests",
  definition: {
    en: "Length of the measurement window used by every rate: from the first measured request's start to the last measured request's end, per repeat; over several repeats the sum of their windows (the pauses between repeats are not measured time).",
    zh: "所有速率使用的测量窗口长度：每轮从第一个被测请求开始到最后一个被测请求结束；多轮时为各轮窗口之和（轮与轮之间的停顿不是测量时间）。"
  },
  value: (p) => (p.windowS === null ? {value: null, reason: p.windowReason ?? "unknown"} : {value: p.windowS})
};

export const RUN_METRICS = [
  requestThroughputRps,
  outputThroughputTokS,
  inputOutputThroughputTokS,
  inputThroughputTokS,
  successRatePct,
  goodputPct,
  goodputRps,
  achievedConcurrency,
  achievedRateRps,
  interactivityShareTokS,
  tokensPerChunk,
  windowS
] as const;
