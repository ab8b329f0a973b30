import {describe, expect, it} from "vitest";

import {formatPeerError, importPeer} from "../../../src/analysis/index.ts";

/**
 * Runs that share a load point are its repeats only when they are one condition (SGLang: the dataset and its
 * lengths), and one import is one model, read from SGLang's server_info where the run has one. The shapes
 * follow SGLang bench_serving's JSON Lines (datacrunch-research/h200-benchmarks: a rate-4 random run and a
 * rate-4 ShareGPT run in one file); every number here is made up.
 */
const run = (o: Record<string, unknown>): Record<string, unknown> => ({
  backend: "sglang",
  dataset_name: "random",
  request_rate: 4.0,
  max_concurrency: null,
  sharegpt_output_len: null,
  random_input_len: 1024,
  random_output_len: 1024,
  random_range_ratio: 0.0,
  duration: 300.0,
  completed: 1200,
  total_input_tokens: 600000,
  total_output_tokens: 600000,
  total_output_tokens_retokenized: 599000,
  mean_e2e_latency_ms: 12000.0,
  median_e2e_latency_ms: 11000.0,
  median_ttft_ms: 100.0,
  median_itl_ms: 19.0,
  output_throughput: 2000.0,
  ...o
});
const sharegpt = {dataset_name: "sharegpt"};
const jsonl = (name: string, runs: readonly Record<string, unknown>[]) => ({
  name,
  text: runs.map((r) => JSON.stringify(r)).join("\n") + "\n"
});
const errorsOf = (r: ReturnType<typeof importPeer>): string[] => (r.ok ? [] : r.errors.map(formatPeerError));

describe("SGLang runs at one load point: repeats only under one workload", () => {
  it("a random and a ShareGPT run at rate 4 are refused as repeats, both lines and their datasets named", () => {
    const r = importPeer("sglang", [jsonl("online.jsonl", [run({}), run({request_rate: 8.0}), run(sharegpt)])]);
    expect(r.ok).toBe(false);
    const errors = errorsOf(r);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^online\.jsonl: line 3 \$: expected the condition of online\.jsonl line 1, /);
    expect(errors[0]).toContain("load point poisson-4");
    expect(errors[0]).toContain(
      'that run has dataset_name "random", random_input_len 1024, random_output_len 1024, random_range_ratio 0, this one dataset_name "sharegpt", sharegpt_output_len null'
    );
  });

  it("different workloads at different rates are points of their own, with a warning; one workload's runs stay repeats", () => {
    const runs = [run({}), run({...sharegpt, request_rate: 8.0}), run({duration: 301.0})];
    const r = importPeer("sglang", [jsonl("mixed.jsonl", runs)]);
    expect(r.ok && r.value.loadPoints.map((p) => [p.id, p.repeats])).toEqual([
      ["poisson-4", 2],
      ["poisson-8", 1]
    ]);
    expect(r.ok && r.value.sources.map((s) => (s.facts as {repeat: number}).repeat)).toEqual([0, 0, 1]);
    expect(r.ok && r.value.warnings).toEqual([
      'the load points are not one condition (poisson-4: dataset_name "random", random_input_len 1024, random_output_len 1024, random_range_ratio 0; poisson-8: dataset_name "sharegpt", sharegpt_output_len null; all with backend "sglang"): compare them with that in mind'
    ]);
  });
});

describe("SGLang server_info: the model and the server version", () => {
  const info = (model: string, version: string) => ({model_path: model, served_model_name: model, version});

  it("an aggregated server: model_path and version are read", () => {
    const r = importPeer("sglang", [jsonl("agg.jsonl", [run({server_info: info("org/model-a", "0.5.5.post3")})])]);
    expect(r.ok && r.value.model).toBe("org/model-a");
    expect(r.ok && r.value.environment).toMatchObject({engine: "sglang", engineVersion: "0.5.5.post3"});
  });

  it("prefill/decode disaggregation: one model, two versions named in a note, no single engine version", () => {
    const r = importPeer("sglang", [
      jsonl("pd.jsonl", [
        run({
          server_info: {
            internal_states: [{model_path: "org/model-a"}],
            prefill: [info("org/model-a", "0.5.5.post3")],
            decode: [info("org/model-a", "0.5.6")]
          }
        })
      ])
    ]);
    expect(r.ok && r.value.model).toBe("org/model-a");
    expect(r.ok && r.value.environment.engineVersion).toBeUndefined();
    expect(r.ok && r.value.notes).toContain(
      "server_info names several SGLang versions (prefill 0.5.5.post3, decode 0.5.6): no single engine version is recorded"
    );
  });

  it("files of two models, or one naming a model and one none, are refused with both named", () => {
    const a = jsonl("a.jsonl", [run({max_concurrency: 200, server_info: info("org/model-a", "0.5.5")})]);
    const b = jsonl("b.jsonl", [run({request_rate: 8.0, server_info: info("org/model-b", "0.5.5")})]);
    const none = jsonl("none.jsonl", [run({request_rate: 16.0})]);
    expect(errorsOf(importPeer("sglang", [a, b]))).toEqual([
      'b.jsonl: $: expected the model of a.jsonl ("org/model-a"), got "org/model-b": a bundle holds one model\'s runs, so import each model\'s files separately'
    ]);
    expect(errorsOf(importPeer("auto", [a, none]))).toEqual([
      "none.jsonl: $: expected the model of a.jsonl (\"org/model-a\"), got none named: a bundle holds one model's runs, so import each model's files separately"
    ]);
  });
});
