import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * vLLM counts a request as completed when its client set `success` — in the file, an empty error string —
 * whether or not a token came (LambdaLabsML/vllm-benchmark, 2024: 3 of 10 answers with TTFT 0.0 and 0 output
 * tokens, all counted). Its numbers must reproduce under that definition; InferScope's own columns judge such
 * an answer by its own rule (empty_output, a failure).
 *
 * Four requests, built here; expected values worked out by hand:
 *   r0  ttft 10 ms, gaps 4, 6 ms, 10 prompt / 3 output tokens, latency 20 ms
 *   r1  ttft 0.0, no gap,        20 prompt / 0 output tokens, latency 8 ms, error ""   ← the empty answer
 *   r2  ttft 30 ms, gap 5 ms,    30 prompt / 2 output tokens, latency 40 ms
 *   r3  failed ("Bad Request"),  40 prompt tokens
 * vLLM's completed: r0, r1, r2 = 3; Σ input 10 + 20 + 30 = 60; Σ output 3 + 0 + 2 = 5; duration 0.5 s.
 */
const ttfts = [0.01, 0.0, 0.03, 0.0];
const perRequest = {
  input_lens: [10, 20, 30, 40],
  output_lens: [3, 0, 2, 0],
  ttfts,
  itls: [[0.004, 0.006], [], [0.005], []],
  generated_texts: ["abc", "", "de", ""],
  errors: ["", "", "", "Bad Request"]
};
// TTFT over [10, 0, 30] ms: mean 40/3; median 10; population std √((100 + 1600 + 2500)/9 / 3) = √(4200/27);
// p99 on sorted [0, 10, 30]: h = 2 × 0.99 = 1.98 → 10 + 0.98 × 20 = 29.6.
const TTFT = {mean: 40 / 3, median: 10, std: Math.sqrt(4200 / 27), p99: 29.6};
// ITL pooled [4, 6, 5] ms: mean 5, median 5, std √(2/3), p99: 5 + 0.98 × 1 = 5.98 (the empty answer has no gap).
const ITL = {mean: 5, median: 5, std: Math.sqrt(2 / 3), p99: 5.98};

const stats = (family: string, s: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [`${k}_${family}_ms`, v]));

const v2024 = {
  date: "20240819-061905",
  backend: "vllm",
  model_id: "synthetic/empty-answers",
  tokenizer_id: "synthetic/empty-answers",
  num_prompts: 4,
  request_rate: "inf",
  duration: 0.5,
  completed: 3,
  total_input_tokens: 60,
  total_output_tokens: 5,
  request_throughput: 6,
  output_throughput: 10,
  ...stats("ttft", TTFT),
  ...stats("itl", ITL),
  ...perRequest
};

// 2025+: latencies and start times. E2E over [20, 8, 40] ms: mean 68/3, median 20, p99 20 + 0.98 × 20 = 39.6,
// std √(((−8/3)² + (−44/3)² + (52/3)²)/3) = √(4704/27). TPOT over out > 1 only: r0 (20 − 10)/2 = 5,
// r2 (40 − 30)/1 = 10: mean 7.5, median 7.5, std 2.5, p99 5 + 0.99 × 5 = 9.95.
const v2025 = {
  ...v2024,
  date: "20250601-120000",
  endpoint_type: "vllm",
  burstiness: 1.0,
  max_concurrency: 4,
  failed: 1,
  latencies: [0.02, 0.008, 0.04, 0.0],
  start_times: [100.0, 100.01, 100.02, 100.03],
  ...stats("e2el", {mean: 68 / 3, median: 20, std: Math.sqrt(4704 / 27), p99: 39.6}),
  ...stats("tpot", {mean: 7.5, median: 7.5, std: 2.5, p99: 9.95})
};

const importText = (o: Record<string, unknown>) =>
  importAndAnalyzeTexts("vllm", [{name: "empty.json", text: JSON.stringify(o)}]);

describe("vLLM answers without any token and without an error", () => {
  it("the tool's columns count them completed: every number of the 2024 file reproduces, none is a finding", async () => {
    const {report} = await importText(v2024);
    const rows = report.source_comparison!;
    const row = (m: string) => rows.find((r) => r.metric === m)!;
    expect(rows.filter((r) => r.finding).map((r) => r.metric)).toEqual([]);
    expect(row("completed").recomputed).toBe(3);
    expect(row("total_input_tokens").recomputed).toBe(60);
    expect(row("total_output_tokens").recomputed).toBe(5);
    expect(row("request_throughput").recomputed).toBeCloseTo(6, 12);
    for (const [k, v] of Object.entries({...stats("ttft", TTFT), ...stats("itl", ITL)}))
      expect(row(k).recomputed, k).toBeCloseTo(v, 9);
  });

  it("InferScope's columns judge them by its own rule: an empty output, a failure, said in the row and the notes", async () => {
    const {run, report} = await importText(v2024);
    const empty = run.requests[1]!;
    // written as what it was: HTTP 200, no token event, no error, 0 output tokens
    expect([empty.httpStatus, empty.errorMessage, empty.transportError, empty.events.length]).toEqual([
      200,
      null,
      null,
      0
    ]);
    expect(empty.usage?.completionTokens).toBe(0);
    const p = report.load_points[0]!;
    expect([p.n, p.n_success]).toEqual([4, 2]);
    expect(report.gates.find((g) => g.id === "G2")!.reason).toBe("2/4 succeeded; empty_output 1, transport_error 1");
    const completed = report.source_comparison!.find((r) => r.metric === "completed")!;
    expect([completed.reported, completed.recomputed, completed.canonical]).toEqual([3, 3, 2]);
    expect(completed.codes).toEqual(["definition"]);
    expect(completed.note).toContain("an empty output with no error is what vLLM counts as completed");
    expect(completed.note).toContain("InferScope's definition treats it as a failure (empty_output)");
    const ttft = report.source_comparison!.find((r) => r.metric === "mean_ttft_ms")!;
    expect(ttft.canonical).toBeCloseTo(20, 9); // ours: r0 and r2 only
    expect(ttft.note).toContain("empty_output");
    // the ITL rows are not concerned: the empty answer has no gap in either population
    expect(report.source_comparison!.find((r) => r.metric === "mean_itl_ms")!.note ?? "").not.toContain("empty");
    const w = run.warnings!.find((x) => x.startsWith("1 of 4 requests ended without an error and without any token"));
    expect(w).toContain("(r0-1)");
    expect(run.notes).toContain(w);
  });

  it("2025+ file: their E2E includes the empty answer's latency and its TPOT leaves it out (out ≤ 1)", async () => {
    const {report} = await importText(v2025);
    const rows = report.source_comparison!;
    expect(rows.filter((r) => r.finding).map((r) => r.metric)).toEqual([]);
    const row = (m: string) => rows.find((r) => r.metric === m)!;
    expect(row("mean_e2el_ms").recomputed).toBeCloseTo(68 / 3, 9);
    expect(row("std_e2el_ms").recomputed).toBeCloseTo(Math.sqrt(4704 / 27), 9);
    expect(row("p99_tpot_ms").recomputed).toBeCloseTo(9.95, 9);
    expect([row("completed").recomputed, row("failed").reported, row("failed").recomputed]).toEqual([3, 1, 1]);
  });
});
