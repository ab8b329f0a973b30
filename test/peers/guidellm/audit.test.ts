import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {guidellmExpected} from "../expected.ts";
import {importAndAnalyze, importAndAnalyzeTexts} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

/**
 * What an import audit of real GuideLLM files found (a 0.2-era throughput run of 1000 requests, a report v2 whose
 * requests were stripped, GuideLLM 0.3's YAML output), each rebuilt here as a small synthetic file of the same
 * shape; every expected number is worked out in the comments.
 */

/** `n` copies of `v`. */
const times = (n: number, v: number): number[] => Array.from({length: n}, () => v);

/**
 * A GuideLLM 0.3 report (run_stats and benchmark-level request_totals; requests with start/first/last/end
 * times) of 1000 successful requests: prompt tokens 950 × 512, 38 × 513, 11 × 514, 1 × 515; 128 output tokens
 * each. The reported numbers are what GuideLLM 0.3 computes (objects/statistics.py): its percentiles step once
 * per value and compare with the literal 0.999, so p999 is 514 (999 steps of 0.001 reach 0.999); its mean of the
 * output tokens is Σ 128 × 0.001 = 128.00000000000006 in float64, so their std is 5.684341886080803e-14, not 0.
 */
function legacyReport(): string {
  const prompt = [...times(950, 512), ...times(38, 513), ...times(11, 514), 515];
  const requests = prompt.map((p, i) => {
    const start = 1_750_000_000 + i * 0.01;
    return {
      request_id: `r${i}`,
      prompt_tokens: p,
      output_tokens: 128,
      start_time: start,
      first_token_time: start + 0.05,
      last_token_time: start + 0.5,
      end_time: start + 0.51
    };
  });
  const dist = (d: Record<string, unknown>) => ({successful: d, errored: null, incomplete: null, total: d});
  return JSON.stringify({
    benchmarks: [
      {
        type_: "generative_benchmark",
        run_stats: {start_time: 1_750_000_000, end_time: 1_750_000_010.5},
        args: {strategy: {type_: "throughput"}},
        request_totals: {successful: 1000, errored: 0, incomplete: 0, total: 1000},
        requests: {successful: requests, errored: [], incomplete: []},
        metrics: {
          prompt_token_count: dist({
            // 512063 / 1000
            mean: 512.063,
            median: 512,
            min: 512,
            max: 515,
            count: 1000,
            // shares: 0.95 after the 512s (p95), 0.988 after the 513s (short of p99), 0.999 after the 514s
            percentiles: {p50: 512, p95: 512, p99: 514, p999: 514}
          }),
          output_token_count: dist({
            mean: 128.00000000000006,
            median: 128,
            std_dev: 5.684341886080803e-14,
            min: 128,
            max: 128,
            count: 1000,
            percentiles: {p50: 128, p99: 128, p999: 128}
          })
        },
        start_time: 1_750_000_000,
        end_time: 1_750_000_010.5,
        duration: 10.5
      }
    ]
  });
}

describe("GuideLLM 0.2–0.3: percentiles and noise as GuideLLM computed them", () => {
  it("p999 is 514 (not 515: the share 0.999 reaches the literal 0.999), and a std of 5.7e-14 equals our 0", async () => {
    const {run, report} = await importAndAnalyzeTexts("guidellm", [{name: "benchmarks.json", text: legacyReport()}]);
    expect(run.sources[0]!.facts.generation).toBe("0.3");
    const rows = report.source_comparison!;
    const row = (metric: string) => rows.find((r) => r.metric === metric)!;
    expect(row("prompt_token_count.percentiles.p999")).toMatchObject({reported: 514, recomputed: 514, finding: false});
    expect(row("prompt_token_count.percentiles.p99")).toMatchObject({reported: 514, recomputed: 514, finding: false});
    const std = row("output_token_count.std_dev");
    expect(std).toMatchObject({recomputed: 0, recomputed_status: "exact", finding: false, codes: []});
    expect(std.note).toBe(
      "equal within floating-point noise: |reported − recomputed| = 5.7e-14 tokens ≤ 1e-9 tokens, the absolute tolerance of tokens"
    );
    expect(rows.filter((r) => r.finding)).toEqual([]);
  });

  it("a statistic's note names only what touches that statistic: no median method on a std row", async () => {
    const {report} = await importAndAnalyze("auto", [f("guidellm/benchmarks.json")]);
    const rows = report.source_comparison!;
    const note = (metric: string) => rows.find((r) => r.metric === metric)!.note ?? "";
    // TPOT (TTFT included, token-weighted): its std differs by definition and weighting, not by a percentile method
    expect(note("time_per_output_token_ms.std_dev")).toMatch(/^definition, weighting: their TPOT includes TTFT/);
    expect(note("time_per_output_token_ms.std_dev")).not.toMatch(/median|nearest rank|percentile/);
    // an extreme does not depend on weights
    expect(rows.find((r) => r.metric === "time_per_output_token_ms.max")!.codes).toEqual(["definition"]);
    // the median's note adds the median's method
    expect(note("time_per_output_token_ms.median")).toMatch(/; their median is a nearest rank on the weighted CDF/);
    for (const r of rows.filter((x) => /\.(mean|std_dev|min|max|count)$/.test(x.metric)))
      expect(r.note ?? "", r.metric).not.toMatch(/median|nearest rank/);
  });
});

describe("GuideLLM report whose stored requests are a sample", () => {
  it("with every request stripped, no total is recomputed: 0 errored of an empty sample proves nothing", async () => {
    const report = json("guidellm/sampled/benchmarks.json") as {benchmarks: {requests: Record<string, unknown[]>}[]};
    for (const b of report.benchmarks) b.requests = {successful: [], errored: [], incomplete: []};
    const {report: analysed} = await importAndAnalyzeTexts("guidellm", [
      {name: "benchmarks.json", text: JSON.stringify(report)}
    ]);
    const totals = analysed.source_comparison!.filter((r) => r.metric.startsWith("request_totals."));
    // the file counts 9 successful, 0 errored, 0 incomplete, 9 in all
    expect(totals.map((r) => [r.metric, r.reported, r.recomputed, r.recomputed_status])).toEqual([
      ["request_totals.successful", 9, null, "not_recomputable"],
      ["request_totals.errored", 0, null, "not_recomputable"],
      ["request_totals.incomplete", 0, null, "not_recomputable"],
      ["request_totals.total", 9, null, "not_recomputable"]
    ]);
    for (const r of totals) expect(r.note).toMatch(/sampled_requests: the file stores 0 of 9 successful requests/);
  });
});

describe("GuideLLM's YAML output", () => {
  const yamlFile = f("guidellm/yaml/benchmarks.yaml");
  const jsonFile = f("guidellm/benchmarks.json");

  it("imports by shape and gives the same bundle numbers as its JSON twin", async () => {
    const y = await importAndAnalyze("auto", [yamlFile]);
    const j = await importAndAnalyze("auto", [jsonFile]);
    expect(y.run.tool).toBe("guidellm");
    expect(y.run.requests).toEqual(j.run.requests);
    expect(y.report.load_points).toEqual(j.report.load_points);
    expect(y.report.source_comparison).toEqual(j.report.source_comparison);
    expect(y.report.verdict).toBe(j.report.verdict);
    const r = checkAgainstFile(y.report, guidellmExpected(json("guidellm/benchmarks.json")));
    expect(r.exact).toBe(73);
  });

  it("a repeated key is refused at its line and column, not read as the last value", () => {
    const text = readFileSync(yamlFile, "utf8").replace(/^benchmarks:\n/m, "benchmarks: []\nbenchmarks:\n");
    const line = text.split("\n").findIndex((l) => l === "benchmarks:") + 1;
    return expect(importAndAnalyzeTexts("guidellm", [{name: "benchmarks.yaml", text}])).rejects.toThrow(
      `benchmarks.yaml: line ${line} column 1: valid YAML (map keys must be unique)`
    );
  });
});
