import type {Bilingual} from "../analysis/index.ts";

export const LANGS = ["en", "zh"] as const;
export type Lang = (typeof LANGS)[number];

/** `inferscope report` builds one page in one language with inline CSS and no site links. */
export const STANDALONE: {lang: Lang} | null = process.env.INFERSCOPE_STANDALONE
  ? {lang: process.env.INFERSCOPE_STANDALONE === "zh" ? "zh" : "en"}
  : null;

/** Languages of the site-wide pages (none in standalone mode). */
export const siteLangs = (): readonly Lang[] => (STANDALONE ? [] : LANGS);

/** getStaticPaths entries for the `[...lang]` rest parameter: English at the root, Chinese under /zh/. */
export const langPaths = () =>
  siteLangs().map((lang) => ({params: {lang: lang === "en" ? undefined : lang}, props: {lang}}));

export const langParam = (lang: Lang) => (lang === "en" ? undefined : lang);

export const pick = (text: Bilingual, lang: Lang): string => text[lang];

const UI = {
  siteTitle: {en: "InferScope", zh: "InferScope"},
  tagline: {
    en: "Evidence-first LLM serving benchmarks: every number recomputed from raw requests.",
    zh: "以证据为先的大模型推理服务基准：每个数字都由原始请求重新计算。"
  },
  navRuns: {en: "Runs", zh: "运行"},
  navCompare: {en: "Compare", zh: "对比"},
  navPareto: {en: "Pareto", zh: "帕累托"},
  navMatrix: {en: "Matrix", zh: "矩阵"},
  navSelect: {en: "Select", zh: "选型"},
  navMethodology: {en: "Methodology", zh: "方法论"},
  skip: {en: "Skip to content", zh: "跳到正文"},
  verdict: {en: "Verdict", zh: "结论"},
  bundle: {en: "Bundle", zh: "证据包"},
  bundles: {en: "Bundles", zh: "证据包"},
  model: {en: "Model", zh: "模型"},
  hardware: {en: "Hardware", zh: "硬件"},
  engine: {en: "Engine", zh: "引擎"},
  endpoint: {en: "Endpoint", zh: "接口"},
  gpus: {en: "GPUs", zh: "GPU 数"},
  mode: {en: "Load", zh: "负载"},
  started: {en: "Started", zh: "开始"},
  finished: {en: "Finished", zh: "结束"},
  workload: {en: "Workload", zh: "负载内容"},
  workloadKey: {en: "Workload fingerprint", zh: "负载指纹"},
  labels: {en: "Labels", zh: "标签"},
  slo: {en: "SLO (goodput)", zh: "SLO（有效吞吐）"},
  provenance: {en: "Provenance", zh: "来源"},
  metric: {en: "Metric", zh: "指标"},
  unit: {en: "Unit", zh: "单位"},
  value: {en: "Value", zh: "数值"},
  gate: {en: "Gate", zh: "门禁"},
  status: {en: "Status", zh: "状态"},
  reason: {en: "Reason", zh: "原因"},
  reasons: {en: "Reasons", zh: "原因"},
  threshold: {en: "Threshold", zh: "阈值"},
  loadPoint: {en: "Load point", zh: "负载点"},
  loadPoints: {en: "Load points", zh: "负载点"},
  gates: {en: "Validity gates", zh: "有效性门禁"},
  metrics: {en: "Metrics per load point", zh: "各负载点指标"},
  charts: {en: "Charts", zh: "图表"},
  issues: {en: "Evidence issues", zh: "证据问题"},
  noBundles: {en: "No bundles in evidence/ yet.", zh: "evidence/ 中还没有证据包。"},
  language: {en: "中文", zh: "English"},
  theme: {en: "Toggle light/dark theme", zh: "切换浅色/深色主题"},
  notEvaluated: {en: "not evaluated", zh: "未评估"},
  notMeasured: {en: "not measured", zh: "未测量"},
  missing: {en: "missing", zh: "缺失"},
  withheld: {en: "withheld", zh: "不发布"},
  measured: {en: "measured", zh: "被测"},
  succeeded: {en: "succeeded", zh: "成功"},
  definition: {en: "Definition", zh: "定义"},
  formula: {en: "Formula", zh: "公式"},
  method: {en: "Percentile method", zh: "分位数方法"},
  cvClass: {en: "CV class (repeats)", zh: "CV 等级（重复）"},
  pooled: {en: "pooled over repeats", zh: "跨重复汇总"},
  population: {en: "Population", zh: "样本范围"},
  direction: {en: "Better", zh: "越…越好"},
  lower: {en: "lower", zh: "越低越好"},
  higher: {en: "higher", zh: "越高越好"},
  none: {en: "—", zh: "—"},
  outcome: {en: "On failure", zh: "失败时"},
  measureVersion: {en: "Measure version", zh: "测量口径版本"},
  analyzerVersion: {en: "Analyzer version", zh: "分析器版本"},
  reading: {en: "Reading discipline", zh: "解读纪律"},
  contents: {en: "Contents", zh: "目录"},
  environment: {en: "Environment and configuration", zh: "环境与配置"},
  audit: {en: "Audit", zh: "审计"},
  auditTitle: {en: "Audit: files, digests, provenance", zh: "审计：文件、摘要与来源"},
  report: {en: "Report", zh: "报告"},
  failures: {en: "Failures by class", zh: "按类别的失败"},
  noFailures: {en: "No failed measured requests.", zh: "没有失败的被测请求。"},
  count: {en: "Count", zh: "数量"},
  example: {en: "Example message", zh: "示例信息"},
  request: {en: "Request", zh: "请求"},
  quality: {en: "Quality", zh: "质量"},
  qualityNone: {
    en: "Quality not evaluated for this bundle (not evaluated is not zero).",
    zh: "此证据包未评估质量（未评估不等于 0）。"
  },
  scorer: {en: "Scorer", zh: "评分器"},
  gsm8kNote: {
    en: "Accuracy is over every item: truncated, failed and unextractable answers are wrong and stay in the denominator. Coverage = share of items with a complete response from which that reading extracted an answer.",
    zh: "准确率按全部题目计算：截断、失败与无法抽取的回答都算错并留在分母。覆盖率 = 该规则能从完整回答中抽出答案的题目所占比例。"
  },
  gsm8kLmEval: {
    en: 'Strict and flexible are lm-evaluation-harness\'s gsm8k filters and its exact_match: strict-match takes the first "#### N", flexible-extract the last number-like match, and both compare the text with commas, "$" and a final period removed. Lenient is our own reading: the last "#### N", else the last \\boxed{N}, else the last number, reading Unicode digits, fractions and currency. lm-eval read at commit',
    zh: "严格与灵活即 lm-evaluation-harness 的 gsm8k 过滤器及其 exact_match：strict-match 取第一个“#### N”，flexible-extract 取最后一个形似数字的匹配，两者都在去掉逗号、“$”和末尾句点后按文本比较。宽松是我们自己的读法：最后一个“#### N”，否则最后一个 \\boxed{N}，否则最后一个数字，并识别 Unicode 数字、分数与货币符号。所依据的 lm-eval 提交："
  },
  gsm8kV1: {
    en: 'Scored under quality version 1, before lm-eval parity: strict was the last "#### N" or else the last \\boxed{N}, flexible the last number. These are not lm-eval\'s readings and are not comparable with them; coverage was recorded for flexible only, and no lenient reading was recorded.',
    zh: "按质量版本 1 评分（早于与 lm-eval 对齐）：当时的严格 = 最后一个“#### N”，否则最后一个 \\boxed{N}；灵活 = 最后一个数字。它们不是 lm-eval 的读法，不可与之比较；当时只记录了灵活读法的覆盖率，也未记录宽松读法。"
  },
  gsm8kRule: {en: "Reading", zh: "抽取规则"},
  gsm8kStrict: {en: "Strict (lm-eval strict-match)", zh: "严格（lm-eval strict-match）"},
  gsm8kFlexible: {en: "Flexible (lm-eval flexible-extract)", zh: "灵活（lm-eval flexible-extract）"},
  gsm8kLenient: {en: "Lenient", zh: "宽松"},
  gsm8kStrictV1: {en: "Strict (v1)", zh: "严格（v1）"},
  gsm8kFlexibleV1: {en: "Flexible (v1)", zh: "灵活（v1）"},
  gsm8kNotRecorded: {en: "not recorded", zh: "未记录"},
  condition: {en: "Condition", zh: "条件"},
  accuracy: {en: "Accuracy", zh: "准确率"},
  coverage: {en: "Coverage", zh: "覆盖率"},
  passRate: {en: "Pass rate", zh: "通过率"},
  compareWith: {en: "Compare with", zh: "与之对比"},
  comparable: {en: "comparable", zh: "可比"},
  notComparable: {en: "not comparable", zh: "不可比"},
  sweep: {en: "Sweep", zh: "扫描"},
  file: {en: "File", zh: "文件"},
  size: {en: "Size", zh: "大小"},
  download: {en: "download", zh: "下载"},
  reverify: {en: "Re-verify locally", zh: "本地复核"},
  synthetic: {en: "synthetic", zh: "合成"},
  collected: {en: "collected", zh: "实测"},
  imported: {en: "imported", zh: "导入"},
  filter: {en: "Filter", zh: "筛选"},
  allVerdicts: {en: "all verdicts", zh: "全部结论"},
  sortHint: {en: "Click a column heading to sort.", zh: "点击列标题可排序。"},
  peakAt: {en: "at the point of peak output throughput", zh: "取输出吞吐最高的负载点"},
  rows: {en: "rows", zh: "行"},
  baseline: {en: "baseline", zh: "基线"},
  other: {en: "other", zh: "对比方"},
  difference: {en: "Difference", zh: "差值"},
  interval: {en: "95 % CI of the difference", zh: "差值的 95 % 置信区间"},
  readingCol: {en: "Reading", zh: "解读"},
  better: {en: "better", zh: "更好"},
  worse: {en: "worse", zh: "更差"},
  noClearDifference: {en: "no clear difference", zh: "无明显差异"},
  check: {en: "Check", zh: "检查项"},
  same: {en: "same", zh: "相同"},
  differs: {en: "differs", zh: "不同"},
  groups: {en: "Declared groups", zh: "声明的分组"},
  sets: {en: "Comparable sets", zh: "可比集合"},
  pairs: {en: "Pairs", zh: "两两对比"},
  pick: {en: "Pick bundles", zh: "选择证据包"},
  go: {en: "Compare", zh: "对比"},
  recommended: {en: "Recommended", zh: "推荐"},
  qualifying: {en: "Qualifying configurations", zh: "满足条件的配置"},
  excluded: {en: "Excluded configurations", zh: "被排除的配置"},
  noRecommendation: {en: "No recommendation", zh: "无推荐"},
  constraints: {en: "Constraints", zh: "约束条件"},
  rank: {en: "Rank", zh: "排名"},
  perGpu: {en: "Output tok/s per GPU", zh: "每 GPU 输出 tok/s"},
  perHost: {en: "per host (no GPU)", zh: "按主机（无 GPU）"},
  interactivity: {en: "Interactivity", zh: "交互速度"},
  frontier: {en: "frontier", zh: "前沿"},
  group: {en: "Hardware · engine", zh: "硬件 · 引擎"},
  performanceLayer: {en: "Performance layer", zh: "性能层"},
  qualityLayer: {en: "Quality layer", zh: "质量层"},
  percentile: {en: "Percentile", zh: "分位数"},
  minSamples: {en: "Minimum successful requests", zh: "最少成功请求数"},
  minQuality: {en: "Minimum quality pass rate (%)", zh: "最低质量通过率（%）"},
  anyScorer: {en: "every scorer run", zh: "所有已运行的评分器"},
  anyModel: {en: "any model", zh: "任意模型"},
  apply: {en: "Apply", zh: "应用"},
  reset: {en: "Reset", zh: "重置"},
  noLimit: {en: "empty = no limit", zh: "留空 = 不限制"}
} satisfies Record<string, Bilingual>;

export type UiKey = keyof typeof UI;
export const t = (lang: Lang, key: UiKey): string => UI[key][lang];

/** The base path ("/" or "/inferscope/"), always with a trailing slash. */
export function basePath(): string {
  const b = import.meta.env.BASE_URL;
  return b.endsWith("/") ? b : `${b}/`;
}

/** A site-internal link: base path + language prefix + path. */
export function href(lang: Lang, path: string): string {
  const base = basePath().replace(/\/$/, "");
  const clean = path.replace(/^\//, "");
  return `${base}${lang === "en" ? "" : "/zh"}/${clean}`;
}

/** A language-independent asset or raw file under the base path. */
export function assetHref(path: string): string {
  return `${basePath()}${path.replace(/^\//, "")}`;
}

/** The same page in the other language. */
export function switchLangHref(lang: Lang, path: string): string {
  return href(lang === "en" ? "zh" : "en", path);
}
