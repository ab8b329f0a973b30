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

/** Pass rates per scorer and quality version, sorted by scorer. Scores of different versions stay apart. */
export function qualityRates(records: readonly QualityRecord[]): QualityRate[] {
  const by = new Map<string, QualityRate>();
  for (const r of records) {
    const key = `${r.scorer}\u0000${r.qualityVersion}`;
    const q =
      by.get(key) ??
      by
        .set(key, {
          scorer: r.scorer,
          qualityVersion: r.qualityVersion,
          pass: 0,
          fail: 0,
          notEvaluated: 0,
          n: 0,
          rate: null
        })
        .get(key)!;
    if (r.verdict === "pass") q.pass++;
    else if (r.verdict === "fail") q.fail++;
    else q.notEvaluated++;
  }
  for (const q of by.values()) {
    q.n = q.pass + q.fail;
    q.rate = q.n > 0 ? q.pass / q.n : null;
  }
  return [...by.values()].sort(
    (a, b) => a.scorer.localeCompare(b.scorer) || a.qualityVersion.localeCompare(b.qualityVersion)
  );
}
