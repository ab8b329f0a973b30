import type {ProbeSamples} from "../accumulate/probeSamples.ts";
import type {RunConfig, SearchSpec} from "../schema/config.ts";
import {quantileNearestRank} from "../stats/quantile.ts";
import {PERCENTILE_FLOORS} from "../stats/summarize.ts";
import {overSaturation, pointSummary, type PointSummary, type Saturation} from "./saturation.ts";

/**
 * The one definition of "the SLO holds at this probe" (issue 14): the collector calls it on the records it
 * just wrote for a probe (through CollectOptions.judgeProbe) to choose the next one, and the analyzer on
 * the same records read back from the bundle.
 *
 * objective slo: every clause at slo.percentile (nearest rank over the successful measured requests):
 * TTFT pN ≤ ttft_ms, ITL pN ≤ itl_ms, E2E pN ≤ e2e_ms, and the failed share ≤ gates.max_error_rate (a
 * percentile of the successes alone would let a server that fails half its requests pass).
 * objective goodput: the share of measured requests that met every per-request SLO ≥ min_goodput.
 * The margin is the worst clause's value / its limit (goodput: min_goodput / goodput): ≤ 1 holds.
 */

export type Objective = {kind: "slo"} | {kind: "goodput"; min: number};
export const objectiveOf = (s: SearchSpec): Objective =>
  s.objective === "goodput" ? {kind: "goodput", min: s.min_goodput!} : {kind: "slo"};

export type ClauseId = "ttft" | "itl" | "e2e" | "errors" | "goodput";

export interface Clause {
  id: ClauseId;
  /** The clause's statistic (ms for latencies, a fraction for errors and goodput), null when not evaluable. */
  value: number | null;
  limit: number;
  /** value / limit (goodput: limit / value): ≤ 1 holds; null when not evaluable. */
  ratio: number | null;
  /** Values the statistic was computed from. */
  n: number;
}

export type ProbeStatus = "pass" | "fail" | "not_evaluable";

export interface ProbeVerdict {
  status: ProbeStatus;
  /** Worst clause ratio (≤ 1 holds), null when not evaluable. */
  margin: number | null;
  clauses: Clause[];
  saturation: Saturation;
  reason: string;
  /** What the next probe above compares with (throughput, median E2E). */
  summary: PointSummary;
}

const P_OF: Record<string, number> = {p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99};

/** Ratio of a "lower is better" statistic to its limit; a zero limit is met only by zero. */
const ratioOf = (value: number, limit: number): number => (limit > 0 ? value / limit : value > 0 ? Infinity : 0);

/** Column values at the indices `idx` (a bootstrap resample), finite ones only. */
function finiteAt(col: readonly number[], idx: ArrayLike<number>): Float64Array {
  const out = new Float64Array(idx.length);
  let k = 0;
  for (let i = 0; i < idx.length; i++) {
    const v = col[idx[i]!]!;
    if (Number.isFinite(v)) out[k++] = v;
  }
  return out.subarray(0, k);
}

/** Every clause of the objective on the requests `idx` of the samples (all of them by default). */
export function clausesOf(
  s: ProbeSamples,
  objective: Objective,
  config: RunConfig,
  idx: ArrayLike<number> = Array.from({length: s.n}, (_, i) => i)
): Clause[] {
  const slo = config.slo;
  const floor = PERCENTILE_FLOORS[slo.percentile];
  if (objective.kind === "goodput") {
    let known = 0;
    let good = 0;
    for (let i = 0; i < idx.length; i++) {
      const g = s.good[idx[i]!]!;
      if (Number.isNaN(g)) continue;
      known++;
      good += g;
    }
    // unknown counts as not good: a request that cannot be judged does not add to the goodput
    const value = idx.length >= floor ? good / idx.length : null;
    const ratio = value === null ? null : value > 0 ? objective.min / value : objective.min > 0 ? Infinity : 0;
    return [{id: "goodput", value, limit: objective.min, ratio, n: known}];
  }
  const p = P_OF[slo.percentile]!;
  const latency = (id: ClauseId, col: readonly number[], limit: number): Clause => {
    const xs = finiteAt(col, idx);
    const value = xs.length >= floor ? quantileNearestRank(xs, p)! : null;
    return {id, value, limit, ratio: value === null ? null : ratioOf(value, limit), n: xs.length};
  };
  let failed = 0;
  for (let i = 0; i < idx.length; i++) if (s.ok[idx[i]!] === 0) failed++;
  const errorShare = idx.length > 0 ? failed / idx.length : null;
  const maxErr = config.gates.max_error_rate;
  return [
    latency("ttft", s.ttftMs, slo.ttft_ms),
    latency("itl", s.itlMs, slo.itl_ms),
    latency("e2e", s.e2eMs, slo.e2e_ms),
    {
      id: "errors",
      value: errorShare,
      limit: maxErr,
      ratio: errorShare === null ? null : ratioOf(errorShare, maxErr),
      n: idx.length
    }
  ];
}

/** The worst clause ratio, or null when any clause is not evaluable. */
export function marginOf(clauses: readonly Clause[]): number | null {
  let worst = -Infinity;
  for (const c of clauses) {
    if (c.ratio === null) return null;
    worst = Math.max(worst, c.ratio);
  }
  return clauses.length > 0 ? worst : null;
}

const UNIT: Record<ClauseId, string> = {ttft: " ms", itl: " ms", e2e: " ms", errors: "", goodput: ""};
const clauseText = (c: Clause, pct: string): string => {
  const fmt = (v: number) => (c.id === "errors" || c.id === "goodput" ? `${(v * 100).toFixed(1)} %` : v.toFixed(1));
  const name = c.id === "errors" ? "failed share" : c.id === "goodput" ? "goodput" : `${c.id.toUpperCase()} ${pct}`;
  const op = c.id === "goodput" ? "≥" : "≤";
  if (c.value === null) return `${name} not evaluable (n ${c.n})`;
  const holds = c.ratio !== null && c.ratio <= 1;
  return `${name} ${fmt(c.value)}${UNIT[c.id]} ${holds ? op : op === "≤" ? ">" : "<"} ${fmt(c.limit)}${UNIT[c.id]}`;
};

/**
 * A probe's verdict: pass when every clause holds and the point is not over-saturated; not evaluable when a
 * clause's percentile lacks its floor (p95: 20 values), never a pass; else fail. `lower` is the summary of
 * the next lower load of the same mode, for the throughput-plateau rule (null when there is none).
 */
export function judgeProbe(
  s: ProbeSamples,
  objective: Objective,
  config: RunConfig,
  value: number,
  lower: PointSummary | null
): ProbeVerdict {
  const clauses = clausesOf(s, objective, config);
  const margin = marginOf(clauses);
  const summary = pointSummary(s, value);
  const saturation = overSaturation(s, summary, lower);
  const pct = config.slo.percentile.toUpperCase();
  const texts = clauses.map((c) => clauseText(c, pct));
  if (margin === null) {
    const floor = PERCENTILE_FLOORS[config.slo.percentile];
    return {
      status: "not_evaluable",
      margin,
      clauses,
      saturation,
      summary,
      reason: `not evaluable: ${pct} needs ≥ ${floor} values (${texts.join("; ")})`
    };
  }
  const failed = margin > 1 || saturation.over_saturated;
  const sat = saturation.over_saturated ? `; over-saturated: ${saturation.reasons.join("; ")}` : "";
  return {
    status: failed ? "fail" : "pass",
    margin,
    clauses,
    saturation,
    summary,
    reason: `${failed ? "fails" : "holds"}: ${texts.join("; ")}${sat}`
  };
}
