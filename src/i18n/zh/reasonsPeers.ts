/** Chinese for peer-import notes and definitions, and the metric populations (see reasons.ts). */
import type {Phrase} from "../localize.ts";

export const zhPeerReasons: readonly Phrase[] = [
  // peer imports (peers/**): notes and the tool's own definitions
  {en: "canonical: {reason...}", zh: "规范口径：{reason}"},
  {en: "imported: {reason...}", zh: "导入数据：{reason}"},
  {
    en: "the run's start and end are in neither file",
    zh: "两个文件中都没有运行的开始与结束时间"
  },
  {
    en: "the run's start and end are not in the per-request data",
    zh: "逐请求数据中没有运行的开始与结束时间"
  },
  {en: "per-request latency not recorded", zh: "未记录逐请求时延"},
  {en: "no bound computed for this statistic", zh: "该统计量未计算界限"},
  {
    en: "their duration is kept as the window (the file has no run start and end)",
    zh: "沿用其时长作为窗口（文件中没有运行开始与结束时间）"
  },
  {
    en: "window derived as Σ output tokens / results_mean_output_throughput_token_per_s = {s} s",
    zh: "窗口由 Σ 输出 token / results_mean_output_throughput_token_per_s 推得 = {s} s"
  },
  // a comparison note says ours and theirs in two clauses ("; "), each its own phrase
  {en: "ours is request-weighted", zh: "我们按请求加权"},
  {en: "theirs token-weighted", zh: "对方按 token 加权"},
  {
    en: "ours is a count over our measurement window (Σ/window), not the mean of a time-weighted rate distribution",
    zh: "我们是测量窗口上的计数（Σ/窗口），而不是按时间加权的速率分布的均值"
  },
  {
    en: "window: GuideLLM {v} keeps no measured window in the file (its time-weighted rates cannot be rebuilt)",
    zh: "window：GuideLLM {v} 未在文件中保留测量窗口（无法重建其按时间加权的速率）"
  },
  {en: "percentiles R-7 vs nearest rank", zh: "百分位 R-7 对比最近秩"},
  {en: "std ddof 1 vs 0", zh: "标准差 ddof 1 对比 0"},
  {
    en: "numpy R-7 percentiles vs our nearest rank (with small-n withholding)",
    zh: "numpy R-7 百分位对比我们的最近秩（小样本时不发布）"
  },
  {en: "our e2e_ms ends at the last token", zh: "我们的 e2e_ms 止于最后一个 token"},
  {en: "theirs after the stream loop ended", zh: "对方止于流循环结束之后"},
  {en: "our e2e_ms ends at the last token event", zh: "我们的 e2e_ms 止于最后一个 token 事件"},
  {en: "theirs when their client stopped the clock", zh: "对方止于其客户端停止计时之时"},
  {en: "our decode span ends at the last token event", zh: "我们的解码区间止于最后一个 token 事件"},
  {en: "theirs at the end of the request as the client timed it", zh: "对方止于客户端计时的请求结束"},
  {en: "their ITL includes TTFT (≈ e2e/out)", zh: "对方的 ITL 包含 TTFT（≈ e2e/out）"},
  {en: "our tpot_ms = (e2e − ttft)/(out − 1) excludes it", zh: "我们的 tpot_ms = (e2e − ttft)/(out − 1) 不含 TTFT"},
  {en: "their TPOT includes TTFT (a legacy name)", zh: "对方的 TPOT 包含 TTFT（沿用旧名）"},
  {en: "our tpot_ms excludes the first token and is request-weighted", zh: "我们的 tpot_ms 不含首 token，且按请求加权"},
  {en: "ours divides output tokens by the time to the last token", zh: "我们用输出 token 除以到最后一个 token 的时间"},
  {
    en: "theirs its count (chunks before 2024-04) by the time to the end of the stream",
    zh: "对方用其计数（2024-04 之前为块数）除以到流结束的时间"
  },
  {en: "mean latency ≥ mean of (ttft + Σ chunk gaps)", zh: "平均时延 ≥ (ttft + Σ 块间隔) 的均值"},
  {en: "latency unknown per request", zh: "逐请求时延未知"},
  {
    en: "the tails total {ms} ms over {n} requests (from the reported mean latency), shared in every possible way",
    zh: "{n} 个请求的尾段合计 {ms} ms（由报告的平均时延推得），按所有可能的方式分摊"
  },
  {
    en: "per-request TPOT lies between (last chunk − ttft)/(out − 1) and that plus the whole implied tail over (out − 1)",
    zh: "逐请求 TPOT 介于 (最后一块 − ttft)/(out − 1) 与其加上全部隐含尾段 /(out − 1) 之间"
  },
  {
    en: "per-request latency lies between the last chunk and the last chunk + the total tail implied by the reported mean",
    zh: "逐请求时延介于最后一块与最后一块 + 由报告均值推得的全部尾段之间"
  },
  {en: "pandas R-7 quantiles, std ddof 1: {k}", zh: "pandas R-7 分位数，标准差 ddof 1：{k}"},
  {en: "numpy R-7 percentiles, population std: {k}", zh: "numpy R-7 百分位，总体标准差：{k}"},
  {en: "numpy R-7, population std", zh: "numpy R-7，总体标准差"},
  {en: "weighted nearest rank, weighted population std", zh: "加权最近秩，加权总体标准差"},
  {en: "prompt tokens", zh: "提示 token"},
  {en: "reasoning tokens", zh: "推理 token"},
  {en: "prompt tokens (ISL)", zh: "提示 token（ISL）"},
  {en: "output tokens incl. reasoning (OSL)", zh: "输出 token，含推理（OSL）"},
  {
    en: "output tokens (server usage when prefer_response_metrics)",
    zh: "输出 token（prefer_response_metrics 时取服务端用量）"
  },
  {en: "prompt tokens (LLMPerf's Llama tokenizer)", zh: "提示 token（LLMPerf 的 Llama 分词器）"},
  {en: "output tokens (LLMPerf's Llama tokenizer)", zh: "输出 token（LLMPerf 的 Llama 分词器）"},
  {en: "per request", zh: "逐请求"},
  {en: "request-weighted", zh: "按请求加权"},
  {en: "token-weighted ({w})", zh: "按 token 加权（{w}）"},
  {en: "weight 1", zh: "权重 1"},
  {en: "first chunk with choices minus send time", zh: "首个带 choices 的块减去发送时间"},
  {
    en: "first chunk with non-empty delta.content minus send time, s",
    zh: "首个 delta.content 非空的块减去发送时间，s"
  },
  {en: "send time to the end of the stream loop, s", zh: "从发送到流循环结束的时间，s"},
  {
    en: "Σ time-to-next-token (starting with TTFT) / output tokens, s — includes TTFT",
    zh: "Σ 到下一个 token 的时间（从 TTFT 开始）/ 输出 token，s——包含 TTFT"
  },
  {
    en: "tokens received / end-to-end latency: SSE chunks before ray-project/llmperf afd137a (2024-04), its tokenizer's output tokens since",
    zh: "收到的 token 数 / 端到端时延：ray-project/llmperf afd137a（2024-04）之前为 SSE 块数，之后为其分词器计的输出 token 数"
  },
  {
    en: "first response with content (reasoning included) − request start",
    zh: "首个带内容的响应（含推理）− 请求开始"
  },
  {en: "last response − request start", zh: "最后一个响应 − 请求开始"},
  {en: "second response − first response", zh: "第二个响应 − 第一个响应"},
  {en: "gaps between responses, pooled (chunk-weighted)", zh: "响应之间的间隔，合并计算（按块加权）"},
  {en: "(request_latency − ttft)/(OSL − 1) per request", zh: "逐请求 (request_latency − ttft)/(OSL − 1)"},
  {en: "1000 / inter_token_latency per request", zh: "逐请求 1000 / inter_token_latency"},
  {en: "first token iteration − request start", zh: "首 token 迭代 − 请求开始"},
  {
    en: "(last − first token iteration)/(out − 1) per request",
    zh: "逐请求 (最后 − 首 token 迭代)/(out − 1)"
  },
  {
    en: "(last token iteration − request start)/out — includes TTFT",
    zh: "(最后一个 token 迭代 − 请求开始)/out——包含 TTFT"
  },
  {en: "request end − request start, s", zh: "请求结束 − 请求开始，s"},
  {
    en: "gaps between consecutive chunks, pooled over requests (chunk-weighted, per chunk not per token)",
    zh: "相邻块之间的间隔，跨请求合并（按块加权，逐块而非逐 token）"
  },
  {
    en: "request latency ({y1}: after the stream ended; {y2}: last chunk)",
    zh: "请求时延（{y1}：流结束之后；{y2}：最后一块）"
  },
  {
    en: "(latency − ttft)/(out − 1) per request with out > 1",
    zh: "逐请求 (latency − ttft)/(out − 1)，限 out > 1"
  },
  {en: "requests without an error code", zh: "没有错误码的请求"},
  {
    en: "their 0.3 TPOT is (last − first token)/out, ours (last − first token)/(out − 1)",
    zh: "对方 0.3 版的 TPOT 为 (末 token − 首 token)/out，我们为 (末 token − 首 token)/(out − 1)"
  },
  {en: "their {stat} is a nearest rank on the weighted CDF", zh: "对方的 {stat} 是加权 CDF 上的最近秩"},
  {en: "our median the midpoint of the middle values", zh: "我们的中位数取中间两值的中点"},
  {
    en: "their p{p} is the first value whose weighted cumulative share reaches {q} %",
    zh: "对方的 p{p} 是加权累计占比首次达到 {q}% 的值"
  },
  {en: "ours the nearest rank ⌈p·n⌉", zh: "我们取最近秩 ⌈p·n⌉"},
  {en: "ours covers only the {n} stored requests", zh: "我们只覆盖已存储的 {n} 个请求"},
  {
    en: "written by genai-perf analyze: input_config keeps the sweep template's stimulus, not this run's load",
    zh: "由 genai-perf analyze 写出：input_config 保留的是扫描模板的 stimulus，而非本次运行的负载"
  },
  {en: "input_config.perf_analyzer.stimulus is empty", zh: "input_config.perf_analyzer.stimulus 为空"},
  {
    en: "requests whose error string is empty (their client's success), an answer without any token included",
    zh: "错误字符串为空的请求（其客户端判为成功），包括没有任何 token 的回答"
  },
  {
    en: "{n} answers without any token and without an error: an empty output with no error is what {tool} counts as completed (TTFT 0 in its file)",
    zh: "{n} 个回答没有任何 token 也没有错误：没有错误的空输出被 {tool} 计为已完成（其文件中 TTFT 为 0）"
  },
  {
    en: "{n} answer without any token and without an error: an empty output with no error is what {tool} counts as completed (TTFT 0 in its file)",
    zh: "{n} 个回答没有任何 token 也没有错误：没有错误的空输出被 {tool} 计为已完成（其文件中 TTFT 为 0）"
  },
  {
    en: "InferScope's definition treats it as a failure (empty_output)",
    zh: "InferScope 的定义将其视为失败（empty_output）"
  },
  {
    en: "equal within floating-point noise: |reported − recomputed| = {d} {unit} ≤ {tol} {unit}, the absolute tolerance of {unit2}",
    zh: "在浮点噪声范围内相等：|报告值 − 重算值| = {d} {unit} ≤ {tol} {unit}，即 {unit2} 的绝对容差"
  },
  {en: "requests with an error code", zh: "带错误码的请求"},
  {en: "requests that finished successfully", zh: "成功完成的请求"},
  {en: "requests that ended with an error", zh: "以错误结束的请求"},
  {
    en: "Σ output tokens of completed requests / (end − start of the run)",
    zh: "已完成请求的 Σ 输出 token /（运行结束 − 开始）"
  },
  {en: "Σ output tokens of successful requests", zh: "成功请求的 Σ 输出 token"},
  {en: "Σ prompt tokens of successful requests", zh: "成功请求的 Σ 提示 token"},
  {en: "first request issued to last request finished, seconds", zh: "从首个请求发出到最后一个请求完成，秒"},
  {en: "max response timestamp − min request timestamp, s", zh: "最大响应时间戳 − 最小请求时间戳，s"},
  {en: "Σ OSL (reasoning included) / benchmark_duration", zh: "Σ OSL（含推理）/ benchmark_duration"},
  {en: "Σ output sequence length (answer + reasoning)", zh: "Σ 输出序列长度（回答 + 推理）"},
  {en: "Σ answer tokens (reasoning excluded)", zh: "Σ 回答 token（不含推理）"},
  {en: "Σ input sequence length", zh: "Σ 输入序列长度"},
  {en: "successful requests in the benchmark", zh: "基准中的成功请求"},
  {en: "errored requests in the benchmark", zh: "基准中出错的请求"},
  {en: "incomplete requests in the benchmark", zh: "基准中未完成的请求"},
  {en: "total requests in the benchmark", zh: "基准中的请求总数"},
  {en: "benchmark start to end (measure window), s", zh: "基准开始到结束（测量窗口），s"},
  {en: "approximate: first request start to last request end", zh: "近似：首个请求开始到最后一个请求结束"},
  {
    en: "successful requests ending inside the measure window / its length (mean of the time-weighted rate)",
    zh: "在测量窗口内结束的成功请求 / 窗口长度（按时间加权的速率均值）"
  },
  {
    en: "Σ output tokens / (last token − first token) of the measured requests (mean of the time-weighted token rate)",
    zh: "被测请求的 Σ 输出 token /（最后 token − 首 token）（按时间加权的 token 速率均值）"
  },
  {
    en: "time in flight, clipped to the measure window / its length (mean of the time-weighted concurrency)",
    zh: "在途时间（截到测量窗口内）/ 窗口长度（按时间加权的并发均值）"
  },

  // metric populations and weightings (metrics/registry.ts, shown by the methodology page)
  {en: "run-weighted", zh: "按运行加权"},
  {en: "token-weighted", zh: "按 token 加权"},
  {en: "chunk-weighted", zh: "按块加权"},
  {en: "time-weighted", zh: "按时间加权"},
  {en: "measured requests", zh: "被测请求"},
  {en: "successful measured requests", zh: "成功的被测请求"},
  {en: "all measured requests with both times (bundle v2)", zh: "两个时间都有的全部被测请求（bundle v2）"},
  {en: "all measured requests with both times", zh: "两个时间都有的全部被测请求"},
  {en: "all measured requests, failures included", zh: "全部被测请求，含失败"},
  {
    en: "gaps between token-bearing events of successful measured requests, pooled",
    zh: "成功被测请求中携带 token 的事件之间的间隔，合并计算"
  },
  {
    en: "measured https requests that opened a fresh connection (bundle v2)",
    zh: "新建连接的 https 被测请求（bundle v2）"
  },
  {
    en: "measured requests that opened a fresh connection (bundle v2)",
    zh: "新建连接的被测请求（bundle v2）"
  },
  {
    en: "successful measured requests that streamed a reasoning channel",
    zh: "流式输出了推理通道的成功被测请求"
  },
  {
    en: "successful measured requests whose output and reasoning counts are known",
    zh: "输出与推理计数已知的成功被测请求"
  },
  {en: "successful measured requests whose reasoning count is known", zh: "推理计数已知的成功被测请求"},
  {
    en: "successful measured requests whose server reported timings ({engine})",
    zh: "服务端报告了计时的成功被测请求（{engine}）"
  },
  {en: "successful measured requests with a prompt token count", zh: "带提示 token 计数的成功被测请求"},
  {en: "successful measured requests with a token count", zh: "带 token 计数的成功被测请求"},
  {en: "successful measured requests with known output tokens", zh: "输出 token 已知的成功被测请求"},
  {en: "successful measured requests with known prompt tokens", zh: "提示 token 已知的成功被测请求"},
  {
    en: "successful measured requests with ≥ 2 answer tokens and a known reasoning count",
    zh: "回答 token ≥ 2 且推理计数已知的成功被测请求"
  },
  {en: "successful measured requests with ≥ 2 output tokens", zh: "输出 token ≥ 2 的成功被测请求"},
  {
    en: "tokens after the first event of successful requests whose events all carry server token deltas",
    zh: "事件均带服务端 token 增量的成功请求中，首个事件之后的 token"
  }
];
