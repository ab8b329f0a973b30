/**
 * The case suite's catalogue: ids (they appear in request and quality records, configs and URLs), layer,
 * weight and how a tiered case is read. Shared by the collector (which runs the cases) and the analyzer
 * (which summarises them); the prompts themselves live in collector/cases/.
 */
export const CASE_IDS = [
  "case_01_generation",
  "case_02_tool_call",
  "case_03_file_analysis",
  "case_04_parallel_tools",
  "case_05_long_context",
  "case_06_reasoning",
  "case_07_multi_turn",
  "case_08_concurrency",
  "case_09_prefill_injection",
  "case_10_needle",
  "case_11_instruction",
  "gsm8k"
] as const;
export type CaseId = (typeof CASE_IDS)[number];

export interface CaseMeta {
  id: CaseId;
  title: {en: string; zh: string};
  /** performance: how fast (latency/throughput, with assertions where the task has a checkable answer); quality: how right. */
  layer: "performance" | "quality";
  /** heavy cases are skipped by --skip-heavy; quality cases never are. */
  weight: "easy" | "medium" | "heavy" | "stress";
  /** What a tier is (null: the case has no tiers). */
  tier: {en: string; zh: string} | null;
  /**
   * The tier a case-level number is read at: "heaviest" = the last tier in order (largest context,
   * hardest difficulty, highest concurrency, largest prefill), "last_round" = the last round of a
   * conversation, "all" = every item (untiered cases, and quality cases read per cell).
   */
  headline: "heaviest" | "last_round" | "all";
  /** Tier order when the tiers are not numbers. */
  tierOrder?: readonly string[];
}

export const CASES: readonly CaseMeta[] = [
  {
    id: "case_01_generation",
    title: {en: "Plain text generation", zh: "纯文本生成基准"},
    layer: "performance",
    weight: "easy",
    tier: null,
    headline: "all"
  },
  {
    id: "case_02_tool_call",
    title: {en: "Single tool call", zh: "简单工具调用"},
    layer: "performance",
    weight: "easy",
    tier: null,
    headline: "all"
  },
  {
    id: "case_03_file_analysis",
    title: {en: "Structured file read and analysis", zh: "文件读取+分析"},
    layer: "performance",
    weight: "medium",
    tier: null,
    headline: "all"
  },
  {
    id: "case_04_parallel_tools",
    title: {en: "Parallel tool calls in one turn", zh: "并行工具调用"},
    layer: "performance",
    weight: "medium",
    tier: null,
    headline: "all"
  },
  {
    id: "case_05_long_context",
    title: {en: "Long context processing", zh: "长上下文处理"},
    layer: "performance",
    weight: "heavy",
    tier: {en: "context tokens", zh: "上下文 token"},
    headline: "heaviest"
  },
  {
    id: "case_06_reasoning",
    title: {en: "Reasoning by difficulty", zh: "复杂推理任务"},
    layer: "performance",
    weight: "heavy",
    tier: {en: "difficulty", zh: "难度"},
    headline: "heaviest",
    tierOrder: ["easy", "medium", "hard"]
  },
  {
    id: "case_07_multi_turn",
    title: {en: "Multi-turn conversation", zh: "多轮对话累积"},
    layer: "performance",
    weight: "heavy",
    tier: {en: "round", zh: "轮次"},
    headline: "last_round"
  },
  {
    id: "case_08_concurrency",
    title: {en: "Concurrency sweep", zh: "并发压力测试"},
    layer: "performance",
    weight: "stress",
    tier: {en: "concurrency", zh: "并发"},
    headline: "heaviest"
  },
  {
    id: "case_09_prefill_injection",
    title: {en: "Long-context prefill injection", zh: "长上下文注入"},
    layer: "performance",
    weight: "heavy",
    tier: {en: "prefill tokens", zh: "预填充 token"},
    headline: "heaviest"
  },
  {
    id: "case_10_needle",
    title: {en: "Long-context retrieval (needle)", zh: "长上下文检索命中率"},
    layer: "quality",
    weight: "medium",
    tier: {en: "context tokens", zh: "上下文 token"},
    headline: "all"
  },
  {
    id: "case_11_instruction",
    title: {en: "Instruction following / structured output", zh: "指令遵循 / 结构化输出"},
    layer: "quality",
    weight: "easy",
    tier: null,
    headline: "all"
  },
  {
    id: "gsm8k",
    title: {en: "GSM8K grade-school math", zh: "GSM8K 小学数学"},
    layer: "quality",
    weight: "medium",
    tier: null,
    headline: "all"
  }
];

const BY_ID = new Map<string, CaseMeta>(CASES.map((c) => [c.id, c]));
export const caseMeta = (id: string): CaseMeta | undefined => BY_ID.get(id);
export const isCaseId = (id: string): id is CaseId => BY_ID.has(id);

/** Heavy cases (skipped by --skip-heavy): 05, 06, 07, 09. */
export const HEAVY_CASES: readonly CaseId[] = CASES.filter((c) => c.weight === "heavy").map((c) => c.id);

/** Sorts tier labels: numerically when every label is a number, else by the case's tierOrder, else as text. */
export function sortTiers(caseId: string, tiers: readonly string[]): string[] {
  const order = caseMeta(caseId)?.tierOrder;
  const rank = (t: string) => (order ? order.indexOf(t) : -1);
  const numeric = tiers.every((t) => t !== "" && Number.isFinite(Number(t)));
  return [...tiers].sort((a, b) =>
    numeric
      ? Number(a) - Number(b)
      : rank(a) !== -1 || rank(b) !== -1
        ? (rank(a) === -1 ? Infinity : rank(a)) - (rank(b) === -1 ? Infinity : rank(b))
        : a.localeCompare(b)
  );
}

/** The tier a tiered case is read at (null for untiered cases or when no tier was observed). */
export function headlineTier(caseId: string, tiers: readonly string[]): string | null {
  const meta = caseMeta(caseId);
  if (!meta || meta.headline === "all" || tiers.length === 0) return null;
  return sortTiers(caseId, tiers).at(-1) ?? null;
}
