import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {guidellmExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

/**
 * GuideLLM report version 2 (0.7–0.8), written by GuideLLM's own models, accumulator and serialiser at
 * commit ee7a774 (guidellm/report-v2/NOTES.md): benchmark 0 stores every request, two of them warmup
 * outside the measured window; benchmark 1 stores a sample (sample_size 3) of 9 measured successes.
 * The reported numbers are GuideLLM's own.
 */
const FILE = "guidellm/report-v2/benchmarks.json";

describe("GuideLLM report v2", () => {
  it("imports by shape: the window of benchmark 0 reproduces every number, benchmark 1's sample recomputes nothing", async () => {
    const {run, report} = await importAndAnalyze("auto", [f(FILE)]);
    expect(run.tool).toBe("guidellm");
    expect(run.toolVersion).toBe("0.8.0.dev12");
    expect(run.sources.map((s) => s.facts.generation)).toEqual(["report v2", "report v2"]);
    expect(run.model).toBe("mistralai/Mistral-7B-Instruct-v0.3");
    const all = guidellmExpected(json(FILE));
    const b0 = checkAgainstFile(
      report,
      all.filter((e) => e.run === 0)
    );
    expect(b0.unrecomputable).toEqual([]);
    expect(b0.exact).toBe(73);
    // benchmark 0: 12 successful + 1 errored + 1 incomplete stored, the first 2 successes before the window
    const b0reqs = run.requests.filter((r) => r.point === run.sources[0]!.point);
    expect(b0reqs.filter((r) => r.phase === "warmup")).toHaveLength(2);
    expect(b0reqs.filter((r) => r.phase === "measure")).toHaveLength(12);
    // benchmark 1: only 2 of its 9 measured successes are stored
    expect(run.notes.join("; ")).toMatch(
      /benchmark 1: a sample — 2 of 9 successful requests are stored \(sample size 3\)/
    );
    const b1 = report.source_comparison!.filter((r) => r.point === run.sources[1]!.point);
    const ttft = b1.find((r) => r.metric === "time_to_first_token_ms.mean")!;
    expect(ttft.recomputed).toBeNull();
    expect(ttft.note).toMatch(/sampled_requests: the file stores 2 of 9 successful requests/);
    expect(report.source_comparison!.filter((r) => r.finding)).toEqual([]);
  });
});
