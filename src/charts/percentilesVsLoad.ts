import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface PercentileRow {
  /** Load value (concurrency or rate). */
  load: number;
  /** p50, p90, p95, p99. */
  key: string;
  value: number;
}

/** One line per percentile of one metric against the load value (withheld percentiles are simply absent). */
export function percentilesVsLoad(
  rows: readonly PercentileRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string}
): Element {
  const keys = [...new Set(rows.map((r) => r.key))].sort();
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 260,
    marginLeft: 52,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, ticks: [...new Set(rows.map((r) => r.load))], tickFormat: "~g"},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: true, domain: keys},
    marks: [
      Plot.lineY(rows, {x: "load", y: "value", stroke: "key", sort: "load"}),
      Plot.dot(rows, {
        x: "load",
        y: "value",
        fill: "key",
        r: 3,
        title: (d: PercentileRow) => `${d.key} @ ${d.load}: ${short(d.value)}`
      })
    ]
  });
}
