import {canonicalRun, derived, finishRow, missing, type ComparisonInput, type ReasonCode} from "../shared/compare.ts";
import {num, outputKey} from "./condition.ts";

export const NO_ARRAYS = "no per-request arrays in the file";

/**
 * A rate from the file's own total and its duration: a consistency check of a file without per-request arrays
 * (a rate that disagrees with its counts is a finding), not a recomputation from requests.
 */
export function fromTotals(total: number | null, duration: number | null) {
  return total !== null && duration
    ? derived(total / duration, "from the file's own totals and duration (no per-request arrays)")
    : missing(NO_ARRAYS);
}

/**
 * vLLM's total_token_throughput, (total input + total output tokens) / duration, checked against the file's own
 * totals; null when the file does not report it.
 */
export function totalTokenRow(o: {
  point: string | null;
  agg: Record<string, unknown>;
  duration: number | null;
  canonical: ComparisonInput["canonical"];
  why: string;
  qualifiers?: {code: ReasonCode; note: string}[];
}) {
  const reported = num(o.agg.total_token_throughput);
  if (reported === null) return null;
  const input = num(o.agg.total_input_tokens);
  const output = num(o.agg[outputKey(o.agg)]);
  return finishRow({
    point: o.point,
    metric: "total_token_throughput",
    definition: "(total input + total output tokens) / duration",
    unit: "tok/s",
    reported,
    recomputed: fromTotals(input !== null && output !== null ? input + output : null, o.duration),
    canonical: canonicalRun(o.canonical, "input_output_throughput_tok_s"),
    codes: ["window"],
    why: o.why,
    ...(o.qualifiers ? {qualifiers: o.qualifiers} : {})
  });
}
