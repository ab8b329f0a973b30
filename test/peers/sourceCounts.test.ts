import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import type {Report} from "../../src/analysis/index.ts";
import {localize} from "../../src/i18n/index.ts";
import {importAndAnalyzeTexts} from "./helpers.ts";
import {f} from "./synthetic.ts";

/**
 * Files that keep no per-request results (or a sample of them): the error-rate gate reads the tool's own
 * counts. Each file is a shipped synthetic fixture with its counts edited here; the expected shares are the
 * edited counts worked by hand (failed ÷ every request the tool counted), against the default 1 % threshold.
 */
const g3 = (r: Report) => r.gates.find((g) => g.id === "G3")!;
const read = (p: string) => JSON.parse(readFileSync(f(p), "utf8")) as Record<string, unknown>;
const one = (name: string, value: unknown) => [{name, text: JSON.stringify(value)}];

/** A vLLM 2025 result without per-request arrays. */
const vllm = (o: Record<string, unknown>): Record<string, unknown> => ({
  ...read("vllm/vllm-2025-all-failed.json"),
  latencies: undefined,
  ...o
});

describe("vLLM and SGLang results without per-request arrays", () => {
  it("all 3 requests failed by vLLM's count: INVALID (it was INCONCLUSIVE, no measured requests)", async () => {
    const {report} = await importAndAnalyzeTexts("vllm", one("r.json", vllm({})));
    expect(g3(report)).toMatchObject({status: "fail"});
    expect(g3(report).points![0]!.reason).toBe("no request records; vllm counted 3/3 failed (100.0 %) > 1.0 %");
    expect(report.verdict).toBe("INVALID");
  });

  it("a 2024 file without `failed`: the prompts it did not complete failed (9 of 10 completed: 10 %)", async () => {
    const o = vllm({num_prompts: 10, completed: 9});
    delete o.failed;
    const {report} = await importAndAnalyzeTexts("vllm", one("r.json", o));
    expect(g3(report).points![0]!.reason).toBe("no request records; vllm counted 1/10 failed (10.0 %) > 1.0 %");
  });

  it("1 failed of 200 (0.5 %) is not a pass: the tool's successes cannot be checked", async () => {
    const {report} = await importAndAnalyzeTexts(
      "vllm",
      one("r.json", vllm({num_prompts: 200, completed: 199, failed: 1}))
    );
    expect(g3(report).status).toBe("not_evaluable");
    expect(g3(report).points![0]!.reason).toMatch(
      /^no request records; vllm counted 1\/200 failed \(0\.5 %\), by its own/
    );
    expect(report.verdict).toBe("INCONCLUSIVE");
  });

  it("two runs at one point are summed: 1 of 100 and 2 of 100 failed = 3 of 200 (1.5 %) fails", async () => {
    const run = (failed: number) => JSON.stringify(vllm({num_prompts: 100, completed: 100 - failed, failed}));
    const {report} = await importAndAnalyzeTexts("vllm", [{name: "r.jsonl", text: `${run(1)}\n${run(2)}\n`}]);
    expect(report.load_points.map((p) => p.id)).toEqual(["concurrency-3"]);
    expect(g3(report).points![0]!.reason).toBe(
      "no request records; vllm counted 3/200 failed over 2 runs (1.5 %) > 1.0 %"
    );
  });
});

describe("LLMPerf summary alone", () => {
  const summary = (o: Record<string, unknown>) => ({...read("llmperf/synthetic_summary.json"), ...o});

  it("10 errors of 200 started (5 %): INVALID", async () => {
    const s = summary({
      results_num_requests_started: 200,
      results_num_completed_requests: 190,
      results_number_errors: 10
    });
    const {report} = await importAndAnalyzeTexts("llmperf", one("s_summary.json", s));
    expect(g3(report).points![0]!.reason).toBe("no request records; llmperf counted 10/200 failed (5.0 %) > 1.0 %");
  });

  it("requests started but never returned count in the denominator (3 of 300 started, 290 completed: 1.0 %)", async () => {
    const s = summary({
      results_num_requests_started: 300,
      results_num_completed_requests: 290,
      results_number_errors: 3
    });
    const {report} = await importAndAnalyzeTexts("llmperf", one("s_summary.json", s));
    expect(g3(report).status).toBe("not_evaluable");
    expect(g3(report).points![0]!.reason).toMatch(/counted 3\/300 failed \(1\.0 %\)/);
  });
});

describe("AIPerf aggregate alone", () => {
  it("request_count 5 and error_request_count 1 of a run stopped by count: 1 of 6 (16.7 %) fails", async () => {
    const agg = read("aiperf/2025-10/profile_export_aiperf.json");
    const {report} = await importAndAnalyzeTexts("aiperf", one("profile_export_aiperf.json", agg));
    expect(g3(report).points![0]!.reason).toBe("no request records; aiperf counted 1/6 failed (16.7 %) > 1.0 %");
  });

  it("the phases layout (v0.12): 7 successful and 1 error of the profiling phase (12.5 %)", async () => {
    const agg = read("aiperf/v0.12/profile_export_aiperf.json");
    const {report} = await importAndAnalyzeTexts("aiperf", one("profile_export_aiperf.json", agg));
    expect(g3(report).points![0]!.reason).toBe("no request records; aiperf counted 1/8 failed (12.5 %) > 1.0 %");
  });

  it("a timed run drops the responses pending after its grace period, uncounted: not evaluable", async () => {
    const agg = read("aiperf/2025-10/profile_export_aiperf.json") as {input_config: {loadgen: Record<string, unknown>}};
    agg.input_config.loadgen.benchmark_duration = 60;
    const {report} = await importAndAnalyzeTexts("aiperf", one("profile_export_aiperf.json", agg));
    expect(g3(report)).toMatchObject({status: "not_evaluable", reason: "no measured requests"});
  });
});

describe("GuideLLM records that keep a sample", () => {
  it("2 successful requests stored of 9, and 3 errored counted but not stored: 3 of 12 (25 %) fails", async () => {
    const doc = read("guidellm/sampled/benchmarks.json") as {benchmarks: Record<string, unknown>[]};
    for (const b of doc.benchmarks) {
      const totals = (b.request_totals ?? (b.metrics as Record<string, unknown>).request_totals) as Record<
        string,
        number
      >;
      Object.assign(totals, {errored: 3, total: 12});
    }
    const {report} = await importAndAnalyzeTexts("guidellm", one("benchmarks.json", doc));
    expect(g3(report).points![0]!.reason).toBe(
      "0/2 failed (0.0 %) in the records, which keep 2 of its 12 requests; guidellm counted 3/12 failed (25.0 %) > 1.0 %"
    );
  });
});

describe("llm-d Benchmark Report (aggregates only)", () => {
  /** The converter's output (its bare Infinity kept) with its `"failures": 0` replaced. */
  const report = (failures: string) =>
    readFileSync("test/fixtures/peers/llmd-report/vllm-converter-output_br_v0_2.json", "utf8").replace(
      /"failures": 0,/,
      `"failures": ${failures},`
    );

  it("4 failures of 32 sent (12.5 %) fail, whether or not incomplete requests are stated", async () => {
    for (const failures of ["4", '4, "incomplete": 2']) {
      const {report: r} = await importAndAnalyzeTexts("llmd-report", [{name: "br.json", text: report(failures)}]);
      expect(g3(r).points![0]!.reason).toBe("no request records; llmd-report counted 4/32 failed (12.5 %) > 1.0 %");
    }
  });

  it("no failures stated: not evaluable", async () => {
    const {report: r} = await importAndAnalyzeTexts("llmd-report", [{name: "br.json", text: report("null")}]);
    expect(g3(r)).toMatchObject({status: "not_evaluable", reason: "no measured requests"});
  });
});

describe("G3's reasons from the tool's counts, in Chinese", () => {
  it("each template is translated whole, the tool's clause inside it too", () => {
    const zh = (en: string) => localize(en, "zh");
    expect(zh("no request records; vllm counted 3/200 failed over 2 runs (1.5 %) > 1.0 %")).toBe(
      "没有请求记录；vllm 统计 2 次运行共 3/200 失败（1.5 %） > 1.0 %"
    );
    expect(
      zh(
        "0/2 failed (0.0 %) in the records, which keep 2 of its 12 requests; guidellm counted 3/12 failed (25.0 %) > 1.0 %"
      )
    ).toBe("记录中 0/2 失败（0.0 %），记录只保存了其 12 个请求中的 2 个；guidellm 统计 3/12 失败（25.0 %） > 1.0 %");
    expect(zh("0/100 failed (0.0 %) in the records; aiperf counted 2/100 failed (2.0 %) > 1.0 %")).toBe(
      "记录中 0/100 失败（0.0 %）；aiperf 统计 2/100 失败（2.0 %） > 1.0 %"
    );
  });
});
