import {expect} from "vitest";

import type {Report, SourceComparisonRow} from "../../src/analysis/index.ts";
import type {Expected} from "./expected.ts";

export const rel = (a: number, b: number): number => {
  const s = Math.max(Math.abs(a), Math.abs(b));
  return s === 0 ? 0 : Math.abs(a - b) / s;
};

export interface CheckResult {
  exact: number;
  bounded: {metric: string; reported: number; lower: number | null; upper: number | null}[];
  unrecomputable: {metric: string; note: string | null}[];
  worst: number;
}

/**
 * For every number the file reports: the comparison has a row with exactly that reported value, and our
 * recomputation under the tool's definition agrees within 1e-4 relative (exact/derived) or its bound
 * contains it (bounded). Rows that cannot be recomputed are returned so the test can state why.
 */
export function checkAgainstFile(report: Report, expected: readonly Expected[]): CheckResult {
  const rows = report.source_comparison ?? [];
  const out: CheckResult = {exact: 0, bounded: [], unrecomputable: [], worst: 0};
  expect(expected.length).toBeGreaterThan(0);
  for (const e of expected) {
    const point = report.sources[e.run]?.point ?? null;
    const row = rows.find((r: SourceComparisonRow) => r.metric === e.metric && r.point === point);
    expect(row, `a comparison row for ${e.metric} (run ${e.run})`).toBeDefined();
    expect(row!.reported, `${e.metric} reported`).toBe(e.value);
    if (
      row!.recomputed_status === "exact" ||
      row!.recomputed_status === "derived" ||
      row!.recomputed_status === "approximate"
    ) {
      const d = rel(e.value, row!.recomputed!);
      if (row!.recomputed_status !== "approximate") {
        expect(d, `${e.metric}: reported ${e.value}, recomputed ${row!.recomputed}`).toBeLessThanOrEqual(1e-4);
        out.worst = Math.max(out.worst, d);
        out.exact++;
      }
    } else if (row!.recomputed_status === "bounded") {
      const {lower, upper} = row!.bound!;
      if (lower !== null) expect(e.value, `${e.metric} ≥ lower bound`).toBeGreaterThanOrEqual(lower * (1 - 1e-9));
      if (upper !== null) expect(e.value, `${e.metric} ≤ upper bound`).toBeLessThanOrEqual(upper * (1 + 1e-9));
      out.bounded.push({metric: e.metric, reported: e.value, lower, upper});
    } else out.unrecomputable.push({metric: e.metric, note: row!.note});
    expect(row!.finding, `${e.metric} flagged as a finding: ${row!.note}`).toBe(false);
  }
  return out;
}
