import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {guidellmExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

describe("GuideLLM benchmarks.json", () => {
  it("token-weighted ITL and TTFT-inclusive TPOT reproduce with weighted nearest rank", async () => {
    const {report} = await importAndAnalyze("auto", [f("guidellm/benchmarks.json")]);
    const r = checkAgainstFile(report, guidellmExpected(json("guidellm/benchmarks.json")));
    expect(r.unrecomputable).toEqual([]);
    expect(r.exact).toBe(73);
  });
});

describe("GuideLLM's measured window and stored samples", () => {
  it("records outside the measured window are its warmup and cooldown; the rest reproduce over the same window", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("guidellm/window/benchmarks.json")]);
    // 9 requests 0.4 s apart; the window starts after request 1 ends and stops before request 7 starts
    expect(run.requests.map((r) => r.phase)).toEqual([
      "warmup",
      "warmup",
      "measure",
      "measure",
      "measure",
      "measure",
      "measure",
      "cooldown",
      "cooldown"
    ]);
    expect(report.load_points[0]!.n_success).toBe(5);
    const r = checkAgainstFile(report, guidellmExpected(json("guidellm/window/benchmarks.json")));
    expect(r.unrecomputable).toEqual([]);
    expect(r.exact).toBe(73);
    expect(run.notes.join("; ")).toMatch(
      /9 requests stored, 5 inside GuideLLM's measured window .* the 4 outside are its warmup\/cooldown/
    );
  });

  it("a stored sample: every reported number kept verbatim, none recomputed from the sample, and why", async () => {
    const file = json("guidellm/sampled/benchmarks.json") as {
      benchmarks: {metrics: Record<string, {successful: {mean: number}}>}[];
    };
    const {run, report} = await importAndAnalyze("auto", [f("guidellm/sampled/benchmarks.json")]);
    expect(run.requests).toHaveLength(2);
    expect(run.notes.join("; ")).toMatch(
      /a sample — 2 of 9 successful requests are stored \(sample size 2\); GuideLLM's numbers cover all 9/
    );
    const rows = report.source_comparison!;
    const ttft = rows.find((x) => x.metric === "time_to_first_token_ms.mean")!;
    expect(ttft.reported).toBe(file.benchmarks[0]!.metrics.time_to_first_token_ms!.successful.mean);
    expect(ttft.recomputed).toBeNull();
    expect(ttft.recomputed_status).toBe("not_recomputable");
    expect(ttft.note).toMatch(/sampled_requests: the file stores 2 of 9 successful requests/);
    expect(ttft.codes).toContain("sampled_requests");
    // nothing is recomputed from the two records, not even the errored and incomplete totals (0 of 0 stored:
    // a count over a sample is at most GuideLLM's, so an equal one proves nothing); only the window's length
    expect(rows.filter((x) => x.recomputed !== null).map((x) => x.metric)).toEqual(["duration"]);
    for (const k of ["errored", "incomplete"])
      expect(rows.find((x) => x.metric === `request_totals.${k}`)).toMatchObject({
        reported: 0,
        recomputed: null,
        recomputed_status: "not_recomputable",
        note: expect.stringMatching(/^missing_data: sampled_requests: the file stores 2 of 9 successful requests/)
      });
    expect(rows.filter((x) => x.finding)).toEqual([]);
    const rps = rows.find((x) => x.metric === "requests_per_second.mean")!;
    expect(rps.reported).toBe(file.benchmarks[0]!.metrics.requests_per_second!.successful.mean);
  });
});

describe("generations of a format", () => {
  it("GuideLLM before 0.5 (start_time/first_token_time/last_token_time/end_time on the request) imports alike", async () => {
    const g = json("guidellm/benchmarks.json") as {benchmarks: {requests: {successful: Record<string, unknown>[]}}[]};
    for (const r of g.benchmarks[0]!.requests.successful) {
      const t = (r.info as {timings: Record<string, number>}).timings;
      Object.assign(r, {
        start_time: t.request_start,
        first_token_time: t.first_token_iteration,
        last_token_time: t.last_token_iteration,
        end_time: t.request_end
      });
      delete r.info;
    }
    const dir = mkdtempSync(join(tmpdir(), "inferscope-guidellm-"));
    try {
      writeFileSync(join(dir, "old.json"), JSON.stringify(g));
      const {report} = await importAndAnalyze("auto", [join(dir, "old.json")]);
      const r = checkAgainstFile(report, guidellmExpected(g as unknown as Record<string, unknown>));
      expect(r.exact).toBe(73);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
