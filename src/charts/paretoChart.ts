import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface ParetoDot {
  group: string;
  label: string;
  x: number;
  y: number;
  onFrontier: boolean;
}

/**
 * Throughput per GPU (y) against interactivity (x): every comparable load point as a dot, the frontier
 * of each hardware · engine group as a step line through its non-dominated points.
 */
const tip = (d: ParetoDot) => `${d.label}\n${d.group}\nx ${short(d.x)} · y ${short(d.y)}`;

export function paretoChart(
  dots: readonly ParetoDot[],
  frontiers: readonly {group: string; points: readonly {x: number; y: number}[]}[],
  opts: ChartOptions & {xLabel: string; yLabel: string}
): Element {
  const lines = frontiers.flatMap((f) => f.points.map((p) => ({group: f.group, x: p.x, y: p.y})));
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 340,
    marginLeft: 56,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, zero: true},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: true, domain: [...new Set(dots.map((d) => d.group))].sort()},
    marks: [
      Plot.line(lines, {x: "x", y: "y", stroke: "group", z: "group", curve: "step-before", strokeWidth: 1.5}),
      Plot.dot(
        dots.filter((d) => !d.onFrontier),
        {x: "x", y: "y", stroke: "group", fill: "none", r: 4, title: (d: ParetoDot) => tip(d)}
      ),
      Plot.dot(
        dots.filter((d) => d.onFrontier),
        {x: "x", y: "y", stroke: "group", fill: "group", r: 4, title: (d: ParetoDot) => tip(d)}
      )
    ]
  });
}
