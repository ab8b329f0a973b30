import type {ProbeSamples} from "../accumulate/probeSamples.ts";
import type {RunConfig} from "../schema/config.ts";
import {mulberry32, PRNG_NAME} from "../stats/prng.ts";
import {crossingOf, isotonicFit, MARGIN_CAP, type Crossing} from "./isotonic.ts";
import {clausesOf, marginOf, type Objective, type ProbeVerdict} from "./judge.ts";

/** Bootstrap resamples of the answer's interval, and its level. */
export const RESAMPLES = 1000;
export const LEVEL = 0.95;

export interface JudgedProbe {
  value: number;
  samples: ProbeSamples;
  verdict: ProbeVerdict;
}

export interface AnswerInterval {
  /** null: open below (resamples in which even the lowest probe fails). */
  lo: number | null;
  /** null: open above (resamples in which every probe passes). */
  hi: number | null;
  level: number;
  resamples: number;
  prng: string;
  seed: number;
  method: string;
}

export interface SearchAnswer {
  /** Highest probe that passed below the lowest probe that did not (null: none passed). */
  highest_pass: number | null;
  /** Lowest probe that failed or was not evaluable (null: none). */
  lowest_fail: number | null;
  /** Where the isotonic fit of the margins crosses 1 (null when below the range). */
  estimate: number | null;
  bound: "below_range" | "at_or_above_max" | null;
  interval: AnswerInterval | null;
}

/** The margin the fit sees: an over-saturated probe is a fail at any margin (capped like an infinite one). */
const fitMargin = (p: JudgedProbe, margin: number | null): number =>
  p.verdict.saturation.over_saturated || margin === null ? MARGIN_CAP : Math.min(margin, MARGIN_CAP);

const crossingValue = (c: Crossing): number =>
  c.kind === "below_range" ? -Infinity : c.kind === "at_or_above_max" ? Infinity : c.value;

/** One bootstrap replicate: each probe's requests resampled with replacement, its margin recomputed. */
function replicate(probes: readonly JudgedProbe[], objective: Objective, config: RunConfig, rng: () => number): number {
  const margins = probes.map((p) => {
    if (p.verdict.saturation.over_saturated) return MARGIN_CAP;
    const n = p.samples.n;
    const idx = new Int32Array(n);
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    return fitMargin(p, marginOf(clausesOf(p.samples, objective, config, idx)));
  });
  return crossingValue(
    crossingOf(
      probes.map((p) => p.value),
      isotonicFit(margins)
    )
  );
}

/**
 * The answer of a search from its probes alone: the highest passing probe, the crossing of the isotonic fit
 * of the margins (interpolated between probes), and a 95 % percentile-bootstrap interval of that crossing
 * (each probe's requests resampled, seeded). Probes not evaluable stay out of the fit.
 */
export function searchAnswer(
  judged: readonly JudgedProbe[],
  objective: Objective,
  config: RunConfig,
  seed: number,
  resamples = RESAMPLES
): SearchAnswer {
  const sorted = [...judged].sort((a, b) => a.value - b.value);
  const lowestFail = sorted.find((p) => p.verdict.status !== "pass")?.value ?? null;
  const passes = sorted.filter((p) => p.verdict.status === "pass" && (lowestFail === null || p.value < lowestFail));
  const highestPass = passes.length > 0 ? passes[passes.length - 1]!.value : null;
  const fit = sorted.filter((p) => p.verdict.status !== "not_evaluable");
  if (fit.length === 0)
    return {highest_pass: highestPass, lowest_fail: lowestFail, estimate: null, bound: null, interval: null};
  const xs = fit.map((p) => p.value);
  const point = crossingOf(xs, isotonicFit(fit.map((p) => fitMargin(p, p.verdict.margin))));
  const rng = mulberry32(seed);
  const values = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) values[r] = replicate(fit, objective, config, rng);
  values.sort();
  const alpha = (1 - LEVEL) / 2;
  const lo = values[Math.floor(alpha * (resamples - 1))]!;
  const hi = values[Math.ceil((1 - alpha) * (resamples - 1))]!;
  return {
    highest_pass: highestPass,
    lowest_fail: lowestFail,
    estimate: point.kind === "below_range" ? null : point.value,
    bound: point.kind === "between" ? null : point.kind,
    interval: {
      lo: Number.isFinite(lo) ? lo : null,
      hi: Number.isFinite(hi) ? hi : null,
      level: LEVEL,
      resamples,
      prng: PRNG_NAME,
      seed,
      method:
        "percentile bootstrap: each probe's requests resampled, margins refitted (isotonic), crossing of 1 interpolated"
    }
  };
}
