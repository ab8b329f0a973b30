/**
 * Request throughput and goodput (both req/s) against the load of one mode, and the share of requests
 * meeting the SLO on its own 0–100 % chart: two quantities, two scales (issue 18).
 */
import {t} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {goodputShareVsLoad, throughputVsLoad, type GoodputShareRow, type ThroughputRow} from "../throughputVsLoad.ts";
import {label, modeLabel, runValue, sloText, type ModeChartAdapter} from "./common.ts";

export const throughputVsLoadChart: ModeChartAdapter = ({lang, config}, mode, points) => {
  const tp: ThroughputRow[] = [];
  const share: GoodputShareRow[] = [];
  for (const p of points) {
    const rps = runValue(p, "request_throughput_rps");
    const good = runValue(p, "goodput_rps");
    const pct = runValue(p, "goodput_pct");
    if (rps !== null) tp.push({load: p.value, series: label("request_throughput_rps", lang), value: rps});
    if (good !== null) tp.push({load: p.value, series: label("goodput_rps", lang), value: good});
    if (pct !== null) share.push({load: p.value, pct});
  }
  const xLabel = modeLabel(mode, lang);
  const slo = sloText(config, lang);
  return [
    ...(tp.length === 0
      ? []
      : [
          {
            id: `chart-throughput-vs-${mode}`,
            caption: t(lang, "chartThroughputAndGoodputMeets"),
            note: t(lang, "chartGoodputDashed"),
            svg: renderChart((document) => throughputVsLoad(tp, {document, xLabel, yLabel: "req/s", slo}))
          }
        ]),
    ...(share.length === 0
      ? []
      : [
          {
            id: `chart-goodput-share-vs-${mode}`,
            caption: t(lang, "chartGoodputShare"),
            note: t(lang, "chartGoodputShareNote"),
            svg: renderChart((document) =>
              goodputShareVsLoad(share, {document, xLabel, yLabel: t(lang, "chartGoodputShareAxis"), slo})
            )
          }
        ])
  ];
};
