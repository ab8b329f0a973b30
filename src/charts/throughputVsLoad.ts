import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface ThroughputRow {
  load: number;
  /** Series label, e.g. "throughput" or "goodput (meets SLO)". */
  series: string;
  value: number;
  /** Share of requests meeting the SLO, shown next to goodput points. */
  goodPct?: number | null;
}

/**
 * Request throughput and goodput (requests meeting every SLO clause) per second against load. The SLO is
 * written on the chart; the gap between the lines is the work that missed it.
 */
export function throughputVsLoad(
  rows: readonly ThroughputRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string; slo: string}
): Element {
  const labelled = rows.filter((r) => r.goodPct !== undefined && r.goodPct !== null);
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 260,
    marginLeft: 52,
    marginTop: 34,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, ticks: [...new Set(rows.map((r) => r.load))], tickFormat: "~g"},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: true},
    marks: [
      Plot.lineY(rows, {x: "load", y: "value", stroke: "series", sort: "load"}),
      Plot.dot(rows, {
        x: "load",
        y: "value",
        fill: "series",
        r: 3,
        title: (d: ThroughputRow) =>
          `${d.series} @ ${d.load}: ${short(d.value)}${d.goodPct != null ? ` (${short(d.goodPct)} % meet SLO)` : ""}`
      }),
      Plot.text(labelled, {
        x: "load",
        y: "value",
        text: (d: ThroughputRow) => `${short(d.goodPct!)} %`,
        dy: 12,
        fontSize: 10
      }),
      Plot.text([opts.slo], {frameAnchor: "top-left", dy: -26, fontWeight: 600})
    ]
  });
}
