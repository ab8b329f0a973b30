/** Chinese for metric reasons, saturation and probe verdicts, and unscored quality items (see reasons.ts). */
import type {Phrase} from "../localize.ts";

export const zhMetricReasons: readonly Phrase[] = [
  // metrics/streams.ts, metrics/window.ts, metrics/*
  {
    en: "not applicable: embeddings answer once, as one JSON body (no stream, no output tokens, no first token)",
    zh: "不适用：嵌入请求一次性以单个 JSON 响应返回（无流、无输出 token、无首 token）"
  },
  {en: "request start times are not on a shared clock (imported data)", zh: "请求开始时间不在同一时钟上（导入数据）"},
  {en: "measurement window unknown", zh: "测量窗口未知"},
  {en: "the load point has no measurement window", zh: "该负载点没有测量窗口"},
  {en: "concurrency unknown", zh: "并发未知"},
  {en: "fewer than 2 dispatch times", zh: "发送时刻少于 2 个"},
  {en: "no token-bearing events", zh: "没有携带 token 的事件"},
  {en: "output token counts missing", zh: "缺少输出 token 计数"},
  {en: "{n} token counts missing among successful requests", zh: "成功请求中缺少 {n} 个 token 计数"},
  {
    en: "{n} imported requests record only their first and last token events",
    zh: "{n} 个导入的请求只记录了首个和最后一个 token 事件"
  },
  {en: "{n} successful requests lack a prompt token count", zh: "{n} 个成功请求缺少提示 token 计数"},
  {en: "{n} successful requests lack an output token count", zh: "{n} 个成功请求缺少输出 token 计数"},
  {
    en: "none of the {n} successful requests can be judged: output token count unknown",
    zh: "{n} 个成功请求都无法判定：输出 token 计数未知"
  },
  {
    en: "lower bound: {n} successful requests could not be judged (output token count unknown) and count as misses",
    zh: "下界：{n} 个成功请求无法判定（输出 token 计数未知），按未达标计"
  },
  {en: "never started: {why...}", zh: "从未开始：{why}"},
  {en: "a counter went down across the load point (server restart)", zh: "计数器在负载点期间减少（服务重启）"},
  {en: "no counter scrape after the load point ended", zh: "负载点结束后没有计数器抓取"},
  {en: "no counter scrape before the load point started", zh: "负载点开始前没有计数器抓取"},
  {en: "no scrape before and after the point's window", zh: "负载点窗口前后没有抓取"},
  {
    en: "the engine exports no vLLM queue/prefill/decode histograms",
    zh: "推理引擎未导出 vLLM 排队 / 预填充 / 解码直方图"
  },
  {
    en: "no drafts in the load point's span (speculative decoding off, or no decode step)",
    zh: "负载点时段内没有草稿 token（投机解码关闭，或没有解码步）"
  },
  {
    en: "the server counted drafts but exports no draft-token counter: no acceptance rate",
    zh: "服务端统计了草稿次数，但未导出草稿 token 计数器：无法计算接受率"
  },

  // search/judge.ts, search/saturation.ts
  {en: "holds: {clauses...}", zh: "满足：{clauses}"},
  {en: "fails: {clauses...}", zh: "不满足：{clauses}"},
  {
    en: "not evaluable: {p} needs ≥ {floor} values ({clauses...})",
    zh: "无法评估：{p} 需要 ≥ {floor} 个值（{clauses}）"
  },
  {en: "over-saturated: {reasons...}", zh: "过饱和：{reasons}"},
  {en: "failed share {v} {op} {limit}", zh: "失败占比 {v} {op} {limit}"},
  {en: "goodput {v} {op} {limit}", zh: "有效产出率 {v} {op} {limit}"},
  {en: "{name} not evaluable (n {n})", zh: "{name} 无法评估（n {n}）"},
  {
    en: "queueing grows through the point: TTFT median {a} ms in the first third of its requests, {b} ms in the last (> {r}×; rank trend ρ {rho}, z {z} > {zmin})",
    zh: "负载点内排队持续增长：前三分之一请求的 TTFT 中位数 {a} ms，最后三分之一 {b} ms（> {r}×；秩趋势 ρ {rho}，z {z} > {zmin}）"
  },
  {
    en: "throughput stopped growing with load: {x}× the load of {lower} gave {t}× its throughput while the median E2E latency grew {l}×",
    zh: "吞吐不再随负载增长：负载为 {lower} 的 {x}× 时吞吐只有其 {t}×，而 E2E 时延中位数增长了 {l}×"
  },
  {
    en: "the SLO holds up to concurrency {a} and not at {b} (fit crossing {c}, {pct} % interval {lo} – {hi})",
    zh: "SLO 在并发 {a} 及以下满足，在 {b} 不满足（拟合交点 {c}，{pct} % 区间 {lo} – {hi}）"
  },
  {
    en: "percentile bootstrap: each probe's requests resampled, margins refitted (isotonic), crossing of {x} interpolated",
    zh: "百分位 bootstrap：对每个探测点的请求重抽样，重新拟合余量（保序回归），插值求 {x} 的交点"
  },

  // quality: scored text that is not judged
  {en: "not evaluated: {why...}", zh: "未评估：{why}"},
  {en: "stress tier: read its SLO pass rate in the case table", zh: "压力档：其 SLO 通过率见用例表"},
  {en: "prefill latency tier: the reply is not scored", zh: "预填充时延档：回复不评分"},
  {en: "long-context latency tier: the summary is not scored", zh: "长上下文时延档：摘要不评分"},
  {en: "latency baseline: the generated text is not scored", zh: "时延基线：生成文本不评分"},
  {
    en: "conversation round: the reply is not scored (only the last round's recall is)",
    zh: "对话轮次：回复不评分（只对最后一轮的回忆评分）"
  },
  {en: "truncated: the response hit max_tokens before it ended", zh: "被截断：响应在结束前达到 max_tokens"}
];
