/**
 * Chinese (zh-CN) for the English phrases the analyzer and the loaders hand to the site: gate reasons and
 * thresholds (src/analysis/gates/*.ts), withheld percentiles (stats/summarize.ts), metric, hardware, cost and
 * energy reasons, saturation and probe verdicts, peer-import notes and the collector's recorded tool errors.
 * Each `en` mirrors a template at its source, with its parameters as `{name}` (no semicolon) or `{name...}`
 * (any text); a parameter is localized in turn, so a template may quote other reasons. Order matters: the
 * first template that matches the whole text wins, so a specific template precedes a general one.
 * Numbers, ids, file names, metric ids and config keys stay verbatim.
 */
import type {Phrase} from "../localize.ts";
import {zhHardwareReasons} from "./reasonsHardware.ts";
import {zhMetricReasons} from "./reasonsMetrics.ts";
import {zhPeerReasons} from "./reasonsPeers.ts";
import {zhStreamingReasons} from "./reasonsStreaming.ts";

/** Gate reasons and thresholds, and withheld percentiles. */
const zhAnalysisReasons: readonly Phrase[] = [
  // gates/verdict.ts: one gate over several load points
  {en: "all {n} load points pass", zh: "全部 {n} 个负载点通过"},
  {en: "all {n} load points: {reason...}", zh: "全部 {n} 个负载点：{reason}"},
  {en: "no load points", zh: "没有负载点"},
  {en: "not evaluable", zh: "无法评估"},

  // gates/integrity.ts
  {en: "{n} files match their digests; records valid and continuous", zh: "{n} 个文件与摘要一致；记录有效且连续"},
  {en: "0 errors", zh: "0 个错误"},
  {en: "status = complete", zh: "status = complete（完整结束）"},
  {en: "run completed", zh: "运行完整结束"},
  {en: "bundle status is {status}: {why...}", zh: "证据包状态为 {status}：{why}"},
  {en: "bundle status is {status}", zh: "证据包状态为 {status}"},
  {en: "no manifest", zh: "没有清单"},
  {en: "no manifest.json: digests cannot be verified", zh: "没有 manifest.json：无法核对摘要"},
  {
    en: "manifest.json is not valid ({fault...}): digests cannot be verified",
    zh: "manifest.json 无效（{fault}）：无法核对摘要"
  },
  {en: "the manifest is not valid (see G1)", zh: "清单无效（见 G1）"},
  {en: "{path} is not a regular file ({kind})", zh: "{path} 不是普通文件（{kind}）"},
  {en: "a folder", zh: "目录"},
  {en: "a symbolic link", zh: "符号链接"},
  {en: "digest mismatch: {files...}", zh: "摘要不一致：{files}"},
  {en: "{path} is missing", zh: "{path} 缺失"},
  {
    en: "{n} schema or sequence error(s), first: {where...}",
    zh: "{n} 个 schema 或序号错误，第一个：{where}"
  },
  {en: "{n} torn final line(s) dropped", zh: "丢弃了 {n} 个被截断的末行"},
  {en: "files not in the manifest: {files...}", zh: "不在清单中的文件：{files}"},
  {
    en: "measure version {v} is not one this analyzer knows ({known...} or import-<tool>): its timestamps may mean something else",
    zh: "测量版本 {v} 不是本分析器认识的版本（{known} 或 import-<工具>）：其时间戳的含义可能不同"
  },
  {
    en: "files the analysis reads are not in the manifest, so no digest covers them: {files...}",
    zh: "分析读取的文件不在清单中，没有任何摘要覆盖它们：{files}"
  },
  {en: "entries that are not regular files (not read): {files...}", zh: "不是普通文件的条目（未读取）：{files}"},

  // gates/requests.ts
  {en: "no measured requests", zh: "没有被测请求"},
  {en: "all {n} measured requests succeeded", zh: "全部 {n} 个被测请求成功"},
  {en: "{ok}/{n} succeeded", zh: "{ok}/{n} 成功"},
  {
    en: "{failed}/{n} failed ({pct} %) in the records, which keep {kept} of its {counted} requests; {source...} > {max} %",
    zh: "记录中 {failed}/{n} 失败（{pct} %），记录只保存了其 {counted} 个请求中的 {kept} 个；{source} > {max} %"
  },
  {
    en: "{failed}/{n} failed ({pct} %) in the records; {source...} > {max} %",
    zh: "记录中 {failed}/{n} 失败（{pct} %）；{source} > {max} %"
  },
  {en: "no request records; {source...} > {max} %", zh: "没有请求记录；{source} > {max} %"},
  {
    en: "no request records; {source...}, by its own definition of success, which cannot be checked without the requests",
    zh: "没有请求记录；{source}，这是按其自身的成功定义统计的，缺少请求记录无法核查"
  },
  {
    en: "{tool} counted {failed}/{n} failed over {runs} runs ({pct} %)",
    zh: "{tool} 统计 {runs} 次运行共 {failed}/{n} 失败（{pct} %）"
  },
  {en: "{tool} counted {failed}/{n} failed ({pct} %)", zh: "{tool} 统计 {failed}/{n} 失败（{pct} %）"},
  {en: "{failed}/{n} failed ({pct} %) > {max} %", zh: "{failed}/{n} 失败（{pct} %）> {max} %"},
  {en: "{failed}/{n} failed ({pct} %)", zh: "{failed}/{n} 失败（{pct} %）"},
  {
    en: "≥ {n} successful requests (min_samples {min}, {p} floor {floor})",
    zh: "≥ {n} 个成功请求（min_samples {min}，{p} 下限 {floor}）"
  },
  {en: "withheld: {list...}", zh: "不发布：{list}"},

  // stats/summarize.ts: withheld percentiles
  {en: "n={n} < {floor}: a median needs at least {k} samples", zh: "n={n} < {floor}：中位数至少需要 {k} 个样本"},
  {
    en: "n={n} < {floor}: a {p} of fewer than {k} values is just the maximum",
    zh: "n={n} < {floor}：少于 {k} 个值的 {p} 就是最大值"
  },
  {
    en: "n={n}: a nearest-rank {p} of {k} values is just the maximum",
    zh: "n={n}：{k} 个值的最近秩 {p} 就是最大值"
  },
  {en: "no values (n = 0)", zh: "无数值（n = 0）"},

  // gates/client.ts
  {
    en: "loop delay p99 ≤ {a} ms, late > {b} ms ≤ {c} % of the time, dispatch lag p99 ≤ {d} ms",
    zh: "事件循环延迟 p99 ≤ {a} ms，滞后 > {b} ms 的时间 ≤ {c} %，发送滞后 p99 ≤ {d} ms"
  },
  {en: "no client metrics and no dispatch times recorded", zh: "没有记录客户端指标，也没有记录发送时刻"},
  {en: "no event-loop samples recorded", zh: "没有记录事件循环采样"},
  {en: "worst of {n} windows during the point", zh: "负载点期间 {n} 个窗口中最差者"},
  {en: "worst window of the run", zh: "整个运行中最差的窗口"},
  {en: "loop delay p99 ≤ {d} ms ({scope...})", zh: "事件循环延迟 p99 ≤ {d} ms（{scope}）"},
  {en: "event-loop delay p99 {d} ms > {max} ms ({scope...})", zh: "事件循环延迟 p99 {d} ms > {max} ms（{scope}）"},
  {en: "loop > {b} ms late {share} % of the time > {max} %", zh: "事件循环滞后 > {b} ms 的时间占 {share} % > {max} %"},
  {en: "loop > {b} ms late {share} % of the time", zh: "事件循环滞后 > {b} ms 的时间占 {share} %"},
  {en: "dispatch lag p95 (n < 100) {v} ms > {max} ms", zh: "发送滞后 p95（n < 100）{v} ms > {max} ms"},
  {en: "dispatch lag max (n < 20) {v} ms > {max} ms", zh: "发送滞后最大值（n < 20）{v} ms > {max} ms"},
  {en: "dispatch lag p99 {v} ms > {max} ms", zh: "发送滞后 p99 {v} ms > {max} ms"},
  {en: "dispatch lag p95 (n < 100) {v} ms", zh: "发送滞后 p95（n < 100）{v} ms"},
  {en: "dispatch lag max (n < 20) {v} ms", zh: "发送滞后最大值（n < 20）{v} ms"},
  {en: "dispatch lag p99 {v} ms", zh: "发送滞后 p99 {v} ms"},

  // gates/load.ts
  {en: "≥ {pct} % of target; schedule at the declared rate", zh: "≥ 目标的 {pct} %；按声明速率排定计划"},
  {en: "request times are not on a shared clock", zh: "请求时间不在同一时钟上"},
  {en: "imported: the source does not record the target load", zh: "导入数据：来源未记录目标负载"},
  {en: "r{r}: too few requests to measure a rate", zh: "r{r}：请求太少，无法测量速率"},
  {
    en: "r{r}: peak {peak}/{target}, mean {mean} while dispatching (users think between turns: judged on the peak)",
    zh: "r{r}：发送期间峰值 {peak}/{target}，均值 {mean}（用户在轮次之间思考：按峰值判定）"
  },
  {
    en: "r{r}: mean in flight {mean}/{target} while dispatching ({pct} %)",
    zh: "r{r}：发送期间平均在途 {mean}/{target}（{pct} %）"
  },
  {
    en: "r{r}: scheduled {rate} req/s for a target of {target} over {n} Poisson gaps (two-sided p = {p}, within sampling spread); dispatched {d} req/s ({pct} % of scheduled)",
    zh: "r{r}：计划 {rate} req/s，目标 {target}，基于 {n} 个泊松间隔（双侧 p = {p}，在抽样波动范围内）；实际发送 {d} req/s（计划的 {pct} %）"
  },
  {
    en: "r{r}: scheduled {rate} req/s for a target of {target} over {n} Poisson gaps (two-sided p = {p}); dispatched {d} req/s ({pct} % of scheduled)",
    zh: "r{r}：计划 {rate} req/s，目标 {target}，基于 {n} 个泊松间隔（双侧 p = {p}）；实际发送 {d} req/s（计划的 {pct} %）"
  },
  {
    en: "r{r}: dispatched {d} req/s for a target of {target} ({pct} %)",
    zh: "r{r}：实际发送 {d} req/s，目标 {target}（{pct} %）"
  },
  {
    en: "{n} requests carry no scheduled send time (the source records dispatch times only)",
    zh: "{n} 个请求没有计划发送时刻（来源只记录实际发送时刻）"
  },
  {en: "every open-loop request has a scheduled time", zh: "每个开环请求都有计划发送时刻"},
  {
    en: "imported: {n} requests carry no scheduled send time (the source records dispatch times only)",
    zh: "导入数据：{n} 个请求没有计划发送时刻（来源只记录实际发送时刻）"
  },
  {en: "closed loop: scheduled = slot freed; both views kept", zh: "闭环：计划时刻 = 槽位释放时刻；两种视角均保留"},
  {en: "{n} open-loop requests lack a scheduled time", zh: "{n} 个开环请求缺少计划发送时刻"},
  {
    en: "open loop: latency measured from the schedule; dispatch view kept",
    zh: "开环：时延从计划时刻起算；保留发送视角"
  },
  {en: "closed loop", zh: "闭环"},
  {en: "no dispatch times with a schedule", zh: "没有带计划的发送时刻"},
  {en: "≤ 1 % of dispatches > {ms} ms late; KS p ≥ 0.01", zh: "滞后 > {ms} ms 的发送 ≤ 1 %；KS p ≥ 0.01"},
  {
    en: "{late}/{n} dispatches more than {ms} ms behind schedule (worst {worst} ms; ≤ {pct} % allowed)",
    zh: "{late}/{n} 次发送比计划晚 {ms} ms 以上（最差 {worst} ms；允许 ≤ {pct} %）"
  },
  {
    en: "trace replay: the plan is the trace's timestamps, no distribution to test",
    zh: "轨迹回放：计划即轨迹的时间戳，没有可检验的分布"
  },
  {en: "planned spacing within {pct} % of 1/rate", zh: "计划间隔与 1/rate 相差在 {pct} % 以内"},
  {en: "actual gaps: only {n} (< 20) for a KS test", zh: "实际间隔：仅 {n} 个（< 20），不足以做 KS 检验"},
  {en: "planned gaps: only {n} (< 20) for a KS test", zh: "计划间隔：仅 {n} 个（< 20），不足以做 KS 检验"},
  {
    en: "actual gaps KS D={d}, p={p} over {n} vs {dist}",
    zh: "实际间隔 KS D={d}，p={p}，共 {n} 个，对照 {dist}"
  },
  {
    en: "planned gaps KS D={d}, p={p} over {n} vs {dist}",
    zh: "计划间隔 KS D={d}，p={p}，共 {n} 个，对照 {dist}"
  },
  {en: "no overlap", zh: "无重叠"},
  {
    en: "warmup still running when measurement began: {list...}",
    zh: "测量开始时预热仍在进行：{list}"
  },
  {en: "imported: the source does not record warmup requests", zh: "导入数据：来源未记录预热请求"},
  {
    en: "fewer warmup requests recorded than planned ({list...}): the measured requests may have met a cold server",
    zh: "记录的预热请求少于计划（{list}）：被测请求可能遇到的是冷启动的服务"
  },
  {
    en: "{n} warmup requests ({planned} planned) excluded and finished before measuring",
    zh: "{n} 个预热请求（计划 {planned} 个）已排除，且在测量开始前结束"
  },
  {en: "no warmup planned", zh: "未计划预热"},

  // gates/tokens.ts
  {en: "server count = stream count ± {pct} %", zh: "服务端计数 = 流计数 ± {pct} %"},
  {en: "no successful requests", zh: "没有成功请求"},
  {
    en: "{n}/{total} successful requests have no output token count ({sources}); token metrics withheld",
    zh: "{n}/{total} 个成功请求没有输出 token 计数（{sources}）；token 类指标不发布"
  },
  {
    en: "counted by a client tokenizer for {n}/{total} ({sources})",
    zh: "{n}/{total} 个由客户端分词器计数（{sources}）"
  },
  {
    en: "server usage for all {n} ({sources}), consistent with the stream",
    zh: "全部 {n} 个使用服务端用量（{sources}），与流一致"
  },
  {en: "server usage for all {n} ({sources})", zh: "全部 {n} 个使用服务端用量（{sources}）"},
  {
    en: "output token counts of {n}/{total} requests disagree with the stream (server Σ {s} vs stream Σ {t}; {gate}): values computed from the server's counts",
    zh: "{n}/{total} 个请求的输出 token 计数与流不一致（服务端 Σ {s}，流 Σ {t}；{gate}）：数值按服务端计数计算"
  },
  {
    en: "{n} natural stops carried the end-of-sequence token on the finish chunk",
    zh: "{n} 个自然停止在结束块上带有序列结束 token"
  },
  {
    en: "{n} requests report fewer tokens than their non-empty events (beyond {tol})",
    zh: "{n} 个请求报告的 token 数少于其非空事件数（超出 {tol}）"
  },
  {en: "server Σ {s} vs stream Σ {t} (e.g. {eg...})", zh: "服务端 Σ {s}，流 Σ {t}（例如 {eg}）"},
  {en: "server Σ {s} vs stream Σ {t}", zh: "服务端 Σ {s}，流 Σ {t}"},
  {en: "server {s} vs stream {t}", zh: "服务端 {s}，流 {t}"},
  {en: "counted Σ {s} vs stream Σ {t} (e.g. {eg...})", zh: "计数 Σ {s}，流 Σ {t}（例如 {eg}）"},
  {en: "counted Σ {s} vs stream Σ {t}", zh: "计数 Σ {s}，流 Σ {t}"},
  {en: "counted {s} vs stream {t}", zh: "计数 {s}，流 {t}"},
  {
    en: "output token counts of {n}/{total} requests disagree with the stream (counted Σ {s} vs stream Σ {t}; {gate}): values computed from those counts",
    zh: "{n}/{total} 个请求的输出 token 计数与流不一致（计数 Σ {s}，流 Σ {t}；{gate}）：数值按这些计数计算"
  },
  {
    en: "without per-event counts the counts (a client tokenizer's among them) say {n} tokens for {e} streamed events (beyond {tol}; {k} requests beyond it and {m} tokens): several tokens per chunk or a miscount — decode speeds use those counts",
    zh: "没有逐事件计数时，这些计数（其中含客户端分词器的计数）为 {e} 个流式事件给出 {n} 个 token（超出 {tol}；{k} 个请求超出，{m} 个 token）：每块多个 token 或计数有误——解码速度采用这些计数"
  },
  {
    en: "without per-event counts the server reports {n} tokens for {e} streamed events (beyond {tol}; {k} requests beyond it and {m} tokens): several tokens per chunk or an overcount — decode speeds use the server's count (turn on continuous usage to check)",
    zh: "没有逐事件计数时，服务端为 {e} 个流式事件报告了 {n} 个 token（超出 {tol}；{k} 个请求超出，{m} 个 token）：每块多个 token 或计数偏多——解码速度采用服务端计数（开启持续用量报告可核对）"
  },
  {
    en: "imported: the source records only the first and last token times",
    zh: "导入数据：来源只记录首个和最后一个 token 的时间"
  },
  {en: "token counts unknown", zh: "token 计数未知"},
  {en: "{x} tokens per event", zh: "每个事件 {x} 个 token"},
  {
    en: "{x} tokens per event ({m} multi-token events): inter_chunk_ms is per chunk; {rest...}",
    zh: "每个事件 {x} 个 token（{m} 个多 token 事件）：inter_chunk_ms 按块计；{rest}"
  },
  {
    en: "per-token ITL unavailable (no per-event token counts)",
    zh: "逐 token ITL 不可用（没有逐事件 token 计数）"
  },
  {en: "±{pct} % of max_tokens", zh: "max_tokens 的 ±{pct} %"},
  {en: "ignore_eos not requested", zh: "未请求 ignore_eos"},
  {en: "no request with both max_tokens and an output count", zh: "没有同时带 max_tokens 和输出计数的请求"},
  {
    en: "{out}/{n} outputs outside ±{pct} % of {expected} (e.g. {eg...})",
    zh: "{out}/{n} 个输出超出 {expected} 的 ±{pct} %（例如 {eg}）"
  },
  {en: "{n} outputs within tolerance of {expected}", zh: "{n} 个输出在 {expected} 的容差范围内"},
  {en: "±{pct} % (+ {n} template tokens above)", zh: "±{pct} %（向上另加 {n} 个模板 token）"},
  {en: "intended or reported prompt length unknown", zh: "预期或报告的提示长度未知"},
  {en: "{out}/{n} prompts outside tolerance ({text...})", zh: "{out}/{n} 个提示超出容差（{text}）"},
  {en: "every successful request produced ≥ 2 tokens", zh: "每个成功请求都产生了 ≥ 2 个 token"},
  {en: "no successful request to count tokens of", zh: "没有可统计 token 的成功请求"},
  {en: "output token count unknown for all {n} successful requests", zh: "全部 {n} 个成功请求的输出 token 数未知"},
  {
    en: "every one of {k} successful requests with a known output count produced ≥ 2 tokens ({m} unknown)",
    zh: "输出计数已知的 {k} 个成功请求都产生了 ≥ 2 个 token（{m} 个未知）"
  },
  {
    en: "{n} successful requests had < 2 tokens (not good)",
    zh: "{n} 个成功请求的 token 数 < 2（不计为有效）"
  },
  {
    en: "{n} successful requests had < 2 tokens (ITL clause not applied)",
    zh: "{n} 个成功请求的 token 数 < 2（不应用 ITL 条款）"
  },

  // gates/accounting.ts
  {en: "0 lost, 0 duplicated, 0 unplanned", zh: "0 丢失，0 重复，0 计划外"},
  {
    en: "every planned request of all {n} load points accounted for",
    zh: "全部 {n} 个负载点的每个计划请求都有着落"
  },
  {en: "every planned request accounted for", zh: "每个计划请求都有着落"},
  {en: "{n} measured requests planned, {m} recorded", zh: "计划 {n} 个被测请求，记录 {m} 个"},
  {
    en: "{n} requests kept by the source, ids unique (imported: no schedule, judged by what the source kept)",
    zh: "来源保留了 {n} 个请求，id 唯一（导入数据：无计划，按来源保留的内容判定）"
  },
  {en: "no plan", zh: "无计划"},
  {
    en: "open-loop requests without schedule.jsonl entries: the plan they were measured against is missing",
    zh: "开环请求没有 schedule.jsonl 条目：测量所依据的计划缺失"
  },
  {en: "{n} request(s) recorded twice: {list...}", zh: "{n} 个请求被记录两次：{list}"},
  {en: "{n} request id(s) recorded more than once: {list...}", zh: "{n} 个请求 id 被记录多次：{list}"},
  {en: "also the id of {point} {phase} #{i}", zh: "也是 {point} {phase} #{i} 的 id"},
  {en: "{n} schedule entr(ies) planned twice", zh: "{n} 个计划条目被计划两次"},
  {en: "{n} record(s) of a shard this bundle does not have", zh: "{n} 条记录属于本证据包没有的分片"},
  {en: "{n} record(s) with no schedule entry: {list...}", zh: "{n} 条记录没有计划条目：{list}"},
  {
    en: "{n} schedule entr(ies) beyond the declared {m} requests",
    zh: "{n} 个计划条目超出声明的 {m} 个请求"
  },
  {en: "{n} record(s) of requests noted as never sent", zh: "{n} 条记录属于已注明从未发送的请求"},
  {
    en: "{n} planned request(s) lost — neither recorded nor noted as never sent: {list...}",
    zh: "{n} 个计划请求丢失——既没有记录，也没有注明从未发送：{list}"
  },

  // gates/prefixCache.ts
  {
    en: "cached ≤ bound + max(32, 10 % of prompt) per request; designed workloads ≥ 50 % of the room bound",
    zh: "每个请求缓存命中 ≤ 上限 + max(32, 提示的 10 %)；设计的工作负载 ≥ 可命中上限的 50 %"
  },
  {
    en: "imported: the source records neither prompt salting nor cached tokens",
    zh: "导入数据：来源既未记录提示加盐，也未记录缓存 token"
  },
  {
    en: "{c}/{n} requests reused {t} cached prompt tokens ({pct})",
    zh: "{c}/{n} 个请求复用了 {t} 个缓存的提示 token（{pct}）"
  },
  {en: "{n} measured requests were not salted", zh: "{n} 个被测请求未加盐"},
  {en: "salted prompts", zh: "提示已加盐"},
  {
    en: "no cached prompt tokens beyond a template prefix reported",
    zh: "除模板前缀外未报告缓存的提示 token"
  },
  {en: "the server reports no cached-token counts", zh: "服务端未报告缓存 token 计数"},
  {
    en: "{c}/{n} requests reused only a template-sized prefix (≤ max({k}, {pct} % of the prompt) tokens)",
    zh: "{c}/{n} 个请求只复用了模板大小的前缀（≤ max({k}, 提示的 {pct} %) 个 token）"
  },
  {
    en: "prompts are not salted and the server reported cached-token counts for {c}/{n} requests: whether a prefix cache served them is unknown",
    zh: "提示未加盐，服务端为 {c}/{n} 个请求报告了缓存 token 计数：是否由前缀缓存提供未知"
  },
  {
    en: "prompts not salted, but the server reported no cached prompt tokens beyond a template prefix for all {n}",
    zh: "提示未加盐，但服务端对全部 {n} 个请求均未报告模板前缀之外的缓存提示 token"
  },
  {
    en: "measured {m} over {c}/{n} requests with counts",
    zh: "在 {c}/{n} 个有计数的请求上实测 {m}"
  },
  {
    en: "bound {b} of prompt tokens with an unbounded cache, {l} with an LRU cache holding the run's most in-flight prompts ({k} tokens)",
    zh: "上限：无限大缓存可命中提示 token 的 {b}，容纳本次运行最多在途提示（{k} 个 token）的 LRU 缓存可命中 {l}"
  },
  {
    en: "the server reports no cached-token counts ({why...}): the hit rate is unknown ({bound...})",
    zh: "服务端未报告缓存 token 计数（{why}）：命中率未知（{bound}）"
  },
  {en: "its counters saw no prompt tokens", zh: "其计数器未见提示 token"},
  {en: "the server exports no prefix-cache counters", zh: "服务端未导出前缀缓存计数器"},

  // gates/shards.ts
  {en: "measured phases start within {ms} ms of each other", zh: "各分片的测量阶段在 {ms} ms 内相继开始"},
  {en: "not a sharded run", zh: "不是分片运行"},
  {en: "every shard ran on one host (one clock)", zh: "所有分片运行在同一主机上（同一时钟）"},
  {
    en: "{n} shards; measured phases started within {ms} ms of each other (worst: {where...})",
    zh: "{n} 个分片；测量阶段在 {ms} ms 内相继开始（最差：{where}）"
  },
  {en: "no measured phase started on any shard", zh: "没有任何分片开始测量阶段"},
  {en: "measured phases missing on some shards: {list...}", zh: "部分分片缺少测量阶段：{list}"}
];

/** General forms, last: a specific template in any table wins over them. */
const zhGeneralReasons: readonly Phrase[] = [
  {en: "no GPU power telemetry (no GPU listed)", zh: "没有 GPU 功率遥测（未列出 GPU）"},
  {en: "{id}: no value (n = {n})", zh: "{id}：无数值（n = {n}）"},
  {en: "{id}: no median", zh: "{id}：无中位数"},
  {en: "{id} unknown", zh: "{id} 未知"},
  {en: "{id} not computed", zh: "{id} 未计算"},
  {en: "{from}: not computable", zh: "{from}：无法计算"},
  {en: "no {what} in this point", zh: "该负载点没有{what}"}
];

export const zhReasons: readonly Phrase[] = [
  ...zhAnalysisReasons,
  ...zhStreamingReasons,
  ...zhMetricReasons,
  ...zhHardwareReasons,
  ...zhPeerReasons,
  ...zhGeneralReasons
];
