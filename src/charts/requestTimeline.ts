import * as Plot from "@observablehq/plot";

import {short, STYLE, type ChartOptions} from "./common.ts";

export interface TimelineRow {
  id: string;
  point: string;
  /** Times in ms from the run origin. */
  sched: number | null;
  disp: number | null;
  tok1: number | null;
  end: number | null;
}

interface Segment {
  y: number;
  x1: number;
  x2: number;
  phase: string;
  title: string | null;
}

/** Every ⌈n/max⌉-th row in order (an even sample that keeps the start and the end of the run). */
export function sampleRows<T>(rows: readonly T[], max: number): T[] {
  if (rows.length <= max) return [...rows];
  const step = rows.length / max;
  return Array.from({length: max}, (_, i) => rows[Math.floor(i * step)]!);
}

/**
 * Request timeline: one row per request in schedule order, seconds since the run started, split into
 * waiting (schedule → dispatch), prefill (dispatch → first token) and decode (first token → end).
 */
export function requestTimeline(
  rows: readonly TimelineRow[],
  opts: ChartOptions & {
    maxRows?: number;
    xLabel: string;
    yLabel: string;
    phases: {wait: string; prefill: string; decode: string};
  }
): Element {
  const sorted = [...rows]
    .filter((r) => r.sched !== null || r.disp !== null)
    .sort((a, b) => (a.sched ?? a.disp!) - (b.sched ?? b.disp!));
  const shown = sampleRows(sorted, opts.maxRows ?? 300);
  const segs: Segment[] = [];
  const s = (ms: number) => ms / 1000;
  shown.forEach((r, y) => {
    const start = r.sched ?? r.disp!;
    const parts: string[] = [`${r.id} (${r.point})`];
    if (r.sched !== null && r.disp !== null) parts.push(`${opts.phases.wait} ${short(r.disp - r.sched)} ms`);
    if (r.disp !== null && r.tok1 !== null) parts.push(`${opts.phases.prefill} ${short(r.tok1 - r.disp)} ms`);
    if (r.tok1 !== null && r.end !== null) parts.push(`${opts.phases.decode} ${short(r.end - r.tok1)} ms`);
    const title = parts.join(" · ");
    if (r.disp !== null && r.disp > start)
      segs.push({y, x1: s(start), x2: s(r.disp), phase: opts.phases.wait, title: null});
    if (r.disp !== null && r.tok1 !== null)
      segs.push({y, x1: s(r.disp), x2: s(r.tok1), phase: opts.phases.prefill, title: null});
    if (r.tok1 !== null && r.end !== null)
      segs.push({y, x1: s(r.tok1), x2: s(r.end), phase: opts.phases.decode, title});
    else if (r.disp !== null && r.end !== null && r.tok1 === null)
      segs.push({y, x1: s(r.disp), x2: s(r.end), phase: opts.phases.prefill, title});
  });
  const height = Math.min(420, Math.max(160, shown.length * 1.6 + 60));
  return Plot.plot({
    document: opts.document,
    width: opts.width ?? 640,
    height,
    marginLeft: 52,
    style: STYLE,
    x: {label: opts.xLabel, grid: true},
    y: {label: opts.yLabel, reverse: true, ticks: 0},
    color: {
      legend: true,
      domain: [opts.phases.wait, opts.phases.prefill, opts.phases.decode],
      range: ["#9aa4af", "#e8871e", "#1f77b4"]
    },
    marks: [
      Plot.ruleY(segs, {
        y: "y",
        x1: "x1",
        x2: "x2",
        stroke: "phase",
        strokeWidth: Math.max(1, Math.min(4, (height - 60) / Math.max(1, shown.length))),
        title: (d: Segment) => d.title ?? undefined
      })
    ]
  });
}
