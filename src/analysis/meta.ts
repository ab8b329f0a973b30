import type {PointFacts} from "./gates/types.ts";
import type {BundleMeta} from "./report/types.ts";
import type {RunConfig} from "./schema/config.ts";
import type {Declared, Manifest} from "./schema/manifest.ts";

/** What the importer declared (imported bundles only), else null. */
export const declaredOf = (manifest: Manifest | null): Declared | null =>
  manifest?.provenance.kind === "imported" ? (manifest.provenance.declared ?? null) : null;

/**
 * "2× NVIDIA H100 80GB HBM3", or the CPU model when no GPU was seen, or what the importer declared
 * ("8× H100-SXM-80GB (declared)"), or "unknown hardware".
 */
export function hardwareLabel(manifest: Manifest | null): string {
  const env = manifest?.environment;
  if (!env) return "unknown hardware";
  const gpus = env.gpu.devices;
  const declared = declaredOf(manifest)?.hardware;
  // an import names the GPUs its source saw (AIPerf's DCGM telemetry lists a node's every GPU): a count only
  // where the source states how many served
  const counted = manifest?.provenance.kind !== "imported" || env.server.gpus != null;
  if (gpus.length > 0 && (counted || !declared)) {
    const names = [...new Set(gpus.map((g) => g.name))];
    if (!counted) return `${names.join(" + ")} (named by the source; how many served: unknown)`;
    return names.length === 1 ? `${gpus.length}× ${names[0]}` : names.join(" + ");
  }
  if (declared) return `${declared.gpu_count}× ${declared.gpu_model} (declared)`;
  const cpu = env.host.cpuModel;
  return cpu ? `CPU: ${cpu}${env.host.cpuCount ? ` (${env.host.cpuCount} threads)` : ""}` : "unknown hardware";
}

export function bundleMeta(
  manifest: Manifest | null,
  config: RunConfig | null,
  points: readonly PointFacts[]
): BundleMeta {
  const w = config?.workload;
  const workload = {
    prompt_tokens: w?.prompt_tokens ?? null,
    max_tokens: w?.max_tokens ?? null,
    ignore_eos: w?.ignore_eos ?? null,
    temperature: w?.temperature ?? null
  };
  const endpoint = config?.target.endpoint ?? null;
  const declared = declaredOf(manifest);
  const engine = manifest?.environment.server.engine ?? config?.target.engine ?? null;
  const imported = manifest?.provenance.kind === "imported";
  const gpus =
    manifest?.environment.server.gpus ??
    config?.target.gpus ??
    (imported ? null : manifest?.environment.gpu.devices.length || null);
  const hardware = hardwareLabel(manifest);
  const declaredFields = [
    ...(hardware.endsWith("(declared)") ? ["hardware"] : []),
    ...(gpus === null && declared?.hardware ? ["gpus"] : []),
    ...(engine === null && declared?.engine ? ["engine"] : []),
    ...Object.keys(declared?.labels ?? {}).map((k) => `labels.${k}`)
  ];
  return {
    model: config?.target.model ?? null,
    engine: engine ?? declared?.engine?.name ?? null,
    hardware,
    gpus: gpus ?? declared?.hardware?.gpu_count ?? null,
    endpoint,
    modes: [...new Set(points.map((p) => p.point.mode))],
    labels: {...(manifest?.labels ?? {}), ...(declared?.labels ?? {})},
    ...(declaredFields.length ? {declared: declaredFields} : {}),
    startedAt: manifest?.startedAt ?? null,
    finishedAt: manifest?.finishedAt ?? null,
    workload,
    workloadKey: [
      endpoint ?? "?",
      `in=${workload.prompt_tokens ?? "?"}`,
      `out=${workload.max_tokens ?? "?"}`,
      `ignore_eos=${workload.ignore_eos ?? "?"}`,
      `T=${workload.temperature ?? "?"}`,
      `salt=${config?.workload.salt ?? "?"}`,
      config?.workload.prompt_text ? "custom-prompt" : "filler"
    ].join(" ")
  };
}

/** The label `inferscope quick` puts on its bundles (value "quick"): a look the site shows but never ranks. */
export const QUICK_LOOK_LABEL = "inferscope_look";

/** A quick look (`inferscope quick`), never ranked beside benchmarks (selection, matrix, Pareto). */
export const isQuickLook = (meta: Pick<BundleMeta, "labels">): boolean => meta.labels[QUICK_LOOK_LABEL] === "quick";
