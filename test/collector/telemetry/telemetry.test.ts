import {describe, expect, it} from "vitest";

import type {Exec} from "../../../collector/effects.ts";
import {gpuInfo} from "../../../collector/env/host.ts";
import {parseGpuCsv, sampleGpus, smiNumber} from "../../../collector/telemetry/gpu.ts";
import {allowedName, engineFromMetrics, parseScrape} from "../../../collector/telemetry/prometheus.ts";

const VLLM = `# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="m"} 3.0
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} 5.0
vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} 9.0
vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} 1.5
vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} 9.0
vllm:time_to_first_token_seconds_bucket{engine="1",le="0.1",model_name="m"} 1.0
vllm:time_to_first_token_seconds_bucket{engine="1",le="+Inf",model_name="m"} 2.0
vllm:kv_cache_usage_perc{engine="0",model_name="m"} NaN
python_gc_objects_collected_total{generation="0"} 12.0
vllm:cache_config_info{block_size="16"} 1.0
`;

describe("Prometheus scrape parsing", () => {
  it("keeps every sample of allowlisted families with all labels, le included (labelled histograms intact)", () => {
    const s = parseScrape(VLLM);
    expect(s).toContainEqual(["vllm:num_requests_running", {engine: "0", model_name: "m"}, 3]);
    expect(s).toContainEqual(["vllm:time_to_first_token_seconds_bucket", {engine: "0", le: "0.1", model_name: "m"}, 5]);
    expect(s).toContainEqual([
      "vllm:time_to_first_token_seconds_bucket",
      {engine: "1", le: "+Inf", model_name: "m"},
      2
    ]);
    expect(s).toContainEqual(["vllm:time_to_first_token_seconds_count", {engine: "0", model_name: "m"}, 9]);
    expect(s.filter((x) => x[0].endsWith("_bucket"))).toHaveLength(4);
  });

  it("non-finite values are null; unknown families and non-engine metrics are dropped", () => {
    const s = parseScrape(VLLM);
    expect(s).toContainEqual(["vllm:kv_cache_usage_perc", {engine: "0", model_name: "m"}, null]);
    expect(s.some((x) => x[0].startsWith("python_") || x[0] === "vllm:cache_config_info")).toBe(false);
    expect(allowedName("sglang:num_running_reqs") && allowedName("llamacpp:tokens_predicted_total")).toBe(true);
  });

  it("guesses the engine from metric names", () => {
    expect(engineFromMetrics(VLLM)).toBe("vllm");
    expect(engineFromMetrics("llamacpp:prompt_tokens_total 3\n")).toBe("llama.cpp");
    expect(engineFromMetrics("foo 1\n")).toBeNull();
  });
});

const SMI =
  "0, GPU-aaa, NVIDIA H100 80GB HBM3, 87, 70000, 81559, 612.34, 71, 1980, 2619\n1, GPU-bbb, NVIDIA H100 80GB HBM3, [N/A], 100, 81559, [Not Supported], 40, 1755, 2619\n";

describe("nvidia-smi parsing", () => {
  it("parses readings; [N/A] and [Not Supported] are null, never 0", () => {
    const g = parseGpuCsv(SMI);
    expect(g[0]).toEqual({
      index: 0,
      uuid: "GPU-aaa",
      utilPct: 87,
      memUsedMiB: 70000,
      memTotalMiB: 81559,
      powerW: 612.34,
      tempC: 71,
      smClockMHz: 1980,
      memClockMHz: 2619
    });
    expect(g[1]).toMatchObject({utilPct: null, powerW: null, memUsedMiB: 100});
    expect([smiNumber("[N/A]"), smiNumber(" N/A "), smiNumber(""), smiNumber("0")]).toEqual([null, null, null, 0]);
  });

  it("a missing tool is unavailable with a reason, not a list of zeros", async () => {
    const missing: Exec = async (cmd) => ({ok: false, notFound: true, error: `${cmd} not found`});
    expect(await sampleGpus(missing)).toEqual({ok: false, notFound: true, error: "nvidia-smi not found", gpus: []});
    expect(await gpuInfo(missing)).toMatchObject({
      available: false,
      reason: "no nvidia-smi, amd-smi or rocm-smi on PATH",
      devices: []
    });
  });

  it("fingerprints devices, driver, CUDA version and topology", async () => {
    const fake: Exec = async (_cmd, args) => {
      const a = args.join(" ");
      if (a.startsWith("--query-gpu=index,name,uuid"))
        return {ok: true, code: 0, stderr: "", stdout: "0, NVIDIA H200, GPU-x1, 143771, 700.00, 9.0, 570.86.15\n"};
      if (a === "topo -m") return {ok: true, code: 0, stderr: "", stdout: "\tGPU0\nGPU0\t X \n"};
      if (a === "topo -p2p r") return {ok: true, code: 0, stderr: "", stdout: " \tGPU0\t\n GPU0\tX\t\n"};
      return {
        ok: true,
        code: 0,
        stderr: "",
        stdout: "| NVIDIA-SMI 570.86.15   Driver Version: 570.86.15   CUDA Version: 12.8 |"
      };
    };
    expect(await gpuInfo(fake)).toEqual({
      available: true,
      reason: null,
      devices: [
        {
          index: 0,
          name: "NVIDIA H200",
          uuid: "GPU-x1",
          memoryTotalMiB: 143771,
          powerLimitW: 700,
          computeCapability: "9.0",
          vendor: "nvidia",
          // a driver answering only the first seven fields: the newer ones are unknown, not 0
          clocks: {smMHz: null, memMHz: null, smMaxMHz: null, memMaxMHz: null},
          pcie: {generation: null, width: null},
          powerMaxW: null
        }
      ],
      driverVersion: "570.86.15",
      cudaVersion: "12.8",
      topology: "\tGPU0\nGPU0\t X",
      tool: "nvidia-smi",
      p2p: {raw: " \tGPU0\t\n GPU0\tX", error: null},
      raw: null
    });
  });
});
