import {max} from "d3-array";

import type {RunConfig} from "../schema/config.ts";
import type {Environment, Manifest, MemoryBandwidthProbe} from "../schema/manifest.ts";
import {matchCard, type HardwareData} from "./data.ts";
import {known, unknown} from "./fact.ts";
import type {Fact, MeasuredHost} from "./schema.ts";

/** Host memory bandwidth from the fingerprint's raw passes: the best pass (STREAM's convention), GB/s. */
export function hostBandwidth(probe: MemoryBandwidthProbe | undefined): Fact {
  if (probe === undefined) return unknown("the bundle predates the host-bandwidth fingerprint");
  if (probe.error !== null) return unknown(`host bandwidth not measured: ${probe.error}`);
  const rates = probe.trials.filter((t) => t.ns > 0).map((t) => t.bytesMoved / t.ns);
  if (rates.length === 0) return unknown("host bandwidth probe recorded no timed pass");
  const when = probe.reusedFrom ? ` (measured ${probe.reusedFrom.measuredAt}, same boot, reused)` : "";
  return known(max(rates)!, `best of ${rates.length} parallel-copy passes, ${probe.threads} threads${when}`);
}

/**
 * Peer-to-peer status from `nvidia-smi topo -p2p r` (OK / NS / CNS… per GPU pair). NCCL_P2P_DISABLE=1 in the
 * captured environment makes it unknown: what the hardware could do is not what the run used.
 */
export function p2pStatus(env: Environment): MeasuredHost["p2p"] {
  const raw = env.gpu.p2p?.raw ?? null;
  const envVars = (env.extra.env ?? {}) as Record<string, unknown>;
  if (envVars.NCCL_P2P_DISABLE === "1")
    return {status: "unknown", reason: "NCCL_P2P_DISABLE=1: peer-to-peer was switched off for this run", raw};
  if (env.gpu.devices.length === 1) return {status: "single_gpu", reason: "one GPU: no peer", raw};
  if (env.gpu.tool === "amd-smi" || env.gpu.tool === "rocm-smi")
    return {status: "unknown", reason: `not read from ${env.gpu.tool}: AMD peer access is catalogue-only here`, raw};
  if (raw === null)
    return {
      status: "unknown",
      reason:
        env.gpu.p2p?.error ?? (env.gpu.p2p === undefined ? "not fingerprinted (bundle predates it)" : "no p2p matrix"),
      raw
    };
  const cells = raw
    .split("\n")
    .filter((l) => /^\s*GPU\d+/.test(l))
    .flatMap((l) => l.trim().split(/\s+/).slice(1))
    .filter((c) => c !== "X" && !/^GPU\d+$/.test(c));
  if (cells.length === 0) return {status: "unknown", reason: "p2p matrix has no GPU pair", raw};
  const ok = cells.filter((c) => c === "OK").length;
  if (ok === cells.length) return {status: "ok", reason: `all ${cells.length} GPU pairs report OK`, raw};
  if (ok === 0)
    return {status: "not_supported", reason: `no GPU pair reports OK (${[...new Set(cells)].join(", ")})`, raw};
  return {status: "mixed", reason: `${ok} of ${cells.length} GPU pairs report OK`, raw};
}

/** The host as its fingerprint measured it (or as an import declared it), matched against the catalogue. */
export function measuredHost(manifest: Manifest | null, config: RunConfig | null, data: HardwareData): MeasuredHost {
  const env = manifest?.environment ?? null;
  const declared = manifest?.provenance.kind === "imported" ? manifest.provenance.declared?.hardware : undefined;
  const gpus = (env?.gpu.devices ?? []).map((d) => ({
    index: d.index,
    name: d.name,
    uuid: d.uuid,
    memoryMiB: d.memoryTotalMiB,
    powerLimitW: d.powerLimitW,
    smClockMaxMHz: d.clocks?.smMaxMHz ?? null,
    memClockMaxMHz: d.clocks?.memMaxMHz ?? null,
    catalogueId: matchCard(data.catalogue, d.name)?.id ?? null
  }));
  const override = config?.hardware?.gpu;
  const chosen = override === undefined ? undefined : data.catalogue.gpus.find((g) => g.id === override);
  const card =
    chosen ??
    (gpus.length > 0 ? matchCard(data.catalogue, gpus[0]!.name) : null) ??
    (declared === undefined ? null : matchCard(data.catalogue, declared.gpu_model));
  // an import's environment is not the serving host's: only its declaration (or its listed GPUs) says anything
  const imported = manifest?.provenance.kind === "imported";
  const kind =
    gpus.length > 0 ? "gpu" : declared !== undefined ? "declared" : env === null || imported ? "unknown" : "cpu";
  const count =
    config?.hardware?.gpu_count !== undefined
      ? known(config.hardware.gpu_count, "run config hardware.gpu_count")
      : env?.server.gpus != null
        ? known(env.server.gpus, "run config target.gpus")
        : gpus.length > 0 && !imported
          ? known(gpus.length, "GPUs the fingerprint listed")
          : declared !== undefined
            ? known(declared.gpu_count, "declared by the importer (--hardware gpu_count)")
            : kind === "cpu"
              ? known(1, "CPU host: one host, priced per host-hour")
              : unknown(
                  !imported
                    ? "no fingerprint"
                    : gpus.length > 0
                      ? "the import names the GPUs its source saw, not how many served the model (inferscope import --hardware gpu_model=…,gpu_count=N)"
                      : "an import that declares no hardware (inferscope import --hardware)"
                );
  return {
    kind,
    gpus,
    gpuTool: env?.gpu.tool ?? (gpus.length > 0 ? "nvidia-smi" : null),
    gpuReason: env === null ? "no manifest" : env.gpu.available ? null : env.gpu.reason,
    driver: env?.gpu.driverVersion ?? null,
    cuda: env?.gpu.cudaVersion ?? null,
    topology: env?.gpu.topology ?? null,
    p2p: env === null ? {status: "unknown", reason: "no fingerprint", raw: null} : p2pStatus(env),
    cpu: {
      model: env?.host.cpuModel ?? null,
      threads: env?.host.cpuCount ?? null,
      memoryBytes: env?.host.memoryBytes ?? null
    },
    hostBandwidthGBs: env === null ? unknown("no fingerprint") : hostBandwidth(env.host.memoryBandwidth),
    card: card?.id ?? null,
    cardName: card?.name ?? declared?.gpu_model ?? gpus[0]?.name ?? null,
    gpuCount: count
  };
}
