import * as Plot from "@observablehq/plot";
import {min} from "d3-array";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface SearchProbeRow {
  variant: string;
  load: number;
  /** Worst SLO clause as a multiple of its limit (≤ 1 holds); null probes are not drawn. */
  margin: number;
  status: "pass" | "fail" | "not_evaluable";
  overSaturated: boolean;
}

export interface SearchAnswerRow {
  variant: string;
  estimate: number;
  lo: number | null;
  hi: number | null;
}

/**
 * A load search per variant: each probe's margin (its worst SLO clause over its limit) against load, the SLO
 * line at 1, each variant's found maximum (the fit's crossing) with its 95 % interval as a band, and
 * over-saturated probes ringed — they never count as a sustained capacity.
 */
export function searchCurve(
  probes: readonly SearchProbeRow[],
  answers: readonly SearchAnswerRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string; sloLabel: string; saturatedLabel: string}
): Element {
  const bands = answers.filter((a) => a.lo !== null && a.hi !== null);
  const saturated = probes.filter((p) => p.overSaturated);
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 280,
    marginLeft: 52,
    marginTop: 30,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, ticks: [...new Set(probes.map((p) => p.load))], tickFormat: "~g"},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: true},
    marks: [
      Plot.rectY(bands, {x1: "lo", x2: "hi", y1: 0, y2: 1, fill: "variant", fillOpacity: 0.15}),
      Plot.ruleY([1], {stroke: "currentColor", strokeDasharray: "4 3"}),
      Plot.text([opts.sloLabel], {
        x: min(probes, (p) => p.load) ?? 0,
        y: 1,
        dy: -6,
        textAnchor: "start",
        fontSize: 10
      }),
      Plot.ruleX(answers, {x: "estimate", stroke: "variant", strokeWidth: 2}),
      Plot.lineY(probes, {x: "load", y: "margin", stroke: "variant", sort: "load"}),
      Plot.dot(probes, {
        x: "load",
        y: "margin",
        fill: (d: SearchProbeRow) => d.variant,
        symbol: (d: SearchProbeRow) => (d.status === "pass" ? "circle" : d.status === "fail" ? "times" : "diamond"),
        r: 4,
        title: (d: SearchProbeRow) =>
          `${d.variant} @ ${d.load}: ${d.status}, ${short(d.margin)}× the limit${d.overSaturated ? `, ${opts.saturatedLabel}` : ""}`
      }),
      Plot.dot(saturated, {x: "load", y: "margin", r: 8, stroke: "currentColor", fill: "none"}),
      Plot.text(saturated, {x: "load", y: "margin", text: () => opts.saturatedLabel, dy: -14, fontSize: 9})
    ]
  });
}
