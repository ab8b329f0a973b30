import {arch, availableParallelism, cpus, platform, release, totalmem, type} from "node:os";

import type {Environment} from "../../src/analysis/schema/manifest.ts";
import type {Effects, Exec} from "../effects.ts";
import {amdGpus} from "./amd.ts";
import {nvidiaGpus} from "./nvidia.ts";

/** Environment variables captured (allowlist: exact names or prefixes ending in "_"); values redacted later. */
export const ENV_ALLOWLIST = [
  "CUDA_VISIBLE_DEVICES",
  "NVIDIA_VISIBLE_DEVICES",
  "CUDA_DEVICE_ORDER",
  "OMP_NUM_THREADS",
  "UV_THREADPOOL_SIZE",
  "HF_HUB_OFFLINE",
  "TRANSFORMERS_OFFLINE",
  "TZ",
  "NCCL_",
  "VLLM_",
  "SGLANG_",
  "LLAMA_"
];

export function allowlistedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (v === undefined) continue;
    if (ENV_ALLOWLIST.some((a) => (a.endsWith("_") ? k.startsWith(a) : k === a))) out[k] = v;
  }
  return out;
}

export function hostInfo(fx: Pick<Effects, "hostname">, hostLabel: string | null): Environment["host"] {
  const c = cpus();
  return {
    os: `${type()} ${release()}`,
    arch: arch(),
    cpuModel: c[0]?.model?.trim() || null,
    cpuCount: availableParallelism(),
    memoryBytes: totalmem(),
    hostname: hostLabel ?? fx.hostname()
  };
}

export const runtimeInfo = (): Environment["runtime"] => ({node: process.version, platform: platform()});

/**
 * GPUs of the host as their vendor's tool lists them: nvidia-smi (devices, clocks, PCIe, power limits, raw
 * topology and peer-to-peer matrices), else amd-smi / rocm-smi (devices and the tool's raw JSON). No tool
 * → available:false with the reason (never a fabricated device list).
 */
export async function gpuInfo(exec: Exec): Promise<Environment["gpu"]> {
  const nvidia = await nvidiaGpus(exec);
  return nvidia.notFound ? amdGpus(exec) : nvidia.gpu;
}
