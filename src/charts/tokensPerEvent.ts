import * as Plot from "@observablehq/plot";

import {STYLE, type ChartOptions} from "./common.ts";
import {max} from "d3-array";

/**
 * Histogram of tokens per token-bearing SSE event (one value per request, the registry's
 * tokens_per_event). A rule marks 1 token per event: mass to the right means chunk gaps are not token gaps.
 */
export function tokensPerEventHistogram(
  values: readonly number[],
  opts: ChartOptions & {xLabel: string; yLabel: string}
): Element {
  const data = values.filter((v) => Number.isFinite(v)).map((value) => ({value}));
  // Fixed-width bins from 0 so that a run where every event carries one token still draws a bar at 1.
  const top = Math.max(2, Math.ceil(Math.max(0, max(data, (d) => d.value) ?? 0) + 0.5));
  const width = top <= 8 ? 0.25 : top / 32;
  const thresholds = Array.from({length: Math.ceil(top / width) + 1}, (_, i) => i * width);
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 220,
    marginLeft: 52,
    style: STYLE,
    x: {label: opts.xLabel, grid: true, domain: [0, top]},
    y: {label: opts.yLabel, grid: true},
    marks: [
      Plot.rectY(data, {
        ...Plot.binX({y: "count", title: (bin: {value: number}[]) => `${bin.length}`}, {x: "value", thresholds}),
        fill: "currentColor",
        fillOpacity: 0.55
      }),
      Plot.ruleX([1], {stroke: "#e8871e", strokeDasharray: "4,3"}),
      Plot.ruleY([0])
    ]
  });
}
