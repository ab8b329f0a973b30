import type {ProbeSamples} from "../accumulate/probeSamples.ts";
import {median} from "../stats/quantile.ts";

/**
 * Over-saturation (issue 14): a load point past what the server sustains, whose numbers must never be read
 * as a capacity. Two rules, each from the point's own requests (and the next lower point of its mode):
 *
 * 1. queueing grows through the point: TTFT (measured from the schedule in open loop) rises from the first
 *    third of the measured requests (arrival order) to the last: median(last) > 1.5 × median(first), and
 *    a significant rank trend (Spearman ρ of TTFT against arrival order, z = ρ·√(n − 1) > 2.326, one-sided
 *    p < 0.01). Needs ≥ 12 successes.
 * 2. throughput stops growing with load: against the next lower load of the same mode, the load rose by ≥ 10 %,
 *    the throughput (successes / their window) grew by less than a quarter of the load's rise, and the
 *    median E2E latency grew by ≥ 10 %.
 */

export const QUEUE_GROWTH_RATIO = 1.5;
export const TREND_Z = 2.326;
export const MIN_TREND_N = 12;
export const MIN_LOAD_RISE = 1.1;
export const THROUGHPUT_SHARE = 0.25;
export const MIN_LATENCY_RISE = 1.1;

export interface PointSummary {
  value: number;
  /** Successful requests per second over [first start, last end] of the successes; null when unknown. */
  throughput: number | null;
  e2eMedianMs: number | null;
}

export interface Saturation {
  over_saturated: boolean;
  /** The rules that fired (the site words them in either language). */
  rules: ("queue_growth" | "plateau")[];
  /** Each rule that fired, in words (English). */
  reasons: string[];
  queue_growth: {
    first_third_ms: number;
    last_third_ms: number;
    rho: number;
    z: number;
    n: number;
  } | null;
  plateau: {
    lower_value: number;
    load_ratio: number;
    throughput_ratio: number | null;
    latency_ratio: number | null;
  } | null;
}

/** A point's throughput and median E2E, what the next point above compares with. */
export function pointSummary(s: ProbeSamples, value: number): PointSummary {
  let lo = Infinity;
  let hi = -Infinity;
  let ok = 0;
  for (let i = 0; i < s.n; i++) {
    if (s.ok[i] !== 1) continue;
    ok++;
    if (Number.isFinite(s.tStartNs[i]!)) lo = Math.min(lo, s.tStartNs[i]!);
    if (Number.isFinite(s.tEndNs[i]!)) hi = Math.max(hi, s.tEndNs[i]!);
  }
  const spanS = (hi - lo) / 1e9;
  const e2e = Float64Array.from(s.e2eMs.filter(Number.isFinite));
  return {value, throughput: ok > 0 && spanS > 0 ? ok / spanS : null, e2eMedianMs: median(e2e) ?? null};
}

/** Ranks 1…n with ties given their average rank. */
export function ranks(xs: readonly number[]): number[] {
  const idx = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && xs[idx[j + 1]!] === xs[idx[i]!]) j++;
    for (let k = i; k <= j; k++) out[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** Spearman's ρ of ys against their order 1…n (Pearson correlation of the ranks); null below 3 values or without spread. */
export function spearmanTrend(ys: readonly number[]): number | null {
  const n = ys.length;
  if (n < 3) return null;
  const ry = ranks(ys);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = i + 1 - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/** Rule 1: TTFT of the successes in arrival order, compared between thirds and by rank trend. */
export function queueGrowth(s: ProbeSamples): Saturation["queue_growth"] {
  const ttft = s.ttftMs.filter(Number.isFinite);
  const n = ttft.length;
  if (n < MIN_TREND_N) return null;
  const third = Math.floor(n / 3);
  const first = median(Float64Array.from(ttft.slice(0, third)))!;
  const last = median(Float64Array.from(ttft.slice(n - third)))!;
  const rho = spearmanTrend(ttft) ?? 0;
  return {first_third_ms: first, last_third_ms: last, rho, z: rho * Math.sqrt(n - 1), n};
}

/** Whether a point is over-saturated, and why in words. */
export function overSaturation(s: ProbeSamples, here: PointSummary, lower: PointSummary | null): Saturation {
  const reasons: string[] = [];
  const rules: Saturation["rules"] = [];
  const q = queueGrowth(s);
  if (q !== null && q.last_third_ms > QUEUE_GROWTH_RATIO * q.first_third_ms && q.z > TREND_Z) {
    rules.push("queue_growth");
    reasons.push(
      `queueing grows through the point: TTFT median ${q.first_third_ms.toFixed(1)} ms in the first third of its requests, ${q.last_third_ms.toFixed(1)} ms in the last (> ${QUEUE_GROWTH_RATIO}×; rank trend ρ ${q.rho.toFixed(2)}, z ${q.z.toFixed(1)} > ${TREND_Z})`
    );
  }
  let plateau: Saturation["plateau"] = null;
  if (lower !== null && lower.value > 0) {
    const loadRatio = here.value / lower.value;
    const tRatio = here.throughput !== null && lower.throughput ? here.throughput / lower.throughput : null;
    const lRatio = here.e2eMedianMs !== null && lower.e2eMedianMs ? here.e2eMedianMs / lower.e2eMedianMs : null;
    plateau = {lower_value: lower.value, load_ratio: loadRatio, throughput_ratio: tRatio, latency_ratio: lRatio};
    if (
      loadRatio >= MIN_LOAD_RISE &&
      tRatio !== null &&
      lRatio !== null &&
      tRatio < 1 + THROUGHPUT_SHARE * (loadRatio - 1) &&
      lRatio >= MIN_LATENCY_RISE
    ) {
      rules.push("plateau");
      reasons.push(
        `throughput stopped growing with load: ${loadRatio.toFixed(2)}× the load of ${lower.value} gave ${tRatio.toFixed(2)}× its throughput while the median E2E latency grew ${lRatio.toFixed(2)}×`
      );
    }
  }
  return {over_saturated: reasons.length > 0, rules, reasons, queue_growth: q, plateau};
}
