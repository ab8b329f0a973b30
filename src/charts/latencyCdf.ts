import * as Plot from "@observablehq/plot";
import {max, min} from "d3-array";

import {PERCENTILE_FLOORS} from "../analysis/index.ts";

export interface CdfRow {
  series: string;
  value: number;
}

/**
 * Empirical CDF per series: x = value, y = share of requests at or below it. Series longer than
 * `maxPoints` keep every ⌈n/maxPoints⌉-th step plus the last one (the curve's shape, a bounded page size).
 */
export function cdfPoints(rows: readonly CdfRow[], maxPoints = 400): {series: string; value: number; share: number}[] {
  const by = new Map<string, number[]>();
  for (const r of rows)
    if (Number.isFinite(r.value)) (by.get(r.series) ?? by.set(r.series, []).get(r.series)!).push(r.value);
  const out: {series: string; value: number; share: number}[] = [];
  for (const [series, values] of [...by].sort((a, b) => a[0].localeCompare(b[0]))) {
    values.sort((a, b) => a - b);
    const step = Math.max(1, Math.ceil(values.length / maxPoints));
    values.forEach((value, i) => {
      if (i % step === step - 1 || i === values.length - 1) out.push({series, value, share: (i + 1) / values.length});
    });
  }
  return out;
}

/** The dashed reference shares a CDF may draw, each with the percentile it invites the reader to read off. */
const GUIDES = [
  {share: 0.5, percentile: "p50"},
  {share: 0.95, percentile: "p95"}
] as const;

/**
 * The reference shares (0.5, 0.95) to draw over these rows: a line at share q invites reading the q-quantile
 * off every curve, so it is drawn only when each series holds at least that percentile's floor of values
 * (P50 5, P95 20: the floors under which the reports withhold the percentile). No rows → none.
 */
export function cdfGuides(rows: readonly CdfRow[]): number[] {
  const counts = new Map<string, number>();
  for (const r of rows) if (Number.isFinite(r.value)) counts.set(r.series, (counts.get(r.series) ?? 0) + 1);
  if (counts.size === 0) return [];
  const fewest = min(counts.values())!;
  return GUIDES.filter((g) => fewest >= PERCENTILE_FLOORS[g.percentile]).map((g) => g.share);
}

/** Latency CDF (one line per series, step curve), log x when the range spans more than 20×. */
export function latencyCdf(
  rows: readonly CdfRow[],
  opts: {document: Document; width?: number; xLabel: string; yLabel: string; maxPoints?: number}
): Element {
  const pts = cdfPoints(rows, opts.maxPoints);
  const xs = pts.map((p) => p.value).filter((v) => v > 0);
  const log = xs.length > 0 && max(xs)! / min(xs)! > 20;
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 280,
    marginLeft: 48,
    style: {background: "transparent", fontSize: "12px"},
    x: {label: opts.xLabel, type: log ? "log" : "linear", grid: true},
    y: {label: opts.yLabel, domain: [0, 1], grid: true, tickFormat: "%"},
    color: {legend: new Set(pts.map((p) => p.series)).size > 1},
    marks: [
      Plot.lineY(pts, {
        x: "value",
        y: "share",
        stroke: "series",
        curve: "step-after",
        title: (d: {series: string; value: number}) => `${d.series}: ${d.value.toFixed(1)}`
      }),
      Plot.ruleY(cdfGuides(rows), {stroke: "currentColor", strokeOpacity: 0.25, strokeDasharray: "3,3"})
    ]
  });
}
