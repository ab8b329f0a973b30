import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface TelemetryRow {
  tS: number;
  value: number;
  /** GPU index when the series is per GPU. */
  gpu?: number;
}

/** One telemetry series over run time (per-GPU series get one line per GPU). */
export function telemetryChart(
  rows: readonly TelemetryRow[],
  opts: ChartOptions & {xLabel: string; yLabel: string; gpuLabel?: string}
): Element {
  const perGpu = rows.some((r) => r.gpu !== undefined);
  const data = rows.map((r) => ({...r, line: perGpu ? `${opts.gpuLabel ?? "GPU"} ${r.gpu ?? "?"}` : opts.yLabel}));
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height: 180,
    marginLeft: 56,
    style: STYLE,
    x: {label: opts.xLabel, grid: true},
    y: {label: opts.yLabel, grid: true, zero: true},
    color: {legend: perGpu},
    marks: [
      Plot.lineY(data, {x: "tS", y: "value", stroke: perGpu ? "line" : "currentColor", sort: "tS"}),
      Plot.dot(data, {
        x: "tS",
        y: "value",
        r: 1.5,
        fill: perGpu ? "line" : "currentColor",
        title: (d: {tS: number; value: number; line: string}) => `${d.line} @ ${short(d.tS)} s: ${short(d.value)}`
      })
    ]
  });
}
