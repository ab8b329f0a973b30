import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {llmperfExpected} from "../expected.ts";
import {importAndAnalyze, importAndAnalyzeTexts} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

const row = <T extends {metric: string}>(rows: T[] | undefined, metric: string): T =>
  rows!.find((r) => r.metric === metric)!;

describe("LLMPerf individual + summary", () => {
  it("R-7 and ddof 1 from the individual file; TTFT-inclusive ITL shown as a definition difference", async () => {
    const {report} = await importAndAnalyze("auto", [
      f("llmperf/synthetic_individual_responses.json"),
      f("llmperf/synthetic_summary.json")
    ]);
    const r = checkAgainstFile(report, llmperfExpected(json("llmperf/synthetic_summary.json")));
    expect(r.unrecomputable.map((u) => u.metric)).toEqual(["results_mean_output_throughput_token_per_s"]);
    expect(report.load_points[0]!.outcomes.http_error).toBe(1);
  });

  it("a summary alone counts no tokens: no window is derived from it, and the per-minute rate is not recomputed", async () => {
    const {report} = await importAndAnalyze("llmperf", [f("llmperf/synthetic_summary.json")]);
    const perMin = row(report.source_comparison, "results_num_completed_requests_per_min");
    // the file's own 192 requests/min stands; without the individual responses nothing is recomputed (not 8 / 0 s)
    expect(perMin).toMatchObject({reported: 192, recomputed: null, recomputed_status: "not_recomputable"});
    expect(perMin.note).toContain("no individual-responses file");
  });

  it("a row without an error code but without its TTFT is a failure that says what is missing", async () => {
    const rows = json("llmperf/synthetic_individual_responses.json") as unknown as Record<string, unknown>[];
    rows[0]!.ttft_s = null;
    const {run} = await importAndAnalyzeTexts("llmperf", [
      {name: "x_individual_responses.json", text: JSON.stringify(rows)}
    ]);
    expect(run.requests[0]!.errorMessage).toBe(
      "no error code, but no ttft_s recorded: the request's timing is unknown"
    );
    expect(run.requests[1]!.errorMessage).toBeNull();
  });
});
