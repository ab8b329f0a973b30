import {flatRollup} from "d3-array";

import type {QualityRecord} from "../schema/records.ts";

/** Pass rate of one scorer (at one quality version); "not evaluated" items are counted apart, never as fails. */
export interface QualityRate {
  scorer: string;
  qualityVersion: string;
  pass: number;
  fail: number;
  notEvaluated: number;
  /** pass + fail. */
  n: number;
  /** pass / n; null when nothing was scored. */
  rate: number | null;
}

/** Counts of one scorer's verdicts (at one quality version). */
function tally(records: readonly QualityRecord[]): Omit<QualityRate, "scorer" | "qualityVersion"> {
  const pass = records.filter((r) => r.verdict === "pass").length;
  const fail = records.filter((r) => r.verdict === "fail").length;
  const n = pass + fail;
  return {pass, fail, notEvaluated: records.length - n, n, rate: n > 0 ? pass / n : null};
}

/** Pass rates per scorer and quality version, sorted by scorer. Scores of different versions stay apart. */
export function qualityRates(records: readonly QualityRecord[]): QualityRate[] {
  return flatRollup(
    records,
    tally,
    (r) => r.scorer,
    (r) => r.qualityVersion
  )
    .map(([scorer, qualityVersion, t]) => ({scorer, qualityVersion, ...t}))
    .sort((a, b) => a.scorer.localeCompare(b.scorer) || a.qualityVersion.localeCompare(b.qualityVersion));
}
