import {redactArgs} from "../../src/analysis/redact/args.ts";
import {isOpenLoop, isSearchBlock, loadBlocks} from "../../src/analysis/schema/config.ts";
import type {Environment, Manifest} from "../../src/analysis/schema/index.ts";
import type {MemoryBandwidthProbe, ModelProbe} from "../../src/analysis/schema/manifest.ts";
import {PRNG_NAME} from "../../src/analysis/stats/prng.ts";
import {MEASURE_VERSION, SCHEMA_VERSION} from "../../src/analysis/schema/versions.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {collectorInfo, isoOf} from "../bundle/manifest.ts";
import {hostBandwidth} from "../env/bandwidth.ts";
import {allowlistedEnv, gpuInfo, hostInfo, runtimeInfo} from "../env/host.ts";
import {modelFilePath, modelProbe} from "../env/modelFile.ts";
import {noGpu} from "../env/noGpu.ts";
import type {ServerProbe} from "../env/probe.ts";
import type {WorkloadFacts} from "../../src/analysis/schema/workload.ts";
import type {PromptPlan} from "../request/prompt.ts";
import {flushIntervalOf} from "../writer/bundleWriter.ts";
import type {RunContext} from "./context.ts";

/** The GPUs of the host, or why they are not recorded. */
export async function gpuFacts(c: RunContext): Promise<Environment["gpu"]> {
  if (c.config.telemetry.gpu !== "off") return gpuInfo(c.fx.exec);
  return noGpu("gpu telemetry off in the config");
}

/** What the fingerprint measures or reads on this host: GPUs, memory bandwidth, the model file's header. */
export interface HostFacts {
  gpu: Environment["gpu"];
  memoryBandwidth: MemoryBandwidthProbe;
  model: ModelProbe;
}

/** Gathers the host facts (after the probe: the server names its model file). */
export async function hostFacts(c: RunContext, probe: ServerProbe): Promise<HostFacts> {
  const gpu = await gpuFacts(c);
  const memoryBandwidth = await hostBandwidth(c.fx);
  const model = await modelProbe(c.fx.files, modelFilePath(probe, c.config.target.launch_args));
  return {gpu, memoryBandwidth, model};
}

/** The run's environment (host, GPUs, server as probed, model file, runtime, allowlisted env), redacted. */
export function environmentOf(c: RunContext, probe: ServerProbe, facts: HostFacts, prompt: PromptPlan): Environment {
  const {config, fx, redact} = c;
  return redact.value({
    host: {...hostInfo(fx, c.hostLabel ?? null), memoryBandwidth: facts.memoryBandwidth},
    gpu: facts.gpu,
    server: {
      baseUrl: redact.url(config.target.base_url),
      engine: probe.engine,
      engineVersion: probe.engineVersion,
      models: probe.models,
      version: Object.keys(probe.version).length ? probe.version : null,
      launchArgs: config.target.launch_args === undefined ? null : redactArgs(config.target.launch_args),
      imageDigest: config.target.image_digest ?? null,
      gpus: config.target.gpus ?? null,
      capabilities: probe.capabilities
    },
    model: facts.model,
    runtime: runtimeInfo(),
    extra: {env: allowlistedEnv(fx.env), prompt: prompt.calibration}
  });
}

/**
 * The manifest as known at the start of the run (status partial until sealed), written into the bundle
 * as run.draft.json so that `inferscope seal` can recover a crashed run.
 */
export async function draftManifest(
  c: RunContext,
  o: {bundleId: string; resolvedYaml: string; environment: Environment; workload?: WorkloadFacts | null}
): Promise<Omit<Manifest, "files">> {
  const {config} = c;
  const firstBlock = loadBlocks(config)[0]!;
  const openBlock = loadBlocks(config).find((b) => isOpenLoop(isSearchBlock(b) ? b.over : b.mode));
  return {
    schemaVersion: SCHEMA_VERSION,
    bundleId: o.bundleId,
    measureVersion: MEASURE_VERSION,
    status: "partial",
    statusReason: "the collector stopped before sealing (crash or kill); sealed later with `inferscope seal`",
    startedAt: isoOf(c.startWall),
    finishedAt: null,
    monotonicOriginNs: c.origin.toString(),
    timeUnit: "ns",
    clockAnchors: [{wall: isoOf(c.startWall), tNs: 0}],
    collector: await collectorInfo(c.fx),
    configSha256: sha256Hex(o.resolvedYaml),
    capture: {
      connection: c.pool.connection,
      httpClient: c.pool.httpClient,
      ...(c.pool.note === null ? {} : {connectionNote: c.pool.note}),
      keepAliveIdleMs: c.pool.connection === "reuse" ? config.target.keep_alive_ms : null,
      payloadBytes: config.output.payload_bytes,
      closeMs: config.target.timeouts.close_ms
    },
    durability: {
      fsyncIntervalMs: config.output.fsync_interval_ms,
      flushIntervalMs: flushIntervalOf({fsyncIntervalMs: config.output.fsync_interval_ms})
    },
    prng: {name: PRNG_NAME, seed: (openBlock ?? firstBlock).seed},
    loadPoints: c.points.map((p) => p.point),
    ...(o.workload === undefined || o.workload === null ? {} : {workload: o.workload}),
    labels: config.labels,
    environment: o.environment,
    provenance: config.description ? {kind: "collected", note: config.description} : {kind: "collected"}
  };
}
