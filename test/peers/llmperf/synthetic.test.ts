import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {llmperfExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

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
});
