import {describe, expect, it} from "vitest";

import {sourceLines} from "../../../collector/commands/sourceView.ts";
import type {Report} from "../../../src/analysis/index.ts";

type Row = NonNullable<Report["source_comparison"]>[number];

const row = (o: Partial<Row>): Row => ({
  point: "poisson-10",
  metric: "mean_ttft_ms",
  definition: "d",
  unit: "ms",
  reported: 60.85,
  recomputed: 60.85,
  recomputed_status: "exact",
  bound: null,
  canonical: null,
  canonical_metric: null,
  codes: [],
  note: null,
  finding: false,
  ...o
});
const report = (rows: Row[] | undefined) => ({source_comparison: rows}) as unknown as Report;

/** `inferscope analyze DIR` (text) of an imported bundle: the audit found the comparison only in `--json`. */
describe("the source comparison as text", () => {
  it("counts by status, lists every contradicted number with both values, and groups the unrecomputable by reason", () => {
    const lines = sourceLines(
      report([
        row({}),
        row({metric: "median_ttft_ms", recomputed_status: "derived"}),
        row({
          metric: "total_output_tokens_retokenized",
          unit: "tokens",
          reported: 2356,
          recomputed: 218257,
          recomputed_status: "derived",
          codes: ["token_source"],
          finding: true,
          repeat: 1
        }),
        row({metric: "p99_tpot_ms", recomputed_status: "bounded", bound: {lower: 9.5, upper: 10.25}, recomputed: null}),
        row({metric: "duration", recomputed_status: "not_recomputable", recomputed: null, note: "no start times"}),
        row({metric: "std_ttft_ms", recomputed_status: "not_recomputable", recomputed: null, note: "no start times"}),
        row({metric: "goodput", recomputed_status: "not_recomputable", recomputed: null, note: null})
      ])
    );
    expect(lines).toEqual([
      "source comparison: 7 reported numbers; recomputed exact 1, derived 2, bounded 1, approximate 0, not recomputable 3; 1 reported ≠ recomputed",
      "  reported ≠ recomputed:",
      "    poisson-10 (run 1) total_output_tokens_retokenized: reported 2356 tokens, recomputed 218257; token_source",
      "  not recomputable:",
      "    2 number(s): no start times",
      "    1 number(s): no reason given"
    ]);
  });

  it("a bound and a note are shown with the finding; numbers keep six significant digits", () => {
    const [, , line] = sourceLines(
      report([
        row({
          point: null,
          reported: 12.3456789,
          recomputed: null,
          recomputed_status: "bounded",
          bound: {lower: 10, upper: null},
          finding: true,
          note: "outside the bound"
        })
      ])
    );
    expect(line).toBe("    run mean_ttft_ms: reported 12.3457 ms, recomputed — (bound 10 … —) — outside the bound");
  });

  it("more findings than the limit are cut with a count; a collected bundle has no section", () => {
    const many = Array.from({length: 3}, (_, i) => row({metric: `m${i}`, finding: true}));
    expect(sourceLines(report(many), 2).slice(1)).toEqual([
      "  reported ≠ recomputed:",
      "    poisson-10 m0: reported 60.85 ms, recomputed 60.85",
      "    poisson-10 m1: reported 60.85 ms, recomputed 60.85",
      "    … 1 more (--json)"
    ]);
    expect(sourceLines(report(undefined))).toEqual([]);
    // a number the source does not report is not counted as compared (the audit: AIPerf's total_reasoning_tokens)
    const empty = row({
      metric: "total_reasoning_tokens",
      reported: null,
      recomputed: 0,
      note: "not reported by the source"
    });
    expect(sourceLines(report([row({}), empty]))[0]).toBe(
      "source comparison: 1 reported numbers; recomputed exact 1, derived 0, bounded 0, approximate 0, not recomputable 0; 0 reported ≠ recomputed; 1 more rows the source left empty (ours alone)"
    );
    expect(sourceLines(report([]))).toEqual([]);
  });
});
