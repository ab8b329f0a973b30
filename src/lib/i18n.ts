import type {Bilingual} from "../analysis/index.ts";

export const LANGS = ["en", "zh"] as const;
export type Lang = (typeof LANGS)[number];

/** getStaticPaths entries for the `[...lang]` rest parameter: English at the root, Chinese under /zh/. */
export const langPaths = () => LANGS.map((lang) => ({params: {lang: lang === "en" ? undefined : lang}, props: {lang}}));

export const pick = (text: Bilingual, lang: Lang): string => text[lang];

const UI = {
  siteTitle: {en: "InferScope", zh: "InferScope"},
  tagline: {
    en: "Evidence-first LLM serving benchmarks: every number recomputed from raw requests.",
    zh: "以证据为先的大模型推理服务基准：每个数字都由原始请求重新计算。"
  },
  navRuns: {en: "Runs", zh: "运行"},
  navMethodology: {en: "Methodology", zh: "方法论"},
  verdict: {en: "Verdict", zh: "结论"},
  bundle: {en: "Bundle", zh: "证据包"},
  model: {en: "Model", zh: "模型"},
  hardware: {en: "Hardware", zh: "硬件"},
  engine: {en: "Engine", zh: "引擎"},
  mode: {en: "Load", zh: "负载"},
  provenance: {en: "Provenance", zh: "来源"},
  metric: {en: "Metric", zh: "指标"},
  unit: {en: "Unit", zh: "单位"},
  value: {en: "Value", zh: "数值"},
  gate: {en: "Gate", zh: "门禁"},
  status: {en: "Status", zh: "状态"},
  reason: {en: "Reason", zh: "原因"},
  threshold: {en: "Threshold", zh: "阈值"},
  loadPoint: {en: "Load point", zh: "负载点"},
  gates: {en: "Validity gates", zh: "有效性门禁"},
  metrics: {en: "Metrics", zh: "指标"},
  charts: {en: "Charts", zh: "图表"},
  issues: {en: "Evidence issues", zh: "证据问题"},
  noBundles: {en: "No bundles in evidence/ yet.", zh: "evidence/ 中还没有证据包。"},
  language: {en: "中文", zh: "English"},
  theme: {en: "Theme", zh: "主题"},
  notEvaluated: {en: "not evaluated", zh: "未评估"},
  missing: {en: "missing", zh: "缺失"},
  withheld: {en: "withheld", zh: "不发布"},
  measured: {en: "measured", zh: "被测"},
  succeeded: {en: "succeeded", zh: "成功"},
  definition: {en: "Definition", zh: "定义"},
  formula: {en: "Formula", zh: "公式"},
  method: {en: "Percentile method", zh: "分位数方法"},
  population: {en: "Population", zh: "样本范围"},
  direction: {en: "Better", zh: "越…越好"},
  lower: {en: "lower", zh: "越低越好"},
  higher: {en: "higher", zh: "越高越好"},
  none: {en: "—", zh: "—"},
  outcome: {en: "On failure", zh: "失败时"},
  measureVersion: {en: "Measure version", zh: "测量口径版本"},
  analyzerVersion: {en: "Analyzer version", zh: "分析器版本"},
  reading: {en: "Reading discipline", zh: "解读纪律"}
} satisfies Record<string, Bilingual>;

export type UiKey = keyof typeof UI;
export const t = (lang: Lang, key: UiKey): string => UI[key][lang];

/** A site-internal link: base path + language prefix + path. */
export function href(lang: Lang, path: string): string {
  const base = import.meta.env.BASE_URL.replace(/\/$/, "");
  const clean = path.replace(/^\//, "");
  return `${base}${lang === "en" ? "" : "/zh"}/${clean}`;
}

/** The same page in the other language. */
export function switchLangHref(lang: Lang, path: string): string {
  return href(lang === "en" ? "zh" : "en", path);
}
