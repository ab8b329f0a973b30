/** TTFT, ITL and E2E percentiles against the load of one mode (withheld percentiles are not drawn). */
import {isSummary, metricById} from "../../analysis/index.ts";
import {t} from "../../i18n/index.ts";
import {percentilesVsLoad, type PercentileRow} from "../percentilesVsLoad.ts";
import {renderChart} from "../render.ts";
import {label, modeLabel, type BuiltChart, type ModeChartAdapter} from "./common.ts";

const METRICS = ["ttft_ms", "itl_ms", "e2e_ms"] as const;
const KEYS = ["p50", "p90", "p95", "p99"] as const;

export const percentilesVsLoadCharts: ModeChartAdapter = ({lang}, mode, points) => {
  const out: BuiltChart[] = [];
  for (const id of METRICS) {
    const data: PercentileRow[] = [];
    for (const p of points) {
      const s = p.metrics[id];
      if (!s || !isSummary(s)) continue;
      for (const key of KEYS) if (s[key] !== null) data.push({load: p.value, key, value: s[key]!});
    }
    if (data.length === 0) continue;
    out.push({
      id: `chart-${id}-vs-${mode}`,
      caption: t(lang, "chartPercentilesVsLoad", {label: label(id, lang)}),
      note: t(lang, "chartPercentilesWithheldForToo"),
      svg: renderChart((document) =>
        percentilesVsLoad(data, {
          document,
          xLabel: modeLabel(mode, lang),
          yLabel: `${label(id, lang)} (${metricById(id).unit})`
        })
      )
    });
  }
  return out;
};
