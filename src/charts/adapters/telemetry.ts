/** One chart per telemetry series (server metrics first, then GPU), in a fixed order. */
import {SERVER_SERIES} from "../../analysis/index.ts";
import {t, type UiKey} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {telemetryChart} from "../telemetry.ts";
import type {ReportChartAdapter} from "./common.ts";

const TELEMETRY_LABEL: Record<string, {key: UiKey; unit: string}> = {
  gpu_util_pct: {key: "chartGpuUtilisation", unit: "%"},
  gpu_mem_used_mib: {key: "chartGpuMemoryUsed", unit: "MiB"},
  gpu_power_w: {key: "chartGpuPower", unit: "W"},
  running: {key: "chartRequestsRunningServer", unit: "requests"},
  waiting: {key: "chartRequestsWaitingServer", unit: "requests"},
  kv_cache: {key: "chartKvCacheUsageServer", unit: "fraction"},
  generation_tok_s: {key: "chartGenerationTokensSServer", unit: "tok/s"},
  prompt_tok_s: {key: "chartPromptTokensSServer", unit: "tok/s"}
};

const ORDER = [...SERVER_SERIES.map((s) => s.id), "gpu_util_pct", "gpu_mem_used_mib", "gpu_power_w"];

export const telemetryCharts: ReportChartAdapter = ({report, lang}) => {
  const series = report.series ?? [];
  const ids = [...new Set(series.map((s) => s.series))];
  ids.sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  return ids.map((id) => {
    const l = TELEMETRY_LABEL[id];
    const name = l ? t(lang, l.key) : id;
    const pts = series.filter((s) => s.series === id);
    return {
      id: `chart-telemetry-${id}`,
      caption: t(lang, "chartTelemetry", {name}),
      note: t(lang, "chartSamples", {pts: pts.length}),
      svg: renderChart((document) =>
        telemetryChart(
          pts.map((p) => ({tS: p.tS, value: p.value, ...(p.gpu === undefined ? {} : {gpu: p.gpu})})),
          {document, xLabel: t(lang, "chartRunTimeS"), yLabel: `${name} (${l?.unit ?? ""})`}
        )
      )
    };
  });
};
