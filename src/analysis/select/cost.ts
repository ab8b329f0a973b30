import {formatNumber} from "../format.ts";
import type {Fact} from "../hardware/schema.ts";
import type {Bilingual} from "../metrics/types.ts";
import {NO_HARDWARE_DATA, type Candidate} from "./candidates.ts";

/** How qualifying configurations are ordered: throughput per GPU (then interactivity), or $/Mtok output. */
export const RANK_BY = ["throughput", "cost"] as const;
export type RankBy = (typeof RANK_BY)[number];

/** The cost and energy limits of a selection, and its ranking. */
export interface CostConstraints {
  /** Upper limit on USD per million output tokens (null: no limit). */
  maxUsdPerMOutput: number | null;
  /** Upper limit on joules per output token (null: no limit). */
  maxJoulesPerToken: number | null;
  /** "cost": $/Mtok output, lowest first; a configuration whose cost is unknown cannot be ranked so. */
  rankBy: RankBy;
}

export type CostExclusionCode =
  "cost_unknown" | "cost_exceeded" | "energy_unknown" | "energy_sparse" | "energy_exceeded";

const noData = (): Fact => ({value: null, from: null, reason: NO_HARDWARE_DATA});

/** USD per million output tokens of a candidate (unknown, with the reason, when it carries no cost). */
export const usdPerMOutput = (c: Candidate): Fact => c.cost?.perMOutput ?? noData();
/** Joules per output token of a candidate (unknown, with the reason, when it carries no energy). */
export const joulesPerToken = (c: Candidate): Fact => c.energy?.joulesPerOutputToken ?? noData();

/** Dollars with cents (a price limit reads "$0.50"), small amounts with two significant digits. */
const usd = (v: number) => `$${v >= 0.01 ? formatNumber(v, 2) : v.toPrecision(2)}`;
const joules = (v: number) => `${formatNumber(v)} J`;

/** Cost limit and ranking: an unknown cost never passes a limit and is never ranked by cost (unknown is not a pass). */
function costExclusion(c: Candidate, k: CostConstraints): {code: CostExclusionCode; text: Bilingual} | null {
  if (k.maxUsdPerMOutput === null && k.rankBy !== "cost") return null;
  const f = usdPerMOutput(c);
  if (f.value === null) {
    const why = f.reason ?? "unknown";
    return {code: "cost_unknown", text: {en: `cost unknown: ${why}`, zh: `成本未知：${why}`}};
  }
  if (k.maxUsdPerMOutput !== null && f.value > k.maxUsdPerMOutput)
    return {
      code: "cost_exceeded",
      text: {
        en: `${usd(f.value)} per million output tokens > ${usd(k.maxUsdPerMOutput)}`,
        zh: `每百万输出 token ${usd(f.value)} > ${usd(k.maxUsdPerMOutput)}`
      }
    };
  return null;
}

/** Energy limit: unknown, or integrated from too few power samples to trust, never meets it. */
function energyExclusion(c: Candidate, k: CostConstraints): {code: CostExclusionCode; text: Bilingual} | null {
  if (k.maxJoulesPerToken === null) return null;
  const f = joulesPerToken(c);
  if (f.value === null) {
    const why = f.reason ?? "unknown";
    return {code: "energy_unknown", text: {en: `energy unknown: ${why}`, zh: `能耗未知：${why}`}};
  }
  if (c.energy?.sparse === true) {
    const why = c.energy.reason ?? "too few power samples";
    return {
      code: "energy_sparse",
      text: {en: `energy too sparse to trust: ${why}`, zh: `能耗采样过少，不可信：${why}`}
    };
  }
  if (f.value > k.maxJoulesPerToken)
    return {
      code: "energy_exceeded",
      text: {
        en: `${joules(f.value)} per output token > ${joules(k.maxJoulesPerToken)}`,
        zh: `每输出 token ${joules(f.value)} > ${joules(k.maxJoulesPerToken)}`
      }
    };
  return null;
}

/** Every cost and energy reason a candidate fails the limits (empty: it meets them). */
export function costExclusions(c: Candidate, k: CostConstraints): {code: CostExclusionCode; text: Bilingual}[] {
  return [costExclusion(c, k), energyExclusion(c, k)].filter((e) => e !== null);
}

export const COST_REASON_SUMMARY: Record<CostExclusionCode, Bilingual> = {
  cost_unknown: {en: "cost unknown", zh: "成本未知"},
  cost_exceeded: {en: "cost above the limit", zh: "成本超出上限"},
  energy_unknown: {en: "energy unknown", zh: "能耗未知"},
  energy_sparse: {en: "energy from too few power samples", zh: "能耗采样过少"},
  energy_exceeded: {en: "energy above the limit", zh: "能耗超出上限"}
};

/** $/Mtok output, lowest first; unknown last (only qualifying candidates, whose cost is known, are ranked so). */
export const byCost = (a: Candidate, b: Candidate): number =>
  (usdPerMOutput(a).value ?? Infinity) - (usdPerMOutput(b).value ?? Infinity) || 0;
