import type {QualityRecord} from "../schema/records.ts";

/**
 * The output-quality guard of a speculative-decoding comparison: whether turning speculation on changed
 * the answers more than running the same spec-off setup twice does. Load-point prompts are salted per
 * bundle, so they never match across runs; the case suite's answers do: an answer is identified by its
 * case, item, repeat and round, and two answers are identical when their response texts are.
 */

/** Spec-on answers differ beyond the noise when their differing share exceeds off-vs-off's by more than this. */
export const QUALITY_MARGIN = 0.05;
/** Fewer matched answers than this: the guard is not evaluated. */
export const MIN_MATCHED_ANSWERS = 10;

export interface AnswerMatch {
  /** Answers present, with a response, in both runs. */
  matched: number;
  identical: number;
  /** identical / matched (null below MIN_MATCHED_ANSWERS). */
  share: number | null;
}

export interface PassRate {
  passed: number;
  /** Verdicts pass or fail (not_evaluated left out). */
  evaluated: number;
  rate: number | null;
}

export interface SpecQualityGuard {
  /** within_noise / beyond_noise: the on-vs-off differing share against the off-vs-off one (or 0 without it). */
  status: "within_noise" | "beyond_noise" | "not_evaluated";
  /** measured: a second spec-off run gave the noise; assumed_zero: none was given (identical answers expected). */
  noise: "measured" | "assumed_zero";
  onVsOff: AnswerMatch;
  offVsOff: AnswerMatch | null;
  passRate: {on: PassRate; off: PassRate; offRepeat: PassRate | null};
  /** The spec-on pass rate is below spec-off's by more than QUALITY_MARGIN plus the off-vs-off gap. */
  passRateDrop: boolean;
}

type QualityRun = {quality: readonly QualityRecord[]};

const keyOf = (q: QualityRecord): string =>
  [q.caseId, q.itemId, String(q.details.repeat ?? 0), String(q.details.round ?? "")].join("\u0000");

/** One response per answer (a record per scorer reading repeats it): the first seen. */
function answers(run: QualityRun): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const q of run.quality) if (!out.has(keyOf(q))) out.set(keyOf(q), q.response);
  return out;
}

export function matchAnswers(a: QualityRun, b: QualityRun): AnswerMatch {
  const xa = answers(a);
  const xb = answers(b);
  let matched = 0;
  let identical = 0;
  for (const [k, ra] of xa) {
    const rb = xb.get(k);
    if (ra === null || rb === undefined || rb === null) continue;
    matched++;
    if (ra === rb) identical++;
  }
  return {matched, identical, share: matched >= MIN_MATCHED_ANSWERS ? identical / matched : null};
}

export function passRate(run: QualityRun): PassRate {
  let passed = 0;
  let evaluated = 0;
  for (const q of run.quality) {
    if (q.verdict === "not_evaluated") continue;
    evaluated++;
    if (q.verdict === "pass") passed++;
  }
  return {passed, evaluated, rate: evaluated > 0 ? passed / evaluated : null};
}

/** The guard over the case-suite answers of the spec-on, spec-off and (optional) second spec-off runs. */
export function qualityGuard(on: QualityRun, off: QualityRun, offRepeat: QualityRun | null): SpecQualityGuard {
  const onVsOff = matchAnswers(on, off);
  const offVsOff = offRepeat === null ? null : matchAnswers(offRepeat, off);
  const rates = {on: passRate(on), off: passRate(off), offRepeat: offRepeat === null ? null : passRate(offRepeat)};
  const noiseGap =
    rates.offRepeat?.rate != null && rates.off.rate !== null ? Math.abs(rates.offRepeat.rate - rates.off.rate) : 0;
  const passRateDrop =
    rates.on.rate !== null && rates.off.rate !== null && rates.off.rate - rates.on.rate > QUALITY_MARGIN + noiseGap;
  const base = {
    noise: offVsOff === null ? "assumed_zero" : "measured",
    onVsOff,
    offVsOff,
    passRate: rates,
    passRateDrop
  } as const;
  if (onVsOff.share === null || (offVsOff !== null && offVsOff.share === null))
    return {status: "not_evaluated", ...base};
  const differOn = 1 - onVsOff.share;
  const differOff = offVsOff === null ? 0 : 1 - offVsOff.share!;
  return {status: differOn - differOff > QUALITY_MARGIN ? "beyond_noise" : "within_noise", ...base};
}
