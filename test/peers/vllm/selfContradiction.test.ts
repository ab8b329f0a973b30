import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * A vLLM result that contradicts its own counts. vLLM's calculate_metrics divides the token totals by the
 * completed requests and writes `np.mean(ttfts or 0)` (0.0) for statistics of none, so a file with `completed: 0`
 * cannot also hold 17,000 output tokens and a 60 ms mean TTFT (the audit's hostile variant of a real 2025-03
 * file: aurotripathy/vllm-bench, not committed). Aggregates only, no per-request arrays: no record can say which
 * number is wrong, so the import must say the file contradicts itself and keep the numbers as written.
 */
const aggregate = (over: Record<string, unknown>) => ({
  date: "20250325-225936",
  backend: "vllm",
  model_id: "m",
  num_prompts: 100,
  request_rate: "inf",
  duration: 93.99,
  completed: 100,
  failed: 0,
  total_input_tokens: 93766,
  total_output_tokens: 17000,
  request_throughput: 1.064,
  output_throughput: 180.87,
  mean_ttft_ms: 60.85,
  median_ttft_ms: 60.78,
  p99_ttft_ms: 62.89,
  mean_tpot_ms: 10.75,
  median_tpot_ms: 10.75,
  p99_tpot_ms: 10.77,
  ...over
});

async function importOne(over: Record<string, unknown>) {
  const text = JSON.stringify(aggregate(over));
  const {run, report} = await importAndAnalyzeTexts("vllm", [{name: "run.json", text}]);
  const row = (metric: string) => report.source_comparison!.find((r) => r.metric === metric)!;
  return {warnings: run.warnings ?? [], notes: run.notes, row};
}

describe("a vLLM file that contradicts its own counts", () => {
  it("completed 0 beside output tokens, throughputs and latencies: warned, each number named, kept as written", async () => {
    const {warnings, notes, row} = await importOne({completed: 0, failed: 100});
    const w = warnings.filter((x) => x.includes("contradicts itself"));
    expect(w).toHaveLength(1);
    for (const part of [
      "completed is 0",
      "total_output_tokens 17000",
      "request_throughput 1.064",
      "output_throughput 180.87",
      "mean_ttft_ms 60.85",
      "median_ttft_ms 60.78",
      "mean_tpot_ms 10.75",
      "median_tpot_ms 10.75"
    ])
      expect(w[0]).toContain(part);
    // a p99 is not a mean or median: a single slow request of a run that did complete some could set it
    expect(w[0]).not.toContain("p99_ttft_ms");
    expect(notes).toContain(w[0]);
    expect(row("mean_ttft_ms").reported).toBe(60.85);
  });

  it("a real all-failed file (completed 0, every total and statistic 0.0) is not a contradiction", async () => {
    const zero = {
      total_output_tokens: 0,
      request_throughput: 0,
      output_throughput: 0,
      mean_ttft_ms: 0,
      median_ttft_ms: 0,
      p99_ttft_ms: 0,
      mean_tpot_ms: 0,
      median_tpot_ms: 0,
      p99_tpot_ms: 0
    };
    const {warnings, row} = await importOne({completed: 0, failed: 100, ...zero});
    expect(warnings.filter((x) => x.includes("contradicts itself"))).toEqual([]);
    // 0.0 of no requests is the client's default, not a measured TTFT
    expect(row("mean_ttft_ms").reported).toBeNull();
  });

  it("more requests completed and failed than planned", async () => {
    const {warnings} = await importOne({completed: 60, failed: 50});
    const w = warnings.filter((x) => x.includes("contradicts itself"));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("completed (60) + failed (50) = 110 requests, more than the 100 the run planned");
  });

  it("a consistent file is not warned", async () => {
    const {warnings} = await importOne({});
    expect(warnings.filter((x) => x.includes("contradicts itself"))).toEqual([]);
  });
});
