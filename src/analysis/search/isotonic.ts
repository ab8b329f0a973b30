/** The largest margin a fit sees: nothing succeeded, or a zero limit was missed. */
export const MARGIN_CAP = 1e6;

/**
 * Isotonic (non-decreasing) least-squares fit by pool-adjacent-violators: adjacent values that decrease are
 * pooled into their weighted mean until the sequence no longer decreases. The margin of a load search is
 * fitted so because more load never makes a server faster: a dip between probes is sampling noise.
 * Values must be finite (the search caps an infinite margin at MARGIN_CAP first).
 */
export function isotonicFit(ys: readonly number[], weights?: readonly number[]): number[] {
  const mean: number[] = [];
  const weight: number[] = [];
  const size: number[] = [];
  for (let i = 0; i < ys.length; i++) {
    mean.push(ys[i]!);
    weight.push(weights?.[i] ?? 1);
    size.push(1);
    while (mean.length > 1 && mean[mean.length - 2]! > mean[mean.length - 1]!) {
      const w = weight.pop()! + weight[weight.length - 1]!;
      const m = mean.pop()!;
      const k = size.pop()!;
      const j = mean.length - 1;
      mean[j] = (mean[j]! * weight[j]! + m * (w - weight[j]!)) / w;
      weight[j] = w;
      size[j]! += k;
    }
  }
  const out: number[] = [];
  for (let b = 0; b < mean.length; b++) for (let k = 0; k < size[b]!; k++) out.push(mean[b]!);
  return out;
}

/** Where a non-decreasing margin crosses 1 among the loads `xs` (ascending). */
export type Crossing =
  {kind: "between"; value: number} | {kind: "below_range"} | {kind: "at_or_above_max"; value: number};

/**
 * The highest load at which the fitted margin is ≤ 1: below the first load when the first already exceeds 1,
 * the last load when none exceeds 1, else interpolated linearly between the last load ≤ 1 and the next.
 */
export function crossingOf(xs: readonly number[], fitted: readonly number[]): Crossing {
  if (xs.length === 0 || fitted[0]! > 1) return {kind: "below_range"};
  let j = 0;
  while (j + 1 < xs.length && fitted[j + 1]! <= 1) j++;
  if (j === xs.length - 1) return {kind: "at_or_above_max", value: xs[j]!};
  const f0 = fitted[j]!;
  const f1 = fitted[j + 1]!;
  const t = (1 - f0) / (f1 - f0);
  return {kind: "between", value: xs[j]! + t * (xs[j + 1]! - xs[j]!)};
}
