import {groups, rollups} from "d3-array";

import type {Bilingual} from "../metrics/types.ts";
import {PERCENTILE_FLOORS, type PercentileKey} from "../stats/summarize.ts";
import {appendAll} from "../util/append.ts";
import {SLO_METRICS, type Candidate, type SloMetric} from "./candidates.ts";
import {byCost, COST_REASON_SUMMARY, costExclusions, type CostConstraints, type CostExclusionCode} from "./cost.ts";

export interface Constraints extends CostConstraints {
  /** Which percentile the latency limits apply to. */
  percentile: PercentileKey;
  /** Upper limits in ms (null: no limit). */
  slo: Record<SloMetric, number | null>;
  /** Minimum successful measured requests at the load point. */
  minSamples: number;
  /** Minimum pass rate in [0, 1] (null: quality not required). */
  minQuality: number | null;
  /** The scorer the quality limit applies to; null: every scorer that was run. */
  qualityScorer: string | null;
  /** Allowed hardware labels; empty: any. */
  hardware: string[];
  /** Only this model (null: any). */
  model: string | null;
}

export const DEFAULT_CONSTRAINTS: Constraints = {
  percentile: "p95",
  slo: {ttft_ms: 2000, itl_ms: 60, e2e_ms: null},
  minSamples: 20,
  minQuality: null,
  qualityScorer: null,
  hardware: [],
  model: null,
  maxUsdPerMOutput: null,
  maxJoulesPerToken: null,
  rankBy: "throughput"
};

export type ExclusionCode =
  | "model"
  | "set_unknown"
  | "hardware"
  | "verdict"
  | "over_saturated"
  | "client_health"
  | "samples"
  | "slo_withheld"
  | "slo_missing"
  | "slo_exceeded"
  | "quality_not_evaluated"
  | "quality_below"
  | "throughput_unknown"
  | CostExclusionCode;

export interface Exclusion {
  code: ExclusionCode;
  text: Bilingual;
}

export interface Ranked {
  candidate: Candidate;
  rank: number;
}

export interface Selection {
  constraints: Constraints;
  /** The best qualifying configuration of each comparable set (measure version, model, workload). */
  recommended: Ranked[];
  /** Every qualifying configuration, grouped by comparable set, best first within each (rank restarts per set). */
  qualifying: Ranked[];
  excluded: {candidate: Candidate; reasons: Exclusion[]}[];
  /** Set when nothing qualifies: why, counted by reason. */
  noRecommendation: Bilingual[] | null;
}

const LABEL: Record<SloMetric, string> = {ttft_ms: "TTFT", itl_ms: "ITL", e2e_ms: "E2E"};
const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/** Fewer scored items than this: a pass rate cannot meet a minimum (one item of one is not 100 %, it is a coin). */
export const MIN_QUALITY_ITEMS = PERCENTILE_FLOORS.p50;

/**
 * The quality limit: every scorer it applies to must have been run, have scored at least MIN_QUALITY_ITEMS items
 * (a scorer that ran but judged nothing, or judged too few, is not evaluated: it cannot meet a minimum), and meet
 * the minimum.
 */
function qualityExclusions(c: Candidate, k: Constraints): Exclusion[] {
  const out: Exclusion[] = [];
  if (k.minQuality === null) return out;
  const applies = c.quality.filter((q) => k.qualityScorer === null || q.scorer === k.qualityScorer);
  const rates = applies.filter((q) => q.rate !== null && q.n >= MIN_QUALITY_ITEMS);
  const scorer = k.qualityScorer ?? "any scorer";
  const unjudged = applies.filter((q) => !rates.includes(q));
  if (rates.length === 0 || unjudged.length > 0) {
    const which = unjudged.length === 0 ? scorer : unjudged.map((q) => `${q.scorer} n=${q.n}`).join(", ");
    out.push({
      code: "quality_not_evaluated",
      text: {
        en: `quality not evaluated (${which}; a pass rate needs ${MIN_QUALITY_ITEMS} scored items): not evaluated is not zero, but it cannot meet a minimum`,
        zh: `质量未评估（${which}；通过率至少需要 ${MIN_QUALITY_ITEMS} 个已评分项）：未评估不等于 0，但无法满足最低要求`
      }
    });
  }
  for (const q of rates)
    if (q.rate! < k.minQuality)
      out.push({
        code: "quality_below",
        text: {
          en: `${q.scorer} pass rate ${pct(q.rate!)} (n=${q.n}) < ${pct(k.minQuality)}`,
          zh: `${q.scorer} 通过率 ${pct(q.rate!)}（n=${q.n}）< ${pct(k.minQuality)}`
        }
      });
  return out;
}

/** Every reason a candidate fails the constraints (empty: it qualifies). */
export function exclusions(c: Candidate, k: Constraints): Exclusion[] {
  const out: Exclusion[] = [];
  if (k.model !== null && c.model !== k.model)
    out.push({
      code: "model",
      text: {en: `model ${c.model ?? "unknown"} is not ${k.model}`, zh: `模型 ${c.model ?? "未知"} 不是 ${k.model}`}
    });
  if (c.set === null)
    out.push({
      code: "set_unknown",
      text: {
        en: `model or measure version unknown: nothing to rank it against`,
        zh: "模型或测量口径版本未知：没有可与之排序的配置"
      }
    });
  if (k.hardware.length > 0 && !k.hardware.includes(c.hardware))
    out.push({code: "hardware", text: {en: `hardware ${c.hardware} not selected`, zh: `硬件 ${c.hardware} 未被选中`}});
  if (c.verdict !== "VALID")
    out.push({code: "verdict", text: {en: `load point verdict ${c.verdict}`, zh: `负载点结论为 ${c.verdict}`}});
  if (c.overSaturated)
    out.push({
      code: "over_saturated",
      text: {
        en: "over-saturated: past what the server sustains (queueing grows or throughput stopped growing)",
        zh: "已过饱和：超出服务端可持续的负载（排队持续增长或吞吐不再增长）"
      }
    });
  if (!["pass", "info", "warn"].includes(c.clientHealth))
    out.push({
      code: "client_health",
      text: {en: `client health (G6) ${c.clientHealth}`, zh: `客户端健康（G6）${c.clientHealth}`}
    });
  if (c.nSuccess < k.minSamples)
    out.push({
      code: "samples",
      text: {
        en: `${c.nSuccess} successful requests < ${k.minSamples} required`,
        zh: `成功请求 ${c.nSuccess} 个，少于要求的 ${k.minSamples} 个`
      }
    });
  const p = k.percentile;
  for (const id of SLO_METRICS) {
    const limit = k.slo[id];
    if (limit === null) continue;
    const v = c.latency[id][p];
    const what = `${LABEL[id]} ${p}`;
    if (v === null) {
      const why = c.withheld[id][p];
      out.push(
        why
          ? {
              code: "slo_withheld",
              text: {
                en: `${what} withheld (${why}): the SLO cannot be checked`,
                zh: `${what} 不发布（${why}）：无法检查 SLO`
              }
            }
          : {
              code: "slo_missing",
              text: {en: `${what} missing: the SLO cannot be checked`, zh: `${what} 缺失：无法检查 SLO`}
            }
      );
    } else if (v > limit)
      out.push({
        code: "slo_exceeded",
        text: {en: `${what} ${fmt(v)} ms > ${fmt(limit)} ms`, zh: `${what} ${fmt(v)} ms > ${fmt(limit)} ms`}
      });
  }
  appendAll(out, qualityExclusions(c, k));
  appendAll(out, costExclusions(c, k));
  if (c.throughputPerGpu === null)
    out.push({
      code: "throughput_unknown",
      text: {en: "throughput per GPU unknown: cannot be ranked", zh: "每 GPU 吞吐未知：无法排序"}
    });
  return out;
}

const REASON_SUMMARY: Record<ExclusionCode, Bilingual> = {
  model: {en: "another model", zh: "其他模型"},
  set_unknown: {en: "model or measure version unknown", zh: "模型或测量口径版本未知"},
  hardware: {en: "hardware not selected", zh: "硬件未被选中"},
  verdict: {en: "not VALID", zh: "结论不是有效"},
  over_saturated: {en: "over-saturated", zh: "已过饱和"},
  client_health: {en: "client health not shown", zh: "客户端健康未证明"},
  samples: {en: "too few samples", zh: "样本太少"},
  slo_withheld: {en: "SLO percentile withheld (too few samples for it)", zh: "SLO 分位数不发布（样本不足）"},
  slo_missing: {en: "SLO metric missing", zh: "SLO 指标缺失"},
  slo_exceeded: {en: "SLO exceeded", zh: "超出 SLO"},
  quality_not_evaluated: {en: "quality not evaluated", zh: "质量未评估"},
  quality_below: {en: "quality below the minimum", zh: "质量低于最低要求"},
  throughput_unknown: {en: "throughput per GPU unknown", zh: "每 GPU 吞吐未知"},
  ...COST_REASON_SUMMARY
};

const byThroughput = (a: Candidate, b: Candidate) =>
  (b.throughputPerGpu ?? -Infinity) - (a.throughputPerGpu ?? -Infinity) ||
  (b.interactivity ?? -Infinity) - (a.interactivity ?? -Infinity) ||
  a.bundle.localeCompare(b.bundle) ||
  a.point.localeCompare(b.point);

/**
 * Constraint-based selection: every candidate either qualifies or is excluded with all of its reasons.
 * Qualifying configurations are ranked by throughput per GPU (then interactivity), or with `rankBy: "cost"`
 * by $/Mtok output, lowest first (then throughput), within each comparable set (the same measure version, model
 * and workload); the best of each set is recommended. When none
 * qualifies, the answer is "no recommendation" with the reasons counted.
 */
export function selectConfigs(candidates: readonly Candidate[], constraints: Constraints): Selection {
  const byRank =
    constraints.rankBy === "cost" ? (a: Candidate, b: Candidate) => byCost(a, b) || byThroughput(a, b) : byThroughput;
  const qualifying: Candidate[] = [];
  const excluded: Selection["excluded"] = [];
  for (const c of candidates) {
    const reasons = exclusions(c, constraints);
    if (reasons.length === 0) qualifying.push(c);
    else excluded.push({candidate: c, reasons});
  }
  // Throughput per GPU (and cost per token) is only comparable within one comparable set — the same measure
  // version, model and workload: rank inside each set, recommend each set's first
  const ranked = groups(qualifying, (c) => c.set!)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([, sameModel]) => sameModel.sort(byRank).map((candidate, i) => ({candidate, rank: i + 1})));
  const recommended = ranked.filter((r) => r.rank === 1).sort((a, b) => byRank(a.candidate, b.candidate));
  excluded.sort((a, b) => byRank(a.candidate, b.candidate));
  let noRecommendation: Bilingual[] | null = null;
  if (ranked.length === 0) {
    if (candidates.length === 0) noRecommendation = [{en: "no measured configurations", zh: "没有已测量的配置"}];
    else {
      const codes = excluded.flatMap((e) => [...new Set(e.reasons.map((r) => r.code))]);
      noRecommendation = rollups(
        codes,
        (v) => v.length,
        (code) => code
      )
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([code, n]) => ({
          en: `${n} of ${candidates.length} configurations: ${REASON_SUMMARY[code].en}`,
          zh: `${candidates.length} 个配置中有 ${n} 个：${REASON_SUMMARY[code].zh}`
        }));
    }
  }
  return {constraints, recommended, qualifying: ranked, excluded, noRecommendation};
}
