import {describe, expect, it} from "vitest";

import {formatPeerError, importPeer} from "../../../src/analysis/index.ts";
import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * `vllm bench sweep` writes, per combination of server and benchmark parameters, run=N.json (a bench serve
 * result with run_number and the swept parameters added), warmup.json (run_number −1) and summary.json, the
 * array of its measured runs (er0080/vllm-benchmarking has one). The shapes below follow vLLM 0.25's
 * aggregates-only result; every number is made up.
 */
const result = (o: Record<string, unknown>): Record<string, unknown> => ({
  date: "20260818-021333",
  endpoint_type: "openai",
  backend: "openai",
  label: null,
  model_id: "org/model-a",
  tokenizer_id: "org/model-a",
  num_prompts: 8,
  request_rate: "inf",
  burstiness: 1.0,
  max_concurrency: 2,
  duration: 1.25,
  completed: 8,
  failed: 0,
  total_input_tokens: 256,
  total_output_tokens: 128,
  request_throughput: 6.4,
  output_throughput: 102.4,
  mean_ttft_ms: 40.0,
  median_ttft_ms: 38.0,
  std_ttft_ms: 5.0,
  p99_ttft_ms: 52.0,
  mean_e2el_ms: 160.0,
  median_e2el_ms: 158.0,
  std_e2el_ms: 4.0,
  p99_e2el_ms: 170.0,
  run_number: 0,
  max_num_seqs: 4,
  ...o
});
const run0 = result({});
const run1 = result({date: "20260818-021338", duration: 0.8, request_throughput: 10.0, run_number: 1});
const file = (name: string, v: unknown) => ({name, text: JSON.stringify(v, null, 4)});
const errorsOf = (r: ReturnType<typeof importPeer>): string[] => (r.ok ? [] : r.errors.map(formatPeerError));

describe("vllm bench sweep summary.json", () => {
  it("is read as its runs: one combination, one load point, its runs the repeats; each run's numbers on its rows", async () => {
    const {run, report} = await importAndAnalyzeTexts("auto", [file("summary.json", [run0, run1])]);
    expect(run.tool).toBe("vllm");
    expect(run.loadPoints.map((p) => [p.id, p.repeats, p.requests])).toEqual([["concurrency-2", 2, 8]]);
    const throughput = report.source_comparison!.filter((r) => r.metric === "request_throughput");
    expect(throughput.map((r) => r.reported)).toEqual([6.4, 10.0]);
    expect(run.sources.map((s) => (s.facts as {repeat: number}).repeat)).toEqual([0, 1]);
    // no request records to count the repeats from: each run's rows still say which run they are
    expect(throughput.map((r) => r.repeat)).toEqual([0, 1]);
  });

  it("an element that is not a result is refused at its index", () => {
    expect(errorsOf(importPeer("vllm", [file("summary.json", [run0, {run_number: 1}])]))).toEqual([
      'summary.json: $[1]: expected a vLLM --save-result object with "duration", "completed" and "<stat>_ttft_ms" keys'
    ]);
  });

  it("a sweep folder: run=N.json given beside summary.json is imported once, warmup.json left out, both said", () => {
    const r = importPeer("auto", [
      file("summary.json", [run0, run1]),
      file("run=0.json", run0),
      file("warmup.json", result({date: "20260818-021320", duration: 0.5, run_number: -1, num_prompts: 2}))
    ]);
    expect(r.ok && r.value.loadPoints.map((p) => [p.id, p.repeats])).toEqual([["concurrency-2", 2]]);
    expect(r.ok && r.value.warnings).toEqual([
      "run=0.json is the run summary.json [0] holds (the same keys and values): imported once",
      "warmup.json: run_number -1 is a vllm bench sweep warmup run, not a measurement: not imported"
    ]);
  });

  it("two combinations that differ in a swept server parameter are not repeats of one another", () => {
    const r = importPeer("vllm", [
      file("seqs4/summary.json", [run0]),
      file("seqs8/summary.json", [result({date: "20260818-031333", max_num_seqs: 8})])
    ]);
    expect(errorsOf(r)).toEqual([
      "seqs8/summary.json: $[0]: expected the condition of seqs4/summary.json [0], which this run would repeat at load point concurrency-2: that run has max_num_seqs 4, this one max_num_seqs 8. The repeats of a load point are one condition, and a bundle has one load point per mode and value: import each condition's runs as a bundle of their own"
    ]);
  });
});

describe("vLLM results of different conditions or models", () => {
  it("a chat and a completions run at one rate are not repeats", () => {
    const chat = result({backend: "openai-chat", endpoint_type: "openai-chat", run_number: undefined, duration: 2.5});
    const text = [result({run_number: undefined}), chat].map((x) => JSON.stringify(x)).join("\n") + "\n";
    const errors = errorsOf(importPeer("vllm", [{name: "append.jsonl", text}]));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      'that run has backend "openai", endpoint_type "openai", this one backend "openai-chat", endpoint_type "openai-chat"'
    );
  });

  it("files of two models are refused, both named", () => {
    const a = file("a.json", result({run_number: undefined}));
    const b = file("b.json", result({run_number: undefined, model_id: "org/model-b", date: "20260819-101010"}));
    expect(errorsOf(importPeer("vllm", [a, b]))).toEqual([
      'b.json: $: expected the model of a.json ("org/model-a"), got "org/model-b": a bundle holds one model\'s runs, so import each model\'s files separately'
    ]);
  });
});

describe("failures known only from the file's counts", () => {
  // vLLM 0.25 without --save-detailed, every request failed (er0080/vllm-benchmarking has one): no request
  // record can be written, so the success gates cannot judge it; the import says so and shows the count.
  // vLLM writes 0.0 for every statistic of no requests (np.mean(ttfts or 0)); any other value would be a file
  // that contradicts itself (selfContradiction.test.ts)
  const zeroStats = Object.fromEntries(
    ["ttft", "e2el"].flatMap((f) => ["mean", "median", "std", "p99"].map((s) => [`${s}_${f}_ms`, 0.0]))
  );
  const allFailed = result({
    run_number: undefined,
    max_concurrency: null,
    completed: 0,
    failed: 8,
    total_input_tokens: 0,
    total_output_tokens: 0,
    request_throughput: 0.0,
    output_throughput: 0.0,
    ...zeroStats
  });

  it("are warned about and shown as reported", async () => {
    const {run, report} = await importAndAnalyzeTexts("vllm", [file("failed.json", allFailed)]);
    expect(run.requests).toEqual([]);
    expect(run.warnings).toEqual([
      "failed.json: vLLM counted 0 completed and 8 failed requests, but the file keeps no per-request results (no --save-detailed): no request records are written, so the error-rate gate (G3) reads vLLM's own counts: a failed share above its threshold fails the run, a lower one is not a pass (what vLLM counted as completed cannot be checked); the counts stand in the source comparison"
    ]);
    // 8 of 8 failed by vLLM's own count: the run is INVALID, not INCONCLUSIVE for want of request records
    expect(report.gates.find((g) => g.id === "G3")!.status).toBe("fail");
    expect(report.verdict).toBe("INVALID");
    const failed = report.source_comparison!.find((r) => r.metric === "failed")!;
    expect([failed.reported, failed.recomputed_status]).toEqual([8, "not_recomputable"]);
  });
});
