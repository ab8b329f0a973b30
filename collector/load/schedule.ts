import type {LoadMode} from "../../src/analysis/schema/config.ts";
import {mulberry32} from "../../src/analysis/stats/prng.ts";

export interface ArrivalSpec {
  mode: Exclude<LoadMode, "concurrency">;
  /** Target rate, requests per second. */
  rate: number;
  /** Gamma shape (1 = Poisson); ignored for rate and poisson. */
  burstiness: number;
  seed: number;
  /** Number of arrivals, or… */
  count?: number;
  /** …every arrival before this many seconds. */
  durationS?: number;
}

/** Most arrivals `arrivalOffsetsNs` collects into one array (the collector streams longer plans). */
export const MAX_ARRIVALS = 5_000_000;

/** Standard normal by Box–Muller from a uniform source. */
export function normal(u: () => number): number {
  let a = u();
  while (a <= 0) a = u();
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u());
}

/** Gamma(shape k, scale 1) by Marsaglia–Tsang (k ≥ 1), boosted with U^(1/k) for k < 1. */
export function gammaVariate(k: number, u: () => number): number {
  if (k < 1) {
    let v = u();
    while (v <= 0) v = u();
    return gammaVariate(k + 1, u) * Math.pow(v, 1 / k);
  }
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(u);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const w = u();
    if (w < 1 - 0.0331 * x * x * x * x) return d * v;
    if (w > 0 && Math.log(w) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * Absolute planned send offsets in integer ns from the start of a phase, generated one at a time (a plan
 * of billions of arrivals is never held whole). The first arrival is at 0; gaps are 1/rate (rate),
 * exponential with mean 1/rate (poisson) or gamma with shape `burstiness` and mean 1/rate (gamma).
 * Seeded with mulberry32 so the same spec always gives the same schedule.
 */
export function* arrivalOffsets(spec: ArrivalSpec): Generator<number, void, undefined> {
  if (!(spec.rate > 0)) throw new Error(`arrival rate must be positive, got ${spec.rate}`);
  if (spec.count === undefined && spec.durationS === undefined)
    throw new Error("an arrival plan needs a count or a duration");
  const u = mulberry32(spec.seed);
  const meanNs = 1e9 / spec.rate;
  const limitNs = spec.durationS === undefined ? Infinity : spec.durationS * 1e9;
  const count = spec.count ?? Infinity;
  let t = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      if (spec.mode === "rate") t = i * meanNs;
      else if (spec.mode === "poisson") t += -Math.log(1 - u()) * meanNs;
      else t += (gammaVariate(spec.burstiness, u) / spec.burstiness) * meanNs;
    }
    if (t >= limitNs) return;
    yield Math.round(t);
  }
}

/** The whole plan as an array, for small plans (the case suite, tests); longer ones are an error. */
export function arrivalOffsetsNs(spec: ArrivalSpec): number[] {
  const out: number[] = [];
  for (const t of arrivalOffsets(spec)) {
    if (out.length === MAX_ARRIVALS)
      throw new Error(`schedule would exceed ${MAX_ARRIVALS} arrivals (rate ${spec.rate}/s): stream it instead`);
    out.push(t);
  }
  return out;
}
