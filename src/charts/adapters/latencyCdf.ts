/** TTFT and ITL distributions of the successful measured requests, one CDF line per load point. */
import {t} from "../../i18n/index.ts";
import {cdfGuides, latencyCdf, type CdfRow} from "../latencyCdf.ts";
import {renderChart} from "../render.ts";
import {label, type ReportChartAdapter} from "./common.ts";

/** Which dashed reference lines the chart draws, and why one is missing. */
function guidesNote(rows: readonly CdfRow[], lang: Parameters<typeof t>[0]): string {
  const guides = cdfGuides(rows);
  return t(
    lang,
    guides.length === 2 ? "chartCdfGuidesBoth" : guides.length === 1 ? "chartCdfGuidesMedianOnly" : "chartCdfGuidesNone"
  );
}

export const ttftCdfChart: ReportChartAdapter = ({ok, lang}) => {
  const ttft = ok.filter((r) => r.ttftMs !== null).map((r) => ({series: r.point, value: r.ttftMs!}));
  if (ttft.length === 0) return [];
  const name = label("ttft_ms", lang);
  return [
    {
      id: "chart-ttft-cdf",
      caption: t(lang, "chartDistributionCdfPerLoad", {label: name}),
      note: t(lang, "chartSuccessfulRequestsDashedLines", {ttft: ttft.length, guides: guidesNote(ttft, lang)}),
      svg: renderChart((document) =>
        latencyCdf(ttft, {document, xLabel: `${name} (ms)`, yLabel: t(lang, "shareOfRequests")})
      )
    }
  ];
};

export const itlCdfChart: ReportChartAdapter = ({ok, lang}) => {
  const itl = ok.filter((r) => r.itlMs !== null).map((r) => ({series: r.point, value: r.itlMs!}));
  if (itl.length === 0) return [];
  const name = label("itl_ms", lang);
  return [
    {
      id: "chart-itl-cdf",
      caption: t(lang, "chartDistributionCdfOneValue", {label: name}),
      note: t(lang, "chartRequests", {itl: itl.length, guides: guidesNote(itl, lang)}),
      svg: renderChart((document) =>
        latencyCdf(itl, {document, xLabel: `${name} (ms/token)`, yLabel: t(lang, "shareOfRequests")})
      )
    }
  ];
};
