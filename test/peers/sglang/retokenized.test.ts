import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * B2: SGLang's `bench_serving.py` writes its re-tokenized output count as `total_output_tokens_retokenized`
 * (python/sglang/bench_serving.py, the result dict of `benchmark()`, every version from 2024 on); the name
 * `total_output_retokenized` is only its BenchmarkMetrics field (and the key of a few other SGLang scripts).
 *
 * The first line of a real bench_serving JSONL, its numbers as the file has them: WILLIAM-qmul/SGLang-dLoRA @
 * 5ff031785f301ad2591887c66b28258e3e87051c, `versions/un&merge/lora/sglang_1015_1000_1024_128.jsonl` (sha256
 * e6a6781c…a5e9, 931 bytes). The repository has no licence, so the file is not committed (as for the other
 * unlicensed files in docs/importing.md); these are its reported numbers.
 */
const REAL_LINE_1 = {
  backend: "sglang",
  request_rate: null, // Infinity in the file (read as null, like the importer reads it)
  total_input_tokens: 342460,
  total_output_tokens: 218257,
  total_output_tokens_retokenized: 2356,
  mean_e2e_latency_ms: 42764.518483904474,
  median_e2e_latency_ms: 43827.27444753982,
  median_ttft_ms: 14326.873142970726,
  median_itl_ms: 0.0,
  output_throughput: 2573.7399432960988,
  random_input_len: 1024,
  random_output_len: 128,
  random_range_ratio: 0.0,
  duration: 84.80149696883745,
  completed: 996
};

const importLine = (line: Record<string, unknown>) =>
  importAndAnalyzeTexts("sglang", [{name: "sglang_1015_1000_1024_128.jsonl", text: `${JSON.stringify(line)}\n`}]);

describe("SGLang's re-tokenized output count (total_output_tokens_retokenized)", () => {
  it("a real run: 218,257 output tokens but 2,356 re-tokenized puts the count and output_throughput in doubt", async () => {
    const {run, report} = await importLine(REAL_LINE_1);
    const rows = report.source_comparison!;
    // by hand: |218257 − 2356| / 218257 = 215901 / 218257 = 0.98921… > 0.02
    const retok = rows.find((r) => r.metric === "total_output_tokens_retokenized")!;
    expect(retok).toBeDefined();
    expect(retok.reported).toBe(2356);
    expect(retok.recomputed).toBe(218257);
    expect(retok.codes).toContain("token_source");
    expect(retok.note).toContain("98.9 %");
    // 2573.74 tok/s = 218257 / 84.8015 s: the rate is divided from the doubted count, and says so
    expect(218257 / 84.80149696883745).toBeCloseTo(2573.7399432960988, 9);
    const throughput = rows.find((r) => r.metric === "output_throughput")!;
    expect(throughput.reported).toBe(2573.7399432960988);
    expect(throughput.codes).toContain("token_source");
    expect(throughput.note).toContain("usage_source uncertain");
    const total = rows.find((r) => r.metric === "total_output_tokens")!;
    expect(total.codes).toContain("token_source");
    // and the person importing is told at once
    expect(run.warnings?.some((w) => w.includes("total_output_tokens_retokenized (2356)"))).toBe(true);
  });

  it("counts within 2 % of each other raise nothing (599,000 of 600,000 is 0.17 %)", async () => {
    const {run, report} = await importLine({
      ...REAL_LINE_1,
      total_output_tokens: 600000,
      total_output_tokens_retokenized: 599000
    });
    const rows = report.source_comparison!;
    expect(rows.some((r) => r.metric === "total_output_tokens_retokenized")).toBe(false);
    expect(rows.find((r) => r.metric === "output_throughput")!.codes).not.toContain("token_source");
    expect(run.warnings?.some((w) => w.includes("re-tokenized")) ?? false).toBe(false);
  });

  it("the BenchmarkMetrics field name, which other SGLang scripts write as a key, is read too", async () => {
    const {total_output_tokens_retokenized: retokenized, ...rest} = REAL_LINE_1;
    const {report} = await importLine({...rest, total_output_retokenized: retokenized});
    const row = report.source_comparison!.find((r) => r.metric === "total_output_retokenized")!;
    expect(row.reported).toBe(2356);
    expect(row.codes).toContain("token_source");
  });

  it("a re-tokenized count that is a string or negative is refused with its path, like every other run number", async () => {
    await expect(importLine({...REAL_LINE_1, total_output_tokens_retokenized: "2356"})).rejects.toThrow(
      /\$\.total_output_tokens_retokenized: a number, got the string "2356"/
    );
    await expect(importLine({...REAL_LINE_1, total_output_tokens_retokenized: -1})).rejects.toThrow(
      /\$\.total_output_tokens_retokenized: a non-negative number, got -1/
    );
  });
});
