/** The load searches of an experiment's variants on one chart: probes' margins, the SLO line, each answer. */
import type {Report} from "../../analysis/index.ts";
import {t, type Lang} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {searchCurve, type SearchAnswerRow, type SearchProbeRow} from "../searchCurve.ts";
import type {BuiltChart} from "./common.ts";
import {modeLabel} from "./common.ts";

/** One chart per searched mode (concurrency, rate…) across the variants that ran a search over it. */
export function searchCurveCharts(variants: readonly {name: string; report: Report}[], lang: Lang): BuiltChart[] {
  const byOver = new Map<string, {probes: SearchProbeRow[]; answers: SearchAnswerRow[]}>();
  for (const {name, report} of variants)
    for (const s of report.searches ?? []) {
      const slot = byOver.get(s.over) ?? byOver.set(s.over, {probes: [], answers: []}).get(s.over)!;
      for (const p of s.probes)
        if (p.margin !== null)
          slot.probes.push({
            variant: name,
            load: p.value,
            margin: p.margin,
            status: p.status,
            overSaturated: p.over_saturated
          });
      const a = s.answer;
      if (a.estimate !== null)
        slot.answers.push({
          variant: name,
          estimate: a.estimate,
          lo: a.interval?.lo ?? null,
          hi: a.interval?.hi ?? null
        });
    }
  return [...byOver].map(([over, {probes, answers}]) => ({
    id: `chart-search-${over}`,
    caption: t(lang, "expSearchChart"),
    note: t(lang, "expSearchChartNote"),
    svg: renderChart((document) =>
      searchCurve(probes, answers, {
        document,
        xLabel: modeLabel(over, lang),
        yLabel: t(lang, "expMargin"),
        sloLabel: t(lang, "expSloLine"),
        saturatedLabel: t(lang, "expOverSaturated")
      })
    )
  }));
}
