/** How the report words a load point's findings (over-saturation, server time, speculative decoding). */
import type {Report} from "../../analysis/index.ts";
import {localize, t, type Lang} from "../../i18n/index.ts";

type Point = Report["load_points"][number];

export function findingsText(lang: Lang) {
  const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));
  const ms = (s: number | null) => (s === null ? "—" : `${(s * 1000).toFixed(0)} ms`);
  /** Why a point is over-saturated, one sentence per rule that fired (empty when it is not). */
  const saturation = (p: Point | undefined): string[] => {
    const sat = p?.saturation;
    if (!sat?.over_saturated) return [];
    return sat.rules.map((r) =>
      r === "queue_growth" && sat.queue_growth
        ? t(lang, "expSatQueue", {
            first: num(sat.queue_growth.first_third_ms, 0),
            last: num(sat.queue_growth.last_third_ms, 0),
            z: num(sat.queue_growth.z, 1)
          })
        : sat.plateau
          ? t(lang, "expSatPlateau", {
              load: num(sat.plateau.load_ratio),
              lower: sat.plateau.lower_value,
              tput: num(sat.plateau.throughput_ratio),
              lat: num(sat.plateau.latency_ratio)
            })
          : localize(r, lang)
    );
  };
  /** Where the server's time went per request, or the waiting gauge, or why neither is known. */
  const serverTime = (p: Point | undefined): string => {
    const st = p?.server_time;
    if (st === undefined) return "—";
    if (st.queue_s !== null || st.prefill_s !== null || st.decode_s !== null)
      return t(lang, "expServerTimeCell", {queue: ms(st.queue_s), prefill: ms(st.prefill_s), decode: ms(st.decode_s)});
    if (st.waiting_mean !== null)
      return t(lang, "expWaiting", {n: num(st.waiting_mean), series: st.waiting_series ?? ""});
    return st.reason === null || st.reason === undefined ? "—" : localize(st.reason, lang);
  };
  /** Acceptance rate and mean acceptance length with their source, or null without speculative decoding. */
  const spec = (p: Point): string | null => {
    const s = p.spec_decode;
    if (s === undefined || s.acceptance_rate.value === null) return null;
    return t(lang, "specAcceptance", {
      rate: num(s.acceptance_rate.value * 100, 1),
      source: s.acceptance_rate.source ?? "",
      length: num(s.mean_acceptance_length.value)
    });
  };
  return {num, saturation, serverTime, spec};
}
