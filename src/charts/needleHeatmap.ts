import * as Plot from "@observablehq/plot";

import {STYLE, type ChartOptions} from "./common.ts";

export interface NeedleHeatCell {
  /** Context length label (tokens). */
  length: string;
  /** Where the passphrase was planted, 0..1. */
  depth: number;
  pass: number;
  n: number;
  /** pass / n, null when nothing was scored. */
  rate: number | null;
}

/**
 * The lost-in-the-middle heatmap of case_10: one cell per context length × needle depth, coloured by the
 * retrieval rate (0 red … 1 green, unscored cells grey) and labelled "retrieved/n" so the sample count is
 * always beside the rate.
 */
export function needleHeatmap(
  cells: readonly NeedleHeatCell[],
  opts: ChartOptions & {xLabel: string; yLabel: string; lengths: readonly string[]}
): Element {
  const depths = [...new Set(cells.map((c) => c.depth))].sort((a, b) => a - b);
  const label = (d: number) => `${Math.round(d * 100)}%`;
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 560,
    height: 56 + 34 * opts.lengths.length,
    marginLeft: 64,
    style: STYLE,
    x: {label: opts.xLabel, domain: depths.map(label)},
    y: {label: opts.yLabel, domain: [...opts.lengths].reverse()},
    color: {type: "linear", domain: [0, 1], range: ["#c0392b", "#f1c40f", "#27ae60"], unknown: "#999"},
    marks: [
      Plot.cell(cells, {
        x: (c: NeedleHeatCell) => label(c.depth),
        y: "length",
        fill: "rate",
        inset: 1,
        title: (c: NeedleHeatCell) =>
          `${c.length} tokens, depth ${label(c.depth)}: ${c.pass}/${c.n}${c.rate === null ? "" : ` (${Math.round(c.rate * 100)}%)`}`
      }),
      Plot.text(cells, {
        x: (c: NeedleHeatCell) => label(c.depth),
        y: "length",
        text: (c: NeedleHeatCell) => `${c.pass}/${c.n}`,
        fill: "black"
      })
    ]
  });
}
