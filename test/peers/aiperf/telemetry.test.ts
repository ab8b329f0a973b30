import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {declarationConflicts} from "../../../src/analysis/index.ts";
import {importAndAnalyzeTexts} from "../helpers.ts";
import {f} from "../synthetic.ts";

/**
 * AIPerf's GPU telemetry (`telemetry_data.endpoints.<exporter>.gpus.<gpu_k>` with gpu_name, gpu_uuid, hostname;
 * the shape of the audit's real file, ai-dynamo/aiperf users' profile_export_aiperf.json of 2026-01-15, whose one
 * DCGM exporter lists 8 A100-SXM4-80GB of node gpu-03 for a gpt-oss-20b run). The GPUs are named in the bundle;
 * how many served the model is not in the file, so the count stays unknown unless the importer declares it.
 */
const DIR = "aiperf/v0.12";
const agg = JSON.parse(readFileSync(f(`${DIR}/profile_export_aiperf.json`), "utf8")) as Record<string, unknown>;
const telemetry = {
  summary: {endpoints_configured: ["http://dcgm-a:9400/metrics", "http://dcgm-b:9400/metrics"]},
  endpoints: {
    "dcgm-a:9400": {
      gpus: {
        gpu_0: {gpu_index: 0, gpu_name: "NVIDIA A100-SXM4-80GB", gpu_uuid: "GPU-aaaa", hostname: "node-a", metrics: {}},
        gpu_1: {gpu_index: 1, gpu_name: "NVIDIA A100-SXM4-80GB", hostname: "node-a", metrics: {}}
      }
    },
    // a GPU without a name is left out: its model is unknown, not "GPU"
    "dcgm-b:9400": {gpus: {gpu_0: {gpu_index: 0, gpu_uuid: "GPU-bbbb", hostname: "node-b", metrics: {}}}}
  }
};

const importWith = (extra: Record<string, unknown>) =>
  importAndAnalyzeTexts("aiperf", [
    {name: "profile_export.jsonl", text: readFileSync(f(`${DIR}/profile_export.jsonl`), "utf8")},
    {name: "profile_export_aiperf.json", text: JSON.stringify({...agg, ...extra})}
  ]);

describe("AIPerf's GPU telemetry names the GPUs, not how many served", () => {
  it("the named GPUs and their UUIDs reach the bundle; the count stays unknown, with the reason", async () => {
    const {run, report, files} = await importWith({telemetry_data: telemetry});
    expect(run.environment.gpuNames).toEqual(["NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB"]);
    expect(run.environment.gpus).toBeUndefined();
    const manifest = JSON.parse(files["manifest.json"]!) as {
      environment: {gpu: {available: boolean; devices: {name: string; uuid: string | null}[]}};
    };
    expect(manifest.environment.gpu.available).toBe(true);
    expect(manifest.environment.gpu.devices.map((d) => [d.name, d.uuid])).toEqual([
      ["NVIDIA A100-SXM4-80GB", "GPU-aaaa"],
      ["NVIDIA A100-SXM4-80GB", null]
    ]);
    expect(run.notes.some((n) => n.includes("2× NVIDIA A100-SXM4-80GB on node-a"))).toBe(true);
    expect(report.meta.hardware).toBe("NVIDIA A100-SXM4-80GB (named by the source; how many served: unknown)");
    // how many of them served is measuredHost's to leave unknown (test/analysis/hardware/facts.test.ts)
    expect(report.meta.gpus).toBeNull();
  });

  it("a file without telemetry names no GPU", async () => {
    const {run, report} = await importWith({});
    expect(run.environment.gpuNames).toBeUndefined();
    expect(report.meta.hardware).toBe("unknown hardware");
  });

  it("a declared card must be one the files name; a count may be declared where the files state none", () => {
    const run = {environment: {gpuNames: ["NVIDIA A100-SXM4-80GB"], extra: {}}, labels: {}} as never;
    const hw = (gpu_model: string) => ({hardware: {gpu_model, gpu_count: 1}});
    expect(declarationConflicts(run, hw("A100-SXM4-80GB"))).toEqual([]);
    expect(declarationConflicts(run, hw("nvidia a100 sxm4 80gb"))).toEqual([]);
    expect(declarationConflicts(run, hw("H100"))).toEqual([
      "--hardware gpu_model=H100: the files name only NVIDIA A100-SXM4-80GB"
    ]);
    const counted = {environment: {gpuNames: ["A100", "A100"], gpus: 2, extra: {}}, labels: {}} as never;
    expect(declarationConflicts(counted, hw("A100"))).toEqual([
      "--hardware: the files already state 2× A100",
      "--hardware gpu_count=1: the files state 2 GPUs"
    ]);
  });
});
