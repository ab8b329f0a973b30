/** How the quality components word rates, conditions and dispatch, in the page's language. */
import {formatNumber, suiteConcurrency, type Rate} from "../../analysis/index.ts";
import {t, type Lang} from "../../i18n/index.ts";

export function qualityText(lang: Lang) {
  const pct = (r: number | null) => (r === null ? "—" : `${formatNumber(r * 100, 1)} %`);
  /** "3/4 = 75.0 %", "not evaluated (n = 2)" when nothing was scored. */
  const rateText = (r: Rate) =>
    r.n === 0
      ? t(lang, "qualitySectionNotEvaluated", {not_evaluated: r.not_evaluated})
      : `${r.pass}/${r.n} = ${pct(r.rate)}${r.not_evaluated > 0 ? t(lang, "qualitySectionNotEvaluated2", {not_evaluated: r.not_evaluated}) : ""}`;
  /** Idle (one at a time) or under a load point. */
  const where = (p: string | null) =>
    p === null ? t(lang, "qualitySectionIdleOneAtA") : t(lang, "qualitySectionUnderLoad", {p});
  /** A case request's dispatch: one at a time, N in flight (case_08) or under a load point. */
  const sentAs = (point: string) => {
    const n = suiteConcurrency(point);
    if (n === null) return where(point);
    if (n === 1) return t(lang, "qualitySectionOneAtATime");
    return t(lang, "qualitySectionInFlight", {n});
  };
  return {pct, rateText, where, sentAs};
}
