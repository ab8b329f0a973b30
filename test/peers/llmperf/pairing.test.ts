import {describe, expect, it} from "vitest";

import {importPeer} from "../../../src/analysis/index.ts";
import {importAndAnalyzeTexts} from "../helpers.ts";
import {json} from "../synthetic.ts";

/**
 * LLMPerf writes one run as a pair (`<name>_individual_responses.json`, `<name>_summary.json`) and computes the
 * summary over exactly the rows of the responses file. Run A is the synthetic pair: 9 rows, the last with error
 * code 500; its summary says 9 started, 1 error, 8 completed. Run B is A's 8 successful rows alone.
 */
type Row = Record<string, unknown>;
const rowsA = (): Row[] => json("llmperf/synthetic_individual_responses.json") as unknown as Row[];
const rowsB = (): Row[] => rowsA().filter((r) => r.error_code == null);
const summaryA = () => json("llmperf/synthetic_summary.json");
const file = (name: string, value: unknown) => ({name, text: JSON.stringify(value)});
const errorsOf = (files: {name: string; text: string}[]) => {
  const r = importPeer("auto", files);
  return r.ok ? [] : r.errors;
};

describe("LLMPerf: one run per import, and a summary only with the responses it was computed from", () => {
  it("two individual-responses files are refused, both named (neither is dropped)", () => {
    expect(
      errorsOf([file("a_individual_responses.json", rowsA()), file("b_individual_responses.json", rowsB())])
    ).toEqual([
      {
        file: "a_individual_responses.json, b_individual_responses.json",
        path: "$",
        expected:
          "one LLMPerf run per import (one individual-responses file and at most one summary), got 2 individual-responses files: import each run on its own (none is merged or dropped)"
      }
    ]);
  });

  it("two summaries are refused the same way", () => {
    const b = {...summaryA(), name: "b_summary"};
    expect(errorsOf([file("a_summary.json", summaryA()), file("b_summary.json", b)])).toMatchObject([
      {file: "a_summary.json, b_summary.json", expected: expect.stringMatching(/got 2 summary files/)}
    ]);
  });

  it("a summary whose counts cannot come from the responses given is refused, with each count that differs", () => {
    // A's summary with B's 8 rows: 9 started ≠ 8 rows, 1 error ≠ 0; 8 completed = 8 (not listed)
    expect(errorsOf([file("b_individual_responses.json", rowsB()), file("a_summary.json", summaryA())])).toEqual([
      {
        file: "a_summary.json, b_individual_responses.json",
        path: "$",
        expected:
          "a summary of the run in b_individual_responses.json (LLMPerf computes it over exactly those rows), but results_num_requests_started 9 ≠ 8 rows; results_number_errors 1 ≠ 0 rows with an error code: they are two runs; import each on its own"
      }
    ]);
  });

  it("equal counts are not enough: the extremes LLMPerf took of those rows must be theirs", () => {
    const rows = rowsA();
    // above the summary's max 0.29803657468805533, and within the row's own end-to-end latency (0.347 s): a TTFT
    // longer than the request it belongs to is refused before any pairing (hostile.test.ts)
    rows[0]!.ttft_s = 0.32;
    const [e] = errorsOf([file("a_individual_responses.json", rows), file("a_summary.json", summaryA())]);
    expect(e!.expected).toMatch(
      /but results_ttft_s_max 0\.29803657468805533 ≠ 0\.32, the max of the rows without an error code: they are two runs/
    );
  });

  it("the run's own pair imports: 9 requests, one load point at concurrency 2", async () => {
    const {run} = await importAndAnalyzeTexts("auto", [
      file("a_individual_responses.json", rowsA()),
      file("a_summary.json", summaryA())
    ]);
    expect(run.requests).toHaveLength(9);
    expect(run.loadPoints.map((p) => p.id)).toEqual(["concurrency-2"]);
  });
});
