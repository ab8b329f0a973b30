import {readFileSync} from "node:fs";
import {join, resolve} from "node:path";

import {describe, expect, it} from "vitest";
import {parse} from "yaml";

import {formatPeerError, importPeer} from "../../../src/analysis/index.ts";
import {importAndAnalyze} from "../helpers.ts";

/**
 * llm-d Benchmark Report v0.2/v0.2.1 (test/fixtures/peers/llmd-report: upstream's examples, a real
 * report from the llm-d wide-EP guide and upstream's vLLM converter output, all Apache-2.0). Expected
 * values are read from the files themselves.
 */
const DIR = resolve("test/fixtures/peers/llmd-report");
const path = (f: string) => join(DIR, f);
const text = (f: string) => readFileSync(path(f), "utf8");

describe("llm-d Benchmark Report import", () => {
  it("a real v0.2 report (inference-perf, wide-EP, no stack): every number kept as reported, in its units", async () => {
    const f = "llm-d_wide-ep-lws_inference-perf_br_v0_2.yaml";
    const doc = parse(text(f)) as {
      results: {request_performance: {aggregate: Record<string, Record<string, {mean: number; units: string}>>}};
    };
    const agg = doc.results.request_performance.aggregate;
    const {run, report} = await importAndAnalyze("auto", [path(f)]);
    expect(run.tool).toBe("llmd-report");
    expect(run.toolVersion).toBe("0.2");
    expect(run.requests).toEqual([]);
    // concurrency 2048 and rate_qps 8192 in scenario.load: the rate is the point
    expect(run.loadPoints.map((p) => p.id)).toEqual(["rate-8192"]);
    const rows = report.source_comparison!;
    const ttft = rows.find((r) => r.metric === "latency.time_to_first_token.mean")!;
    expect(ttft.reported).toBe(agg.latency!.time_to_first_token!.mean);
    expect(ttft.unit).toBe(agg.latency!.time_to_first_token!.units); // "s": as the report states, not converted
    expect(ttft.recomputed).toBeNull();
    expect(ttft.note).toMatch(/aggregates only/);
    expect(rows.find((r) => r.metric === "requests.total")!.reported).toBe(8192);
    expect(rows.filter((r) => r.finding)).toEqual([]);
    expect(run.notes.join("; ")).toMatch(/measured by inference-perf/);
  });

  it("the stack's accelerators are the run's hardware as the report states them (count per replica × replicas)", async () => {
    const {run, report} = await importAndAnalyze("auto", [path("br_v0_2_example.yaml")]);
    // one decode engine: 2 replicas × 8 NVIDIA-H100-80GB-HBM3 (tp 8)
    expect(run.environment.gpus).toBe(16);
    expect(run.environment.gpuNames).toEqual(Array(16).fill("NVIDIA-H100-80GB-HBM3"));
    expect(run.environment.engine).toBe("llm-d");
    expect(run.model).toBe("Qwen/Qwen3-0.6B");
    expect(report.meta.hardware).toBe("16× NVIDIA-H100-80GB-HBM3");
    expect(report.meta.gpus).toBe(16);
    // rate_qps 10 with concurrency .inf (unbounded)
    expect(run.loadPoints).toMatchObject([{id: "rate-10", maxConcurrency: null}]);
  });

  it("v0.2.1 and upstream's vLLM converter output (bare Infinity in JSON) import", async () => {
    const a = await importAndAnalyze("auto", [path("br_v0_2_1_example.yaml")]);
    expect(a.run.toolVersion).toBe("0.2.1");
    const b = await importAndAnalyze("llmd-report", [path("vllm-converter-output_br_v0_2.json")]);
    // rate_qps: Infinity ("inf" request rate) is unknown, not a rate: the point's target is not recorded
    expect(b.run.loadPoints.map((p) => p.id)).toEqual(["concurrency-1"]);
  });

  it("schema and unit violations: located errors, nothing imported", () => {
    const doc = parse(text("br_v0_2_example.yaml")) as Record<string, Record<string, unknown>>;
    const bad = structuredClone(doc) as {
      run: Record<string, unknown>;
      results: {request_performance: {aggregate: {latency: {time_to_first_token: {units: string}}}}};
    };
    bad.results.request_performance.aggregate.latency.time_to_first_token.units = "Watts";
    const r1 = importPeer("llmd-report", [{name: "w.json", text: JSON.stringify(bad)}]);
    expect(r1.ok ? [] : r1.errors.map(formatPeerError)).toEqual([
      'w.json: $.results.request_performance.aggregate.latency.time_to_first_token.units: expected one of ms, s (upstream\'s unit rule for this field), got "Watts"'
    ]);
    delete bad.run.uid;
    (bad.run as Record<string, unknown>).colour = "blue";
    const r2 = importPeer("llmd-report", [{name: "u.json", text: JSON.stringify(bad)}]);
    expect(r2.ok ? [] : r2.errors.map(formatPeerError)).toEqual([
      'u.json: $.run: expected the required key "uid" (llm-d Benchmark Report v0.2.1 schema)',
      'u.json: $.run: expected no key "colour" (the schema does not define it) (llm-d Benchmark Report v0.2.1 schema)'
    ]);
  });
});
