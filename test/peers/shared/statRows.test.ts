import {describe, expect, it} from "vitest";

import {canonicalRef, exact, type CanonicalView} from "../../../src/analysis/peers/shared/compare.ts";
import {statRows} from "../../../src/analysis/peers/shared/statRows.ts";

const view: CanonicalView = {values: () => [1, 2, 3, 4], run: () => ({value: 7})};

describe("statRows: the one reported-stat → row loop", () => {
  it("makes one row per reported statistic, in order, from the tool's definition, unit and recomputation", () => {
    const rows = statRows(
      [
        {metric: "mean_ttft_ms", label: "mean", stat: "mean", reported: 2.5},
        {metric: "p99_ttft_ms", label: "p99", stat: {p: 99}, reported: 9}
      ],
      {
        point: "concurrency-1",
        definition: (s) => `ttft: ${s.label}`,
        unit: () => "ms",
        recompute: (stat) => exact(stat === "mean" ? 2.5 : 3.97),
        canonical: (stat) => ({ref: canonicalRef(view, "ttft_ms", stat), codes: [], why: "because"}),
        caveat: "a caveat"
      }
    );
    expect(rows.map((r) => [r.metric, r.definition, r.unit, r.reported, r.recomputed])).toEqual([
      ["mean_ttft_ms", "ttft: mean", "ms", 2.5, 2.5],
      ["p99_ttft_ms", "ttft: p99", "ms", 9, 3.97]
    ]);
    expect(rows[0]!.finding).toBe(false);
    expect(rows[1]!.finding).toBe(true);
    expect(rows.every((r) => r.codes.includes("definition") && r.note!.includes("definition: a caveat"))).toBe(true);
  });
});
