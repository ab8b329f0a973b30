/**
 * The regression gate (issue 18; the earlier InferScope's planned "regression gate"): a candidate run against
 * a baseline of the same workload, per load point and metric, on the per-request samples. A rule fails only
 * when the LOWER bound of a seeded percentile-bootstrap interval of the regression exceeds the allowed
 * regression — so noise, which puts the interval around the point estimate, does not fail a pipeline, and a
 * real regression, which moves the whole interval, does.
 */
import {metricById} from "../metrics/registry.ts";
import type {RequestRow} from "../accumulate/point.ts";
import {mulberry32} from "../stats/prng.ts";
import {PERCENTILE_FLOORS, percentileOf} from "../stats/summarize.ts";
import {comparability, type Comparability} from "./comparability.ts";
import {DISTRIBUTION_METRICS, type CompareRun} from "./compare.ts";
import {seedOf} from "./seed.ts";

export const REGRESSION_STATS = {p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99} as const;
export type RegressionStat = keyof typeof REGRESSION_STATS;

export interface RegressionRule {
  metric: (typeof DISTRIBUTION_METRICS)[number]["id"];
  stat: RegressionStat;
  /** Allowed regression, % of the baseline's value. */
  maxPct: number;
}

export const DEFAULT_RULES: readonly RegressionRule[] = [
  {metric: "ttft_ms", stat: "p95", maxPct: 5},
  {metric: "itl_ms", stat: "p95", maxPct: 5},
  {metric: "e2e_ms", stat: "p95", maxPct: 5}
];

export interface RegressionCheck {
  point: string;
  metric: string;
  stat: RegressionStat;
  nBaseline: number;
  nCandidate: number;
  baseline: number | null;
  candidate: number | null;
  /** Regression, % of the baseline (positive: worse), and its interval. */
  regressionPct: number | null;
  lo: number | null;
  hi: number | null;
  maxPct: number;
  status: "pass" | "fail" | "not_evaluable";
  reason: string;
}

export interface RegressionResult {
  comparability: Comparability;
  checks: RegressionCheck[];
  status: "pass" | "fail" | "not_evaluable" | "not_comparable";
  method: {resamples: number; level: number; prng: "mulberry32"; seed: number};
}

/** "ttft_ms:p95" → a rule with the allowed regression; a message naming the value otherwise. */
export function parseRule(text: string, maxPct: number): RegressionRule | string {
  const parts = text.split(":");
  if (parts.length > 2) return `--metric ${text}: expected METRIC or METRIC:STAT (e.g. ttft_ms:p95)`;
  const [metric, stat = "p95"] = parts;
  const ids = DISTRIBUTION_METRICS.map((m) => m.id) as string[];
  if (!ids.includes(metric!))
    return `--metric ${text}: per-request samples are kept for ${ids.join(", ")} (a run-level metric has no per-request spread)`;
  if (!Object.hasOwn(REGRESSION_STATS, stat))
    return `--metric ${text}: the statistic is one of ${Object.keys(REGRESSION_STATS).join(", ")}`;
  return {metric: metric as RegressionRule["metric"], stat: stat as RegressionStat, maxPct};
}

function samples(run: CompareRun, point: string, metric: string): Float64Array {
  const pick = DISTRIBUTION_METRICS.find((m) => m.id === metric)!.row;
  const out: number[] = [];
  for (const r of run.rows ?? ([] as RequestRow[]))
    if (r.point === point && r.phase === "measure" && r.outcome === "success") {
      const v = pick(r);
      if (v !== null && Number.isFinite(v)) out.push(v);
    }
  return Float64Array.from(out);
}

/** Regression in % of the baseline: positive is worse, whichever way the metric improves. */
const regression = (metric: string, base: number, cand: number): number =>
  ((metricById(metric).direction === "higher" ? base - cand : cand - base) / base) * 100;

function check(
  point: string,
  rule: RegressionRule,
  xa: Float64Array,
  xb: Float64Array,
  rng: () => number,
  o: {resamples: number; level: number}
): RegressionCheck {
  // the statistic exactly as the report publishes it (stats/summarize.ts): the median for p50, else the metric's method
  const def = metricById(rule.metric);
  const method = def.kind === "run" ? "nearest-rank" : def.method;
  const stat = (x: Float64Array) => percentileOf(x, rule.stat, method)!;
  const base = {
    point,
    metric: rule.metric,
    stat: rule.stat,
    nBaseline: xa.length,
    nCandidate: xb.length,
    maxPct: rule.maxPct
  };
  const floor = PERCENTILE_FLOORS[rule.stat];
  const none = {baseline: null, candidate: null, regressionPct: null, lo: null, hi: null};
  if (xa.length < floor || xb.length < floor)
    return {
      ...base,
      ...none,
      status: "not_evaluable",
      reason: `${rule.stat} needs n ≥ ${floor} on each side (n=${xa.length} vs n=${xb.length})`
    };
  const a = stat(xa.slice());
  const b = stat(xb.slice());
  if (!(a > 0))
    return {
      ...base,
      ...none,
      status: "not_evaluable",
      reason: `the baseline's ${rule.stat} is ${a}: no relative change`
    };
  const sa = new Float64Array(xa.length);
  const sb = new Float64Array(xb.length);
  const regs = new Float64Array(o.resamples);
  for (let r = 0; r < o.resamples; r++) {
    for (let i = 0; i < xa.length; i++) sa[i] = xa[Math.floor(rng() * xa.length)]!;
    for (let i = 0; i < xb.length; i++) sb[i] = xb[Math.floor(rng() * xb.length)]!;
    const ra = stat(sa);
    regs[r] = ra > 0 ? regression(rule.metric, ra, stat(sb)) : 0;
  }
  regs.sort();
  const alpha = (1 - o.level) / 2;
  const lo = regs[Math.floor(alpha * (o.resamples - 1))]!;
  const hi = regs[Math.ceil((1 - alpha) * (o.resamples - 1))]!;
  const pct = regression(rule.metric, a, b);
  const fail = lo > rule.maxPct;
  const range = `${pct.toFixed(1)} % [${lo.toFixed(1)}, ${hi.toFixed(1)}]`;
  return {
    ...base,
    baseline: a,
    candidate: b,
    regressionPct: pct,
    lo,
    hi,
    status: fail ? "fail" : "pass",
    reason: fail
      ? `regressed ${range}: even the interval's lower bound is above the allowed ${rule.maxPct} %`
      : `${range}: the interval's lower bound is within the allowed ${rule.maxPct} %`
  };
}

/**
 * The candidate against the baseline: every rule at every load point both have (matched by id). Not
 * comparable runs (another model, workload or measure version) get no numbers, only the reasons.
 */
export function regressionGate(
  baseline: CompareRun,
  candidate: CompareRun,
  rules: readonly RegressionRule[] = DEFAULT_RULES,
  options: {resamples?: number; level?: number; seed?: number} = {}
): RegressionResult {
  const o = {resamples: options.resamples ?? 2000, level: options.level ?? 0.95};
  const seed = options.seed ?? seedOf(`${baseline.bundle}\n${candidate.bundle}`);
  const method = {...o, prng: "mulberry32" as const, seed};
  const comp = comparability([baseline, candidate]);
  if (!comp.comparable) return {comparability: comp, checks: [], status: "not_comparable", method};
  const rng = mulberry32(seed);
  const checks: RegressionCheck[] = [];
  for (const p of baseline.load_points) {
    const xa = (rule: RegressionRule) => samples(baseline, p.id, rule.metric);
    if (!candidate.load_points.some((c) => c.id === p.id)) {
      // a load point the candidate dropped is not a pass: its regression is unknown
      for (const rule of rules)
        checks.push({
          point: p.id,
          metric: rule.metric,
          stat: rule.stat,
          nBaseline: xa(rule).length,
          nCandidate: 0,
          baseline: null,
          candidate: null,
          regressionPct: null,
          lo: null,
          hi: null,
          maxPct: rule.maxPct,
          status: "not_evaluable",
          reason: `the candidate has no load point ${p.id}`
        });
      continue;
    }
    for (const rule of rules) checks.push(check(p.id, rule, xa(rule), samples(candidate, p.id, rule.metric), rng, o));
  }
  // every rule must be judged: one that cannot be (too few samples, a dropped point) is not a pass
  const status = checks.some((c) => c.status === "fail")
    ? "fail"
    : checks.length > 0 && checks.every((c) => c.status === "pass")
      ? "pass"
      : "not_evaluable";
  return {comparability: comp, checks, status, method};
}
