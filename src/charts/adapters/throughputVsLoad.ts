/** Request throughput and goodput (requests meeting the SLO) against the load of one mode. */
import {t} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {throughputVsLoad, type ThroughputRow} from "../throughputVsLoad.ts";
import {label, modeLabel, runValue, sloText, type ModeChartAdapter} from "./common.ts";

export const throughputVsLoadChart: ModeChartAdapter = ({lang, config}, mode, points) => {
  const tp: ThroughputRow[] = [];
  for (const p of points) {
    const rps = runValue(p, "request_throughput_rps");
    const good = runValue(p, "goodput_rps");
    if (rps !== null) tp.push({load: p.value, series: label("request_throughput_rps", lang), value: rps});
    if (good !== null)
      tp.push({load: p.value, series: label("goodput_rps", lang), value: good, goodPct: runValue(p, "goodput_pct")});
  }
  if (tp.length === 0) return [];
  return [
    {
      id: `chart-throughput-vs-${mode}`,
      caption: t(lang, "chartThroughputAndGoodputMeets"),
      note: t(lang, "chartLabelsOnGoodputPoints"),
      svg: renderChart((document) =>
        throughputVsLoad(tp, {document, xLabel: modeLabel(mode, lang), yLabel: "req/s", slo: sloText(config, lang)})
      )
    }
  ];
};
