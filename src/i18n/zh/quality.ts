/** Chinese (zh-CN) strings: quality cases and scorers on the run report; the same keys as en/quality.ts. */
import type {enQuality} from "../en/quality.ts";

export const zhQuality: Record<keyof typeof enQuality, string> = {
  quality: "质量",
  qualityNone: "此证据包未评估质量（未评估不等于 0）。",
  scorer: "评分器",
  gsm8kNote:
    "准确率按全部题目计算：截断、失败与无法抽取的回答都算错并留在分母。覆盖率 = 该规则能从完整回答中抽出答案的题目所占比例。",
  gsm8kLmEval:
    "严格与灵活即 lm-evaluation-harness 的 gsm8k 过滤器及其 exact_match：strict-match 取第一个“#### N”，flexible-extract 取最后一个形似数字的匹配，两者都在去掉逗号、“$”和末尾句点后按文本比较。宽松是我们自己的读法：最后一个“#### N”，否则最后一个 \\boxed{N}，否则最后一个数字，并识别 Unicode 数字、分数与货币符号。所依据的 lm-eval 提交：",
  gsm8kV1:
    "按质量版本 1 评分（早于与 lm-eval 对齐）：当时的严格 = 最后一个“#### N”，否则最后一个 \\boxed{N}；灵活 = 最后一个数字。它们不是 lm-eval 的读法，不可与之比较；当时只记录了灵活读法的覆盖率，也未记录宽松读法。",
  gsm8kRule: "抽取规则",
  gsm8kStrict: "严格（lm-eval strict-match）",
  gsm8kFlexible: "灵活（lm-eval flexible-extract）",
  gsm8kLenient: "宽松",
  gsm8kStrictV1: "严格（v1）",
  gsm8kFlexibleV1: "灵活（v1）",
  gsm8kNotRecorded: "未记录",
  condition: "条件",
  accuracy: "准确率",
  coverage: "覆盖率",
  passRate: "通过率",
  qualityLayer: "质量层",
  qualitySectionNotEvaluated: "未评估（{not_evaluated} 项）",
  qualitySectionNotEvaluated2: "，另 {not_evaluated} 项未评估",
  qualitySectionIdleOneAtA: "空闲（逐个发送）",
  qualitySectionUnderLoad: "负载下：{p}",
  qualitySectionOneAtATime: "逐个发送",
  qualitySectionInFlight: "{n} 个并发",
  qualitySectionPrefixNoSuccess: "未知：该用例的被测请求无一成功",
  qualitySectionPrefixNoPromptLog: "未知：该证据包没有记录提示词，无法估算前缀缓存上限（早于提示词日志功能）",
  qualitySectionNoTier: "不适用：该用例未划分档位",
  qualitySectionNeedleDepth: "口令深度",
  qualitySectionContextTokens: "上下文 token",
  qualitySectionThisBundleWasCollected:
    "本证据包的模型是随机权重（未训练）：它的回答是乱码，因此质量分数按构造接近零。下面的质量数字检验的是测量流程，而不是模型。",
  qualitySectionCasePerformanceByTier: "用例性能（按档位）",
  qualitySectionTieredCasesAreRead:
    "分档用例按指定档位读数（★：最重档，多轮对话为末轮），其余档位并列；跨档混合数字不作为结论。达标率 = 满足全部 SLO 的请求 ÷ 全部请求（失败留在分母）。中位数需 n ≥ 5。",
  qualitySectionCase: "用例",
  qualitySectionTier: "档位",
  qualitySectionSentAs: "发送方式",
  qualitySectionSuccess: "成功",
  qualitySectionSloPass: "SLO 达标",
  qualitySectionDecodeP50TokS: "解码 p50 (tok/s)",
  qualitySectionPrefillP50TokS: "预填充 p50 (tok/s)",
  qualitySectionPrefixCache: "前缀缓存：上限 / 实际命中",
  qualitySectionPrefixCacheTitle:
    "无限大前缀缓存最多可服务的提示 token 比例（共享同一文档开头的条目）/ 服务端报告的命中比例。只要有命中，该档位的 TTFT 与预填充就不是完整预填充。",
  qualitySectionStatedTier: "指定档位",
  qualitySectionRecordsOfDifferentQuality: "不同质量版本的记录分开列出，从不合并或比较。",
  qualitySectionTheseRecordsWereScored:
    "这些记录按质量版本 {qualityVersion} 评分，与当前定义不同：不可与当前版本的分数比较。",
  qualitySectionFrozen: "这些评分结果在采集时已写入数据包，按原样读取：本分析器未对这些回答重新评分。",
  qualitySectionPassRateAllItems: "通过率（全部项）",
  qualitySectionStatedTier2: "指定档位",
  qualitySectionEveryTier: "各档位",
  qualitySectionPerConstraint: "逐条约束满足率",
  qualitySectionStrictChecksTheResponse:
    "严格：按原样检查回答；宽松：如 IFEval，去掉星号、首行或末行后任一变体通过即算通过。",
  qualitySectionConstraint: "约束",
  qualitySectionStrict: "严格",
  qualitySectionLoose: "宽松",
  qualitySectionPerPromptRows: "逐条提示（{prompts} 行）",
  qualitySectionPrompt: "提示",
  qualitySectionToolCalls: " 工具调用：",
  qualitySectionReturnedValidAndInvalid: "{where} 共 {calls} 个，符合声明的 schema {valid} 个，不符合 {invalid} 个",
  qualitySectionNeedleRetrievalByContext: "口令检索热力图（lost in the middle）",
  qualitySectionOverall: "总体",
  qualitySectionDepth: "深度",
  qualityTableQualityVersion: "质量版本"
};
