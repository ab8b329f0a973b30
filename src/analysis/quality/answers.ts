import type {CaseAnswer, QualityRecord} from "../schema/records.ts";
import {QUALITY_VERSION} from "../schema/versions.ts";
import {scoreItem, ScoreSpecError, type Scored} from "./score.ts";

/**
 * Scores a case item's raw answer at analysis time (capture raw, derive late): the collector writes the
 * answer and what its scorer needs (CaseAnswer), this turns it into one verdict record per scorer reading
 * (gsm8k: strict, flexible, lenient; instructions: strict, loose), under this analyzer's QUALITY_VERSION.
 * A scorer fix is a re-analysis of the same bundle, not a re-run.
 */
export interface ScoredAnswer {
  /** The verdict records, without seq (the caller numbers them in reading order). */
  records: Omit<QualityRecord, "seq">[];
  /** Why the case's scorer specification is unusable (unknown scorer, bad expected answer…), or null. */
  specError: string | null;
}

/** An unusable specification is not the model's fault: the item is not evaluated, with the reason. */
const unscorable = (scorer: string, message: string): Scored => ({
  scorer,
  verdict: "not_evaluated",
  reason: `not evaluated: the case's scorer specification is unusable: ${message}`,
  extracted: null,
  details: {}
});

export function scoreAnswer(a: CaseAnswer): ScoredAnswer {
  let scored: Scored[];
  let specError: string | null = null;
  try {
    scored = scoreItem({
      scorer: a.scorer,
      response: a.response,
      // tool calls count only in a 2xx response (response is null otherwise)
      toolCalls: a.response === null ? null : a.toolCalls,
      expected: a.expected,
      ...(a.params === undefined ? {} : {params: a.params}),
      finishReason: a.finishReason,
      error: a.error
    });
  } catch (e) {
    if (!(e instanceof ScoreSpecError)) throw e;
    specError = e.message;
    scored = [unscorable(a.scorer, e.message)];
  }
  const records = scored.map((s): Omit<QualityRecord, "seq"> => ({
    qualityVersion: QUALITY_VERSION,
    caseId: a.caseId,
    scorer: s.scorer,
    itemId: a.itemId,
    requestId: a.requestId,
    point: a.point,
    tier: a.tier,
    promptDigest: a.promptDigest,
    response: a.response,
    extracted: s.extracted,
    expected: a.expected,
    verdict: s.verdict,
    reason: s.reason,
    // the key order of the records frozen by collectors before analysis-time scoring
    details: {
      ...a.details,
      ...s.details,
      repeat: a.repeat,
      ...(a.round === null ? {} : {round: a.round}),
      finishReason: a.finishReason,
      ...(a.toolCalls.length > 0 ? {toolCalls: a.toolCalls} : {})
    }
  }));
  return {records, specError};
}
