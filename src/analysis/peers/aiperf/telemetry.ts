import {isObject} from "../shared/parse.ts";
import type {ImportedEnvironment} from "../shared/types.ts";

/** One GPU as AIPerf's DCGM telemetry names it. */
export interface TelemetryGpu {
  name: string;
  uuid: string | null;
  host: string | null;
  /** the exporter it was scraped from (`dcgm-exporter…:9400`), as AIPerf keys it */
  endpoint: string;
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/**
 * The GPUs AIPerf's GPU telemetry (`telemetry_data.endpoints.<exporter>.gpus.<gpu_k>`, AIPerf ≥ 0.3 with DCGM
 * exporters) names, in the order of the file; [] when it has none or names none. A GPU without a `gpu_name` is
 * left out (its model is unknown, not "GPU"). What this cannot say: a DCGM exporter reports every GPU of its node,
 * which need not be the GPUs that served the model (the note in import.ts says so).
 */
export function telemetryGpus(aggregate: unknown): TelemetryGpu[] {
  if (!isObject(aggregate) || !isObject(aggregate.telemetry_data)) return [];
  const endpoints = aggregate.telemetry_data.endpoints;
  if (!isObject(endpoints)) return [];
  const out: TelemetryGpu[] = [];
  for (const [endpoint, e] of Object.entries(endpoints)) {
    if (!isObject(e) || !isObject(e.gpus)) continue;
    for (const g of Object.values(e.gpus)) {
      const name = isObject(g) ? text(g.gpu_name) : null;
      if (!isObject(g) || name === null) continue;
      out.push({name, uuid: text(g.gpu_uuid), host: text(g.hostname), endpoint});
    }
  }
  return out;
}

/** The imported environment: the GPUs the telemetry names (no count), with the note that says so pushed to `notes`. */
export function telemetryEnvironment(aggregate: unknown, notes: string[]): ImportedEnvironment {
  const gpus = telemetryGpus(aggregate);
  if (!gpus.length) return {extra: {}};
  notes.push(telemetryNote(gpus));
  return {gpuNames: gpus.map((g) => g.name), gpuUuids: gpus.map((g) => g.uuid), extra: {}};
}

/** One line: how many GPUs of which model on which hosts, and what the figure cannot say. */
export function telemetryNote(gpus: readonly TelemetryGpu[]): string {
  const byHost = new Map<string, Map<string, number>>();
  for (const g of gpus) {
    const host = g.host ?? `exporter ${g.endpoint}`;
    const names = byHost.get(host) ?? new Map<string, number>();
    names.set(g.name, (names.get(g.name) ?? 0) + 1);
    byHost.set(host, names);
  }
  const where = [...byHost]
    .map(([host, names]) => `${[...names].map(([n, k]) => `${k}× ${n}`).join(" + ")} on ${host}`)
    .join("; ");
  return `GPUs as AIPerf's DCGM telemetry names them: ${where}. A DCGM exporter reports every GPU of its node, not only those that served the model: the GPU count is left unknown`;
}
