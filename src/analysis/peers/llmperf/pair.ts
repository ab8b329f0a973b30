import {max, min} from "../../stats/moments.ts";
import {relDiff} from "../shared/stats.ts";
import type {PeerError} from "../shared/types.ts";
import {summaryNumber as num, type Individual} from "./format.ts";

/**
 * Which LLMPerf files make one run. LLMPerf writes a run as one pair, `<name>_individual_responses.json`
 * and `<name>_summary.json` (token_benchmark_ray.py), and computes the summary over exactly the rows it
 * writes to the responses file (`metrics_summary(completed_requests, …)`). An import takes one run: a second
 * file of a kind is refused rather than one of them kept, and a summary is paired with a responses file
 * only when the numbers every genuine pair shares agree. Files are paired by content, not by name: the
 * leaderboard renames them (`raw_data/individual/bedrock_70b.json`) and the summary's own `name` field
 * keeps the model's name, so names prove nothing either way.
 */

export interface IndividualDoc {
  file: string;
  rows: Individual[];
}
export interface SummaryDoc {
  file: string;
  raw: Record<string, unknown>;
}

/** An import is one run: at most one file of each kind, every extra one named. */
export function oneRunErrors(kind: string, files: readonly string[]): PeerError[] {
  if (files.length <= 1) return [];
  return [
    {
      file: files.join(", "),
      path: "$",
      expected: `one LLMPerf run per import (one individual-responses file and at most one summary), got ${files.length} ${kind} files: import each run on its own (none is merged or dropped)`
    }
  ];
}

/**
 * Values a min or max of the same floats must reproduce (pandas' min returns one of the values, written
 * with Python's repr and read back as the same double); 1e-9 relative leaves room for a tool that rounds.
 */
const SAME = 1e-9;

/** Numbers of the summary that the responses file fixes exactly, each with what the responses say. */
function contradictions(rows: readonly Individual[], raw: Record<string, unknown>): string[] {
  const errored = rows.filter((r) => r.error_code != null).length;
  const out: string[] = [];
  const count = (key: string, actual: number, what: string) => {
    const said = num(raw[key]);
    if (said !== null && said !== actual) out.push(`${key} ${said} ≠ ${actual} ${what}`);
  };
  count("results_num_requests_started", rows.length, "rows");
  count("results_num_completed_requests", rows.length - errored, "rows without an error code");
  count("results_number_errors", errored, "rows with an error code");
  for (const metric of ["ttft_s", "end_to_end_latency_s"] as const) {
    const values = rows.filter((r) => r.error_code == null && r[metric] != null).map((r) => r[metric]!);
    for (const [stat, actual] of [
      ["min", min(values)],
      ["max", max(values)]
    ] as const) {
      const said = num(raw[`results_${metric}_${stat}`]);
      if (said !== null && actual !== undefined && relDiff(said, actual) > SAME)
        out.push(`results_${metric}_${stat} ${said} ≠ ${actual}, the ${stat} of the rows without an error code`);
    }
  }
  return out;
}

/** A summary that cannot have been computed from these responses is refused, with every number that says so. */
export function pairErrors(individual: IndividualDoc, summary: SummaryDoc): PeerError[] {
  const bad = contradictions(individual.rows, summary.raw);
  if (bad.length === 0) return [];
  return [
    {
      file: `${summary.file}, ${individual.file}`,
      path: "$",
      expected: `a summary of the run in ${individual.file} (LLMPerf computes it over exactly those rows), but ${bad.join("; ")}: they are two runs; import each on its own`
    }
  ];
}
