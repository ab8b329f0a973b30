import {cv, max, mean, min, std} from "./moments.ts";
import {median} from "./quantile.ts";

export type StabilityClass = "high" | "medium" | "low";

/** CV classes of the ModelRun spec: ≤ 8 % high, ≤ 18 % medium, otherwise low. */
export function stabilityClass(coefficient: number): StabilityClass {
  if (coefficient <= 0.08) return "high";
  if (coefficient <= 0.18) return "medium";
  return "low";
}

export interface Stability {
  n: number;
  median: number | null;
  mean: number | null;
  std: number | null;
  cv: number | null;
  min: number | null;
  max: number | null;
  /** null with `note` when n is too small: n < 3 "few samples"; 3 ≤ n < 5 CV provisional. */
  class: StabilityClass | null;
  note: string | null;
}

/** Summary of one metric's run-level values across repeats of the same configuration (std with ddof 1). */
export function stability(values: readonly number[]): Stability {
  const xs = Float64Array.from(values.filter((v) => Number.isFinite(v)));
  const n = xs.length;
  const c = cv(xs) ?? null;
  const base = {
    n,
    mean: mean(xs) ?? null,
    std: std(xs, 1) ?? null,
    cv: n >= 3 ? c : null,
    min: min(xs) ?? null,
    max: max(xs) ?? null
  };
  if (n < 3) return {...base, median: null, class: null, note: `few samples (n=${n} < 3)`};
  if (n < 5)
    return {...base, median: null, class: null, note: `CV provisional: median and stability class need n ≥ 5 (n=${n})`};
  return {...base, median: median(xs) ?? null, class: c === null ? null : stabilityClass(c), note: null};
}
