/** Output tokens per streamed event, one value per successful request (above 1: chunk gaps are not token gaps). */
import {t} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {tokensPerEventHistogram} from "../tokensPerEvent.ts";
import {label, type ReportChartAdapter} from "./common.ts";

export const tokensPerEventChart: ReportChartAdapter = ({ok, lang}) => {
  const tpe = ok.filter((r) => r.out !== null && r.tokenEvents > 0).map((r) => r.out! / r.tokenEvents);
  if (tpe.length === 0) return [];
  return [
    {
      id: "chart-tokens-per-event",
      caption: t(lang, "chartHistogramOneValuePer", {label: label("tokens_per_event", lang)}),
      note: t(lang, "chartDashedLine1Token"),
      svg: renderChart((document) =>
        tokensPerEventHistogram(tpe, {document, xLabel: "tokens/event", yLabel: t(lang, "chartRequests2")})
      )
    }
  ];
};
