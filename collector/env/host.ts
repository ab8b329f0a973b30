import {arch, availableParallelism, cpus, platform, release, totalmem, type} from "node:os";

import type {Environment} from "../../src/analysis/schema/manifest.ts";
import type {Effects, Exec} from "../effects.ts";
import {smiNumber} from "../telemetry/gpu.ts";

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

const GPU_INFO_QUERY = "index,name,uuid,memory.total,power.limit,compute_cap,driver_version";

/**
 * GPUs from nvidia-smi: devices by UUID, driver and CUDA versions, raw `nvidia-smi topo -m`.
 * No nvidia-smi → available:false with the reason (never a fabricated device list).
 */
export async function gpuInfo(exec: Exec): Promise<Environment["gpu"]> {
  const none = (reason: string): Environment["gpu"] => ({
    available: false,
    reason,
    devices: [],
    driverVersion: null,
    cudaVersion: null,
    topology: null
  });
  let query = GPU_INFO_QUERY;
  let r = await exec("nvidia-smi", [`--query-gpu=${query}`, "--format=csv,noheader,nounits"], {timeoutMs: 10_000});
  if (!r.ok) return none(r.notFound ? "nvidia-smi not found" : r.error);
  if (r.code !== 0) {
    // older drivers do not know compute_cap
    query = query.replace(",compute_cap", "");
    r = await exec("nvidia-smi", [`--query-gpu=${query}`, "--format=csv,noheader,nounits"], {timeoutMs: 10_000});
    if (!r.ok || r.code !== 0)
      return none(r.ok ? `nvidia-smi exited ${r.code}: ${r.stderr.trim().slice(0, 200)}` : r.error);
  }
  const fields = query.split(",");
  const col = (cells: string[], name: string) => {
    const i = fields.indexOf(name);
    return i === -1 ? undefined : cells[i]?.trim();
  };
  let driverVersion: string | null = null;
  const devices: Environment["gpu"]["devices"] = [];
  for (const line of r.stdout.split("\n")) {
    if (!line.trim()) continue;
    const cells = line.split(",");
    const index = smiNumber(col(cells, "index"));
    if (index === null) continue;
    const cc = col(cells, "compute_cap");
    driverVersion ??= col(cells, "driver_version") || null;
    devices.push({
      index,
      name: col(cells, "name") ?? "unknown",
      uuid: col(cells, "uuid") || null,
      memoryTotalMiB: smiNumber(col(cells, "memory.total")),
      powerLimitW: smiNumber(col(cells, "power.limit")),
      computeCapability: cc && !/N\/A/.test(cc) ? cc : null
    });
  }
  const plain = await exec("nvidia-smi", [], {timeoutMs: 10_000});
  const cuda = plain.ok ? (/CUDA Version:\s*([0-9.]+)/.exec(plain.stdout)?.[1] ?? null) : null;
  const topo = await exec("nvidia-smi", ["topo", "-m"], {timeoutMs: 10_000});
  return {
    available: devices.length > 0,
    reason: devices.length > 0 ? null : "nvidia-smi listed no GPU",
    devices,
    driverVersion,
    cudaVersion: cuda,
    topology: topo.ok && topo.code === 0 ? topo.stdout.trimEnd() : null
  };
}
