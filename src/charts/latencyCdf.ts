import * as Plot from "@observablehq/plot";
import {max, min} from "d3-array";

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
      Plot.ruleY([0.5, 0.95], {stroke: "currentColor", strokeOpacity: 0.25, strokeDasharray: "3,3"})
    ]
  });
}
