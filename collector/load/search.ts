import {max, min} from "d3-array";

import type {SearchSpec} from "../../src/analysis/schema/config.ts";

/**
 * The load search's choice of the next probe (issue 14), pure: from the range minimum, double while probes
 * pass (capped at the range maximum); after the first failure, bisect between the highest pass and the
 * lowest failure until they are within the precision, or max_probes ran. A probe that is not evaluable
 * counts as not passing. Concurrency values are whole numbers; rates keep 4 significant digits.
 */

export type ProbeStatus = "pass" | "fail" | "not_evaluable";

export interface ProbeOutcome {
  value: number;
  status: ProbeStatus;
}

export type SearchStep =
  {kind: "probe"; value: number; reason: string} | {kind: "end"; answer: number | null; reason: string};

type Shape = Pick<SearchSpec, "over" | "range" | "precision" | "max_probes">;

const fmt = (v: number): string => String(v);
const round = (s: Shape, v: number): number => (s.over === "concurrency" ? Math.floor(v) : Number(v.toPrecision(4)));

function withinPrecision(s: Shape, lo: number, hi: number): boolean {
  const p = s.precision;
  return "step" in p ? hi - lo <= p.step : (hi - lo) / lo <= p.relative;
}

/** The next step of a search given the probes measured so far, in the order they ran. */
export function nextSearchStep(s: Shape, probes: readonly ProbeOutcome[]): SearchStep {
  const [lowest, highest] = s.range;
  if (probes.length === 0) return {kind: "probe", value: lowest, reason: `start at the range minimum ${fmt(lowest)}`};
  const notPass = probes.filter((p) => p.status !== "pass").map((p) => p.value);
  const hi = notPass.length > 0 ? min(notPass)! : null;
  const passes = probes.filter((p) => p.status === "pass" && (hi === null || p.value < hi)).map((p) => p.value);
  const lo = passes.length > 0 ? max(passes)! : null;
  const budget = probes.length >= s.max_probes;
  const spent = `max_probes (${s.max_probes}) reached`;
  if (lo === null)
    return {
      kind: "end",
      answer: null,
      reason: `the lowest probe ${fmt(hi!)} did not pass: the answer is below the range (< ${fmt(lowest)})`
    };
  if (hi === null) {
    if (lo >= highest)
      return {
        kind: "end",
        answer: lo,
        reason: `every probe passed up to the range maximum ${fmt(highest)}: the answer is ≥ ${fmt(highest)}`
      };
    if (budget) return {kind: "end", answer: lo, reason: `${spent} while growing: the answer is ≥ ${fmt(lo)}`};
    const next = Math.min(round(s, lo * 2), highest);
    return {
      kind: "probe",
      value: next,
      reason: `${fmt(lo)} passed and nothing failed yet: ${next === highest ? "the range maximum" : "double to"} ${fmt(next)}`
    };
  }
  if (withinPrecision(s, lo, hi))
    return {kind: "end", answer: lo, reason: `${fmt(lo)} passed and ${fmt(hi)} did not: within the precision`};
  const mid = round(s, (lo + hi) / 2);
  if (mid <= lo || mid >= hi || probes.some((p) => p.value === mid))
    return {kind: "end", answer: lo, reason: `${fmt(lo)} passed and ${fmt(hi)} did not: no value left between them`};
  if (budget) return {kind: "end", answer: lo, reason: `${spent}: ${fmt(lo)} passed, ${fmt(hi)} did not`};
  return {
    kind: "probe",
    value: mid,
    reason: `bisect between the highest pass ${fmt(lo)} and the lowest failure ${fmt(hi)}: ${fmt(mid)}`
  };
}
