import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface ThroughputRow {
  load: number;
  /** Series label, e.g. "throughput" or "goodput (meets SLO)". */
  series: string;
  value: number;
}

export interface GoodputShareRow {
  load: number;
  /** Share of the measured requests meeting every SLO clause, %. */
  pct: number;
}

/**
 * Request throughput and goodput (requests meeting every SLO clause), both in requests per second, against
 * load: the gap between the lines is the work that missed the SLO. Goodput is dashed with hollow marks, so a
 * goodput equal to the throughput still shows both lines.
 */
export function throughputVsLoad(
  rows: readonly ThroughputRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string; slo: string}
): Element {
  const series = [...new Set(rows.map((r) => r.series))];
  const dashed = (d: ThroughputRow) => d.series !== series[0];
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 260,
    marginLeft: 52,
    marginTop: 34,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, ticks: [...new Set(rows.map((r) => r.load))], tickFormat: "~g"},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: true, domain: series},
    marks: [
      // throughput wide and light underneath, goodput thin and dashed on top: equal values show both
      Plot.lineY(
        rows.filter((d) => !dashed(d)),
        {x: "load", y: "value", stroke: "series", sort: "load", strokeWidth: 4, strokeOpacity: 0.45}
      ),
      Plot.dot(
        rows.filter((d) => !dashed(d)),
        {
          x: "load",
          y: "value",
          fill: "series",
          r: 5,
          title: (d: ThroughputRow) => `${d.series} @ ${d.load}: ${short(d.value)}`
        }
      ),
      Plot.lineY(rows.filter(dashed), {
        x: "load",
        y: "value",
        stroke: "series",
        sort: "load",
        strokeWidth: 1.5,
        strokeDasharray: "5,4"
      }),
      // hollow and smaller: an equal throughput shows around it
      Plot.dot(rows.filter(dashed), {
        x: "load",
        y: "value",
        stroke: "series",
        fill: "white",
        r: 2.5,
        title: (d: ThroughputRow) => `${d.series} @ ${d.load}: ${short(d.value)}`
      }),
      Plot.text([opts.slo], {frameAnchor: "top-left", dy: -26, fontWeight: 600})
    ]
  });
}

/** The share of requests meeting the SLO against load, on its own 0–100 % scale (issue 18). */
export function goodputShareVsLoad(
  rows: readonly GoodputShareRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string; slo: string}
): Element {
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 200,
    marginLeft: 52,
    marginTop: 34,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, ticks: [...new Set(rows.map((r) => r.load))], tickFormat: "~g"},
    y: {label: opts.yLabel, grid: true, domain: [0, 100]},
    marks: [
      Plot.lineY(rows, {x: "load", y: "pct", sort: "load"}),
      Plot.dot(rows, {
        x: "load",
        y: "pct",
        r: 3,
        fill: "currentColor",
        title: (d: GoodputShareRow) => `${d.load}: ${short(d.pct)} %`
      }),
      // the label sits below a point near the top (above, it would run into the axis label)
      Plot.text(
        rows.filter((d) => d.pct > 85),
        {x: "load", y: "pct", text: (d: GoodputShareRow) => `${short(d.pct)} %`, dy: 12, fontSize: 10}
      ),
      Plot.text(
        rows.filter((d) => d.pct <= 85),
        {x: "load", y: "pct", text: (d: GoodputShareRow) => `${short(d.pct)} %`, dy: -10, fontSize: 10}
      ),
      Plot.text([opts.slo], {frameAnchor: "top-right", textAnchor: "end", dy: -26, fontWeight: 600})
    ]
  });
}
