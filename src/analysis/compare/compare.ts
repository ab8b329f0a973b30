import {intersection} from "d3-array";

import type {RequestRow} from "../accumulate/point.ts";
import {metricById} from "../metrics/registry.ts";
import {isSummary, type PointReport, type Report} from "../report/types.ts";
import {bootstrapMedianDiff, type Interval} from "../stats/bootstrap.ts";
import {mulberry32, PRNG_NAME} from "../stats/prng.ts";
import {median} from "../stats/quantile.ts";
import type {Stability} from "../stats/stability.ts";
import {comparability, type Comparability, type ComparableRun} from "./comparability.ts";
import {seedOf} from "./seed.ts";

/** Request-level metrics compared through their per-request values (median difference with a bootstrap CI). */
export const DISTRIBUTION_METRICS = [
  {id: "ttft_ms", row: (r: RequestRow) => r.ttftMs},
  {id: "itl_ms", row: (r: RequestRow) => r.itlMs},
  {id: "e2e_ms", row: (r: RequestRow) => r.e2eMs}
] as const;

/** Run-level metrics: one value per load point, so a difference has no interval (repeats give a spread). */
export const RUN_LEVEL_METRICS = [
  "output_throughput_tok_s",
  "request_throughput_rps",
  "goodput_pct",
  "success_rate_pct"
] as const;

export type CompareRun = ComparableRun & Pick<Report, "load_points" | "rows">;

/** One side of a comparison: a load point of a bundle. */
export interface Arm {
  bundle: string;
  point: string;
}

export type Reading = "better" | "worse" | "no_clear_difference" | "not_evaluated";

export interface DistributionDiff {
  metric: string;
  baseline: Arm;
  other: Arm;
  nBaseline: number;
  nOther: number;
  medianBaseline: number | null;
  medianOther: number | null;
  /** other − baseline. */
  diff: number | null;
  /** (other − baseline) / baseline, in percent. */
  relPct: number | null;
  ci: Interval | null;
  reading: Reading;
  /** Why there is no interval (null when there is one). */
  reason: string | null;
}

export interface RunDiff {
  metric: string;
  baseline: Arm;
  other: Arm;
  valueBaseline: number | null;
  valueOther: number | null;
  diff: number | null;
  relPct: number | null;
  stabilityBaseline: Stability | null;
  stabilityOther: Stability | null;
  reason: string | null;
}

export interface Comparison {
  /** "bundles": the same load points across bundles; "sweep": the load points of one bundle. */
  kind: "bundles" | "sweep";
  bundles: string[];
  comparability: Comparability;
  /** Pairs compared (baseline first); empty when not comparable. */
  pairs: {baseline: Arm; other: Arm}[];
  distribution: DistributionDiff[];
  run: RunDiff[];
  /** Load points present in some bundles but not all (not compared). */
  unmatched: Arm[];
  method: {prng: string; seed: number; resamples: number; level: number};
}

export interface CompareOptions {
  resamples?: number;
  level?: number;
  /** Overrides the seed derived from the bundle ids. */
  seed?: number;
}

const measuredSuccesses = (rows: readonly RequestRow[] | undefined, point: string) =>
  (rows ?? []).filter((r) => r.point === point && r.phase === "measure" && r.outcome === "success");

function valuesOf(run: CompareRun, point: string, pick: (r: RequestRow) => number | null): Float64Array {
  const out: number[] = [];
  for (const r of measuredSuccesses(run.rows, point)) {
    const v = pick(r);
    if (v !== null && Number.isFinite(v)) out.push(v);
  }
  return Float64Array.from(out);
}

function readingOf(metric: string, ci: Interval): Reading {
  const dir = metricById(metric).direction;
  if (ci.lo <= 0 && ci.hi >= 0) return "no_clear_difference";
  if (dir === "none") return "no_clear_difference";
  const higher = ci.lo > 0;
  return higher === (dir === "higher") ? "better" : "worse";
}

function distributionDiff(
  metric: (typeof DISTRIBUTION_METRICS)[number],
  a: {run: CompareRun; arm: Arm},
  b: {run: CompareRun; arm: Arm},
  rng: () => number,
  o: Required<Omit<CompareOptions, "seed">>
): DistributionDiff {
  const xa = valuesOf(a.run, a.arm.point, metric.row);
  const xb = valuesOf(b.run, b.arm.point, metric.row);
  const ma = median(xa.slice()) ?? null;
  const mb = median(xb.slice()) ?? null;
  const base = {
    metric: metric.id,
    baseline: a.arm,
    other: b.arm,
    nBaseline: xa.length,
    nOther: xb.length,
    medianBaseline: xa.length >= 5 ? ma : null,
    medianOther: xb.length >= 5 ? mb : null
  };
  if (a.run.rows === undefined || b.run.rows === undefined)
    return {...base, diff: null, relPct: null, ci: null, reading: "not_evaluated", reason: "per-request rows not kept"};
  const ci = bootstrapMedianDiff(Array.from(xa), Array.from(xb), rng, o.resamples, o.level);
  if (!ci || ma === null || mb === null)
    return {
      ...base,
      diff: null,
      relPct: null,
      ci: null,
      reading: "not_evaluated",
      reason: `a median needs n ≥ 5 on both sides (n=${xa.length} vs n=${xb.length})`
    };
  return {
    ...base,
    diff: mb - ma,
    relPct: ma !== 0 ? ((mb - ma) / ma) * 100 : null,
    ci,
    reading: readingOf(metric.id, ci),
    reason: null
  };
}

function runValue(
  p: PointReport | undefined,
  id: string
): {value: number | null; reason?: string; stability?: Stability} {
  const m = p?.metrics[id];
  if (!m) return {value: null, reason: "not computed"};
  if (isSummary(m)) return {value: m.p50, reason: m.withheld.p50};
  return m;
}

function runDiff(metric: string, a: {run: CompareRun; arm: Arm}, b: {run: CompareRun; arm: Arm}): RunDiff {
  const va = runValue(
    a.run.load_points.find((p) => p.id === a.arm.point),
    metric
  );
  const vb = runValue(
    b.run.load_points.find((p) => p.id === b.arm.point),
    metric
  );
  const both = va.value !== null && vb.value !== null;
  return {
    metric,
    baseline: a.arm,
    other: b.arm,
    valueBaseline: va.value,
    valueOther: vb.value,
    diff: both ? vb.value! - va.value! : null,
    relPct: both && va.value !== 0 ? ((vb.value! - va.value!) / va.value!) * 100 : null,
    stabilityBaseline: va.stability ?? null,
    stabilityOther: vb.stability ?? null,
    reason: both ? null : (va.reason ?? vb.reason ?? "missing")
  };
}

/**
 * Compares bundles load point by load point (baseline: the first bundle), or — given one bundle — its
 * load points against the first one. Refuses numbers (no pairs, no diffs) when the runs are not comparable.
 * Median differences carry a seeded percentile-bootstrap interval; run-level metrics only a difference.
 */
export function compareRuns(runs: readonly CompareRun[], options: CompareOptions = {}): Comparison {
  const o = {resamples: options.resamples ?? 2000, level: options.level ?? 0.95};
  const seed = options.seed ?? seedOf(runs.map((r) => r.bundle).join("\n"));
  const rng = mulberry32(seed);
  const verdict = comparability(runs);
  const kind = runs.length === 1 ? "sweep" : "bundles";
  const out: Comparison = {
    kind,
    bundles: runs.map((r) => r.bundle),
    comparability: verdict,
    pairs: [],
    distribution: [],
    run: [],
    unmatched: [],
    method: {prng: PRNG_NAME, seed, ...o}
  };
  if (runs.length === 0) return out;
  const sides: {a: {run: CompareRun; arm: Arm}; b: {run: CompareRun; arm: Arm}}[] = [];
  if (kind === "sweep") {
    const run = runs[0]!;
    const points = [...run.load_points].sort((x, y) => x.mode.localeCompare(y.mode) || x.value - y.value);
    if (points.length < 2)
      verdict.reasons.push({en: "a sweep needs at least two load points", zh: "扫描至少需要两个负载点"});
    const first = points[0];
    for (const p of points.slice(1))
      sides.push({
        a: {run, arm: {bundle: run.bundle, point: first!.id}},
        b: {run, arm: {bundle: run.bundle, point: p.id}}
      });
  } else {
    const [baseline, ...others] = runs;
    const common = intersection(...runs.map((r) => r.load_points.map((p) => p.id)));
    for (const r of runs)
      for (const p of r.load_points) if (!common.has(p.id)) out.unmatched.push({bundle: r.bundle, point: p.id});
    if (common.size === 0)
      verdict.reasons.push({en: "no load point is shared by every bundle", zh: "没有所有证据包共有的负载点"});
    for (const point of common)
      for (const other of others)
        sides.push({
          a: {run: baseline!, arm: {bundle: baseline!.bundle, point}},
          b: {run: other, arm: {bundle: other.bundle, point}}
        });
  }
  verdict.comparable = verdict.reasons.length === 0;
  if (!verdict.comparable) return out;
  for (const s of sides) {
    out.pairs.push({baseline: s.a.arm, other: s.b.arm});
    for (const m of DISTRIBUTION_METRICS) out.distribution.push(distributionDiff(m, s.a, s.b, rng, o));
    for (const m of RUN_LEVEL_METRICS) out.run.push(runDiff(m, s.a, s.b));
  }
  return out;
}
