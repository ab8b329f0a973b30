/** What every report-chart adapter shares: its input, its output and the labels drawn from the registry. */
import {
  isSummary,
  metricById,
  type PointReport,
  type Report,
  type RequestRow,
  type RunConfig
} from "../../analysis/index.ts";
import {pick, t, type Lang, type UiKey} from "../../i18n/index.ts";

/** One chart of a run report: SVG markup rendered at build time, with its caption and note. */
export interface BuiltChart {
  id: string;
  caption: string;
  note?: string;
  svg: string;
}

/** What an adapter reads: the report, its resolved config and the measured request rows. */
export interface ChartInput {
  report: Report;
  config: RunConfig | null;
  lang: Lang;
  /** Measured (not warmup) request rows. */
  rows: RequestRow[];
  /** The successful ones among them. */
  ok: RequestRow[];
}

/** An adapter from the Report to zero or more charts of one kind. */
export type ReportChartAdapter = (input: ChartInput) => BuiltChart[];

/** An adapter drawn once per load mode over that mode's points (sorted by load). */
export type ModeChartAdapter = (input: ChartInput, mode: string, points: readonly PointReport[]) => BuiltChart[];

export const label = (id: string, lang: Lang) => pick(metricById(id).label, lang);

const MODE_LABEL: Record<string, UiKey> = {
  concurrency: "chartConcurrencyRequestsInFlight",
  poisson: "chartArrivalRateReqS",
  constant: "chartArrivalRateReqS2",
  gamma: "chartArrivalRateReqS3"
};

/** The x-axis label of a load mode. */
export function modeLabel(mode: string, lang: Lang): string {
  return MODE_LABEL[mode] ? t(lang, MODE_LABEL[mode]) : mode;
}

/** The SLO clauses goodput counts against, as one line. */
export function sloText(config: RunConfig | null, lang: Lang): string {
  if (!config) return t(lang, "chartSloUnknownNoConfig");
  const s = config.slo;
  return `SLO: TTFT ≤ ${s.ttft_ms} ms · ITL ≤ ${s.itl_ms} ms · E2E ≤ ${s.e2e_ms} ms`;
}

/** A run-level metric's value at a point (null when absent or a distribution). */
export const runValue = (p: PointReport, id: string): number | null => {
  const v = p.metrics[id];
  return v && !isSummary(v) ? v.value : null;
};
