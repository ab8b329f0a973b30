import {stringify} from "yaml";

import {redactText, redactUrl, redactValue} from "../redact/value.ts";
import {RunConfigSpec, type LoadMode, type RunConfig} from "../schema/config.ts";
import type {Declared, Manifest} from "../schema/manifest.ts";
import {SCHEMA_VERSION} from "../schema/versions.ts";
import {redactedRun} from "./shared/redactRun.ts";
import type {ImportedRun} from "./shared/types.ts";

/** The run configuration as far as the source tells it; everything else takes InferScope's defaults. */
export function importedConfig(source: ImportedRun): {config: RunConfig; unknown: string[]} {
  const run = redactedRun(source);
  const w = run.workload;
  const unknown: string[] = [];
  const known = <T>(name: string, v: T | undefined): T | undefined => {
    if (v === undefined) unknown.push(name);
    return v;
  };
  // token settings are integers: a source's mean (e.g. 1023.7 prompt tokens) is not the setting
  const tokens = (name: string, v: number | undefined): number | undefined => {
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) {
      unknown.push(`${name} (the source reports ${v}, a mean, not a setting)`);
      return undefined;
    }
    return known(name, v);
  };
  // one load block per mode and in-flight cap: a cap on an open-loop point (vLLM's --max-concurrency beside a
  // request rate, AIPerf's concurrency beside a rate) is part of its load, not only of the manifest's point
  const blocks = new Map<
    string,
    {
      mode: LoadMode;
      values: number[];
      repeats: number;
      requests: number | null;
      burstiness: number | null;
      cap: number | null;
    }
  >();
  for (const p of run.loadPoints) {
    const cap = p.mode === "concurrency" ? null : p.maxConcurrency;
    const key = `${p.mode}|${cap ?? ""}`;
    const b = blocks.get(key) ?? {
      mode: p.mode,
      values: [],
      repeats: p.repeats,
      requests: p.requests,
      burstiness: p.burstiness,
      cap
    };
    if (!b.values.includes(p.value)) b.values.push(p.value);
    b.repeats = Math.max(b.repeats, p.repeats);
    blocks.set(key, b);
  }
  const load = [...blocks.values()].map((b) => ({
    mode: b.mode,
    values: b.values,
    repeats: b.repeats,
    warmup: 0,
    ...(b.requests ? {requests: b.requests} : {}),
    ...(b.burstiness ? {burstiness: b.burstiness} : {}),
    ...(b.cap ? {max_concurrency: b.cap} : {})
  }));
  const spec = {
    name: `${run.tool}-import`,
    description: `imported from ${run.tool}${run.toolVersion ? ` ${run.toolVersion}` : ""}: only what the source records is a fact of its run; fields listed as unknown take InferScope defaults`,
    labels: run.labels,
    target: {
      base_url: known("target.base_url", w.baseUrl ? redactUrl(w.baseUrl) : undefined) ?? "unknown",
      model: known("target.model", run.model ?? undefined) ?? "unknown",
      endpoint: known("target.endpoint", w.endpoint) ?? "chat",
      ...(run.environment.engine ? {engine: run.environment.engine} : {}),
      ...(run.environment.gpus ? {gpus: run.environment.gpus} : {})
    },
    workload: {
      prompt_tokens: tokens("workload.prompt_tokens", w.promptTokens),
      max_tokens: tokens("workload.max_tokens", w.maxTokens),
      ignore_eos: known("workload.ignore_eos", w.ignoreEos),
      temperature: known("workload.temperature", w.temperature),
      salt: false
    },
    load: load.length === 1 ? load[0]! : load,
    ...(w.slo ? {slo: w.slo} : {})
  };
  if (run.loadPoints.some((p) => p.id.endsWith("-unknown")))
    unknown.push("load.values (the target load is not recorded: 1 is a placeholder the schema requires)");
  unknown.push("workload.salt (recorded as false: peers do not salt prompts)");
  if (!w.slo) unknown.push("slo");
  const config = validConfig(spec, unknown);
  return {config, unknown: unknown.map(redactText)};
}

/** Settings every config must have: a source's invalid value for them becomes this placeholder. */
const REQUIRED_FALLBACK: Readonly<Record<string, unknown>> = {"target.model": "unknown", "target.base_url": "unknown"};

/**
 * The config the schema accepts: a value of the source that is not a valid setting (an empty model name, a
 * negative max_tokens…) is dropped — left to the default, or a placeholder where one is required — and
 * listed among the unknowns with the value, never allowed to fail the import.
 */
function validConfig(spec: Record<string, unknown>, unknown: string[]): RunConfig {
  let current = spec;
  for (let round = 0; round < 8; round++) {
    const r = RunConfigSpec.safeParse(current);
    if (r.success) return r.data;
    const next = structuredClone(current);
    for (const issue of r.error.issues) {
      const path = issue.path.map(String);
      if (path.length === 0) continue;
      let node = next as Record<string, unknown>;
      for (const k of path.slice(0, -1)) node = (node[k] ?? {}) as Record<string, unknown>;
      const key = path.at(-1)!;
      const was = node[key];
      const name = path.join(".");
      if (name in REQUIRED_FALLBACK) node[key] = REQUIRED_FALLBACK[name];
      else delete node[key];
      unknown.push(`${name} (the source's value ${JSON.stringify(was)?.slice(0, 80)} is not a valid setting)`);
    }
    current = next;
  }
  return RunConfigSpec.parse(current); // still invalid: a bug of the mapping above, not of the source
}

/** config.resolved.yaml of an imported bundle: a header naming the unknowns, then the resolved config. */
export function importedConfigYaml(source: ImportedRun): string {
  const run = redactedRun(source);
  const {config, unknown} = importedConfig(run);
  const header = [
    `# imported from ${run.tool}${run.toolVersion ? ` ${run.toolVersion}` : ""} by \`inferscope import\``,
    "# unknown in the source (InferScope defaults below are not facts of the source run):",
    ...unknown.map((u) => `#   ${u}`)
  ].join("\n");
  return `${header}\n${stringify(config, {lineWidth: 0})}`;
}

export interface ManifestInputs {
  bundleId: string;
  configSha256: string;
  collector: Manifest["collector"];
  files: {name: string; sha256: string; bytes: number}[];
  /** Used when the source records no start time (e.g. the newest input file's modification time). */
  startedAtFallback: string;
  /** What the importer declared that the files do not say (kept apart, shown as declared). */
  declared?: Declared;
  measureVersion?: string;
}

const alnum = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A GPU name and a declared model that name one card: one contains the other, ignoring case and punctuation. */
const sameModel = (named: string, declared: string): boolean =>
  alnum(declared) !== "" && (alnum(named).includes(alnum(declared)) || alnum(declared).includes(alnum(named)));

/**
 * Where a declaration contradicts what the files state (the files win: a declaration only fills what they
 * leave unknown); [] when it does not.
 */
export function declarationConflicts(run: ImportedRun, d: Declared): string[] {
  const out: string[] = [];
  const names = run.environment.gpuNames ?? [];
  const distinct = [...new Set(names)];
  if (d.hardware && names.length > 0 && run.environment.gpus !== undefined)
    out.push(`--hardware: the files already state ${names.length}× ${distinct.join(" + ")}`);
  else if (d.hardware && names.length > 0 && !distinct.some((n) => sameModel(n, d.hardware!.gpu_model)))
    out.push(`--hardware gpu_model=${d.hardware.gpu_model}: the files name only ${distinct.join(" + ")}`);
  if (d.hardware && run.environment.gpus !== undefined && run.environment.gpus !== d.hardware.gpu_count)
    out.push(`--hardware gpu_count=${d.hardware.gpu_count}: the files state ${run.environment.gpus} GPUs`);
  if (d.engine && run.environment.engine && run.environment.engine !== d.engine.name)
    out.push(`--engine ${d.engine.name}: the files state the engine ${run.environment.engine}`);
  for (const [k, v] of Object.entries(d.labels ?? {}))
    if (k in run.labels && run.labels[k] !== v) out.push(`--label ${k}=${v}: the files set ${k}=${run.labels[k]}`);
  return out;
}

/** The manifest of an imported bundle (without `files`, which sealing adds). */
export function importedManifest(source: ImportedRun, m: ManifestInputs): Omit<Manifest, "files"> {
  const run = redactedRun(source);
  const notes = [...run.notes];
  const startedAt = run.startedAt ?? run.finishedAt ?? m.startedAtFallback;
  if (!run.startedAt)
    notes.push(
      run.finishedAt
        ? "start time not recorded: the source's end time is used"
        : "start time not recorded: the input file's modification time is used"
    );
  const anchors = run.clock === "wall" && run.startedAt ? [{wall: run.startedAt, tNs: 0}] : [];
  return {
    schemaVersion: SCHEMA_VERSION,
    bundleId: m.bundleId,
    measureVersion: m.measureVersion ?? `import-${run.tool}`,
    status: run.status,
    statusReason: run.statusReason,
    startedAt,
    finishedAt: run.finishedAt,
    monotonicOriginNs: run.originNs,
    timeUnit: "ns",
    clockAnchors: anchors,
    collector: m.collector,
    configSha256: m.configSha256,
    durability: {fsyncIntervalMs: null},
    prng: null,
    loadPoints: run.loadPoints,
    labels: run.labels,
    environment: {
      host: {os: null, arch: null, cpuModel: null, cpuCount: null, memoryBytes: null, hostname: null},
      gpu: {
        available: (run.environment.gpuNames?.length ?? 0) > 0,
        reason: (run.environment.gpuNames?.length ?? 0) > 0 ? null : `not recorded by ${run.tool}`,
        devices: (run.environment.gpuNames ?? []).map((name, index) => ({
          index,
          name,
          uuid: run.environment.gpuUuids?.[index] ?? null,
          memoryTotalMiB: null,
          powerLimitW: null,
          computeCapability: null
        })),
        driverVersion: null,
        cudaVersion: null,
        topology: null
      },
      server: {
        baseUrl: run.workload.baseUrl ? redactUrl(run.workload.baseUrl) : null,
        engine: run.environment.engine ?? null,
        engineVersion: run.environment.engineVersion ?? null,
        models: null,
        version: null,
        launchArgs: null,
        imageDigest: null,
        gpus: run.environment.gpus ?? null,
        capabilities: {}
      },
      runtime: {node: null, platform: null},
      extra: run.environment.extra
    },
    provenance: {
      kind: "imported",
      tool: run.tool,
      toolVersion: run.toolVersion,
      files: m.files,
      note: notes.join("; "),
      ...(m.declared ? {declared: redactValue(m.declared)} : {})
    }
  };
}
