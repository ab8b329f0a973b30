import {join} from "node:path";

import {describe, expect, it} from "vitest";

import type {Report} from "../../src/analysis/index.ts";
import {importAndAnalyze, SYNTH} from "./helpers.ts";

const f = (p: string) => join(SYNTH, p);
const status = (r: Report, id: string) => r.gates.find((g) => g.id === id)!.status;
const metric = (r: Report, id: string) => r.load_points[0]!.metrics[id] as {n?: number; value?: number | null};

/**
 * Gates on imported bundles: evidence a peer file does not carry (client health, prompt salting, warmup,
 * schedule times, chunk times) makes the gate not evaluable — never a pass, never a fail.
 */
describe("gates on imported bundles", () => {
  const cases: [string, string[], {requestTime: boolean; firstLast: boolean}][] = [
    ["vLLM 2024", [f("vllm/vllm-2024-detailed.json")], {requestTime: true, firstLast: false}],
    ["SGLang", [f("sglang/sglang-bench-serving.jsonl")], {requestTime: true, firstLast: false}],
    ["LLMPerf", [f("llmperf")], {requestTime: true, firstLast: true}],
    ["GuideLLM", [f("guidellm/benchmarks.json")], {requestTime: false, firstLast: true}],
    ["AIPerf", [f("aiperf/2025-10")], {requestTime: false, firstLast: false}],
    ["GenAI-Perf", [f("genai-perf")], {requestTime: false, firstLast: false}]
  ];
  for (const [name, paths, o] of cases)
    it(`${name}: missing evidence is not evaluable, and the verdict is never VALID`, async () => {
      const {report} = await importAndAnalyze("auto", paths);
      expect(report.provenance?.kind).toBe("imported");
      expect(status(report, "G1")).toBe("pass");
      for (const id of ["G6", "G13", "G14", "G7", "G12"]) expect(status(report, id), id).toBe("not_evaluable");
      if (o.requestTime) expect(status(report, "G5")).toBe("not_evaluable");
      if (o.firstLast) {
        for (const id of ["G10", "G16"]) expect(status(report, id), id).toBe("not_evaluable");
        expect(metric(report, "inter_chunk_ms").n).toBe(0);
        expect(metric(report, "tokens_per_chunk").value).toBeNull();
      }
      if (o.requestTime) expect(metric(report, "request_throughput_rps").value).toBeNull();
      expect(report.verdict).not.toBe("VALID");
      // INVALID lists only the failed gates; otherwise the missing client evidence is named
      if (report.verdict === "INCONCLUSIVE")
        expect(report.verdict_reasons.join("\n")).toMatch(/G6 client_health: .*\(not evaluable\)/);
    });

  it("a source without its target load (AIPerf records only): achieved load is not evaluable, not passed", async () => {
    const {report} = await importAndAnalyze("aiperf", [f("aiperf/later/profile_export.jsonl")]);
    expect(report.load_points[0]!.id).toBe("concurrency-unknown");
    expect(status(report, "G5")).toBe("not_evaluable");
  });

  it("InferScope v1 records the schedule: the schedule-view gate is evaluated", async () => {
    const {report} = await importAndAnalyze("auto", [
      f("inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0")
    ]);
    expect(status(report, "G7")).toBe("pass");
    expect(status(report, "G6")).toBe("not_evaluable");
  });

  it("real data still fails the gates it can judge (GenAI-Perf: 1 of 4 failed > 1 %)", async () => {
    const {report} = await importAndAnalyze("auto", [f("genai-perf")]);
    expect(status(report, "G3")).toBe("fail");
    expect(report.verdict).toBe("INVALID");
  });
});
