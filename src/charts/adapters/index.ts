/**
 * The charts of a run report, each from its own adapter (Report → chart data → SVG at build time), in
 * the order the page shows them: latency distributions, then per load mode the percentiles and the
 * throughput against load, then the request timeline, tokens per event and telemetry.
 */
import type {PointReport, Report, RunConfig} from "../../analysis/index.ts";
import type {Lang} from "../../i18n/index.ts";
import type {BuiltChart, ChartInput} from "./common.ts";
import {itlCdfChart, ttftCdfChart} from "./latencyCdf.ts";
import {percentilesVsLoadCharts} from "./percentilesVsLoad.ts";
import {requestTimelineChart} from "./requestTimeline.ts";
import {telemetryCharts} from "./telemetry.ts";
import {throughputVsLoadChart} from "./throughputVsLoad.ts";
import {tokensPerEventChart} from "./tokensPerEvent.ts";

export {sloText, type BuiltChart} from "./common.ts";

/** Load points by mode, each list sorted by load; modes in order of first appearance. */
function byMode(points: readonly PointReport[]): [string, PointReport[]][] {
  const m = new Map<string, PointReport[]>();
  for (const p of points) (m.get(p.mode) ?? m.set(p.mode, []).get(p.mode)!).push(p);
  return [...m].map(([mode, ps]) => [mode, ps.sort((a, b) => a.value - b.value)]);
}

export function reportCharts(report: Report, config: RunConfig | null, lang: Lang): BuiltChart[] {
  const rows = (report.rows ?? []).filter((r) => r.phase === "measure");
  const input: ChartInput = {report, config, lang, rows, ok: rows.filter((r) => r.outcome === "success")};
  const perMode = byMode(report.load_points)
    .filter(([, points]) => points.length >= 2)
    .flatMap(([mode, points]) => [
      ...percentilesVsLoadCharts(input, mode, points),
      ...throughputVsLoadChart(input, mode, points)
    ]);
  return [
    ...ttftCdfChart(input),
    ...itlCdfChart(input),
    ...perMode,
    ...requestTimelineChart(input),
    ...tokensPerEventChart(input),
    ...telemetryCharts(input)
  ];
}
