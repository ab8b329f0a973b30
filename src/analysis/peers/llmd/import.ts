import type {LoadPoint} from "../../schema/manifest.ts";
import type {SourceRequestCounts} from "../../schema/records.ts";
import {isoFromLocal, loadPoint, numberRecords, requestCounts, sourceRecord, unknownPoint} from "../shared/build.ts";
import {appendAll} from "../../util/append.ts";
import {isObject, jsonSafe} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {isLlmdReport} from "./format.ts";
import {aggregateOf, validateLlmdReport} from "./validate.ts";

const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const finite = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** The engines of `scenario.stack`: accelerator model and count per replica × replicas (0 or "" unknown). */
function enginesOf(doc: Record<string, unknown>) {
  const stack = Array.isArray(obj(doc.scenario).stack) ? (obj(doc.scenario).stack as unknown[]) : [];
  return stack
    .map((c) => obj(obj(c).standardized))
    .filter((s) => s.kind === "inference_engine")
    .map((s) => {
      const acc = obj(s.accelerator);
      const count = finite(acc.count);
      const replicas = finite(s.replicas) ?? 1;
      return {
        tool: str(s.tool),
        version: str(s.tool_version),
        model: str(obj(s.model).name),
        role: str(s.role),
        accelerator: str(acc.model),
        gpus: count !== null && count > 0 ? count * replicas : null
      };
    });
}

function pointOf(load: Record<string, unknown>): LoadPoint {
  const c = finite(load.concurrency);
  const rate = finite(load.rate_qps);
  if (rate !== null && rate > 0) return loadPoint("rate", rate, {maxConcurrency: c !== null && c >= 1 ? c : null});
  if (c !== null && c >= 1) return loadPoint("concurrency", c);
  return unknownPoint();
}

/**
 * The report's request counts: `total` is every request sent, `failures` those that responded with an error,
 * `incomplete` those not completed (upstream's schema); an unstated incomplete is taken as 0, so that the
 * failures count over every request sent, the smallest failed share the report allows.
 */
function countsOf(doc: Record<string, unknown>): SourceRequestCounts {
  const r = obj(aggregateOf(doc)?.requests);
  const total = finite(r.total);
  const failures = finite(r.failures);
  const incomplete = r.incomplete == null ? 0 : finite(r.incomplete);
  const completed = total !== null && failures !== null && incomplete !== null ? total - failures - incomplete : null;
  return requestCounts(completed, failures, incomplete);
}

function isoOf(t: unknown): string | null {
  const s = str(t);
  if (s === null) return null;
  // a time with a zone that isoFromLocal cannot normalise is kept as written; one without stays unknown
  return isoFromLocal(s) ?? (/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : null);
}

/**
 * An llm-d Benchmark Report as an imported run: aggregates only (no request records), one load point
 * per report; the accelerators and engine of `scenario.stack` become the run's environment as the report
 * states them. Each file is validated against upstream's JSON Schema first.
 */
/** What a document that is not a v0.2 report holds instead, for the error: its version, or its kind. */
function seenShape(value: unknown): string {
  if (value === undefined) return "JSON Lines";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null || typeof value !== "object") return `${value === null ? "null" : typeof value}`;
  const v = (value as Record<string, unknown>).version;
  return v === undefined ? "an object without a version" : `version ${JSON.stringify(v)}`;
}

/** The reports, each validated against upstream's schema and unit rules; every problem of every file. */
function readReports(docs: readonly Doc[]): Result<{file: string; doc: Record<string, unknown>}[]> {
  const errors: PeerError[] = [];
  const reports: {file: string; doc: Record<string, unknown>}[] = [];
  for (const d of docs) {
    const value = d.kind === "jsonl" ? undefined : d.value;
    if (!isLlmdReport(value)) {
      errors.push({
        file: d.name,
        path: "$",
        expected: `an llm-d Benchmark Report v0.2/v0.2.1 (version, run, results), got ${seenShape(value)}`
      });
      continue;
    }
    const invalid = validateLlmdReport(d.name, value);
    if (invalid.length) appendAll(errors, invalid);
    else reports.push({file: d.name, doc: value as Record<string, unknown>});
  }
  return errors.length ? {ok: false, errors} : {ok: true, value: reports};
}

export function importLlmd(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readReports(docs);
  if (!read.ok) return read;
  const reports = read.value;
  const points = new Map<string, LoadPoint>();
  const notes: string[] = [
    "the llm-d Benchmark Report holds aggregates only: every number is kept as reported and none can be recomputed"
  ];
  const sources = reports.map(({file, doc}) => {
    const load = obj(obj(obj(doc.scenario).load).standardized);
    const p = pointOf(load);
    const existing = points.get(p.id);
    if (existing) existing.repeats++;
    else points.set(p.id, p);
    return sourceRecord({
      tool: "llmd-report",
      toolVersion: str(doc.version) ?? (doc.version === undefined ? null : String(doc.version)),
      file,
      point: p.id,
      aggregates: jsonSafe(doc),
      facts: {
        requestCounts: countsOf(doc),
        uid: str(obj(doc.run).uid),
        producer: str(load.tool),
        producerVersion: str(load.tool_version),
        engines: enginesOf(doc)
      }
    });
  });
  const first = reports[0]!.doc;
  const engines = reports.flatMap(({doc}) => enginesOf(doc));
  const engine = engines.find((e) => e.tool !== null);
  const gpuEngines = engines.filter((e) => e.gpus !== null && e.accelerator !== null);
  const totalGpus = gpuEngines.reduce((n, e) => n + e.gpus!, 0);
  if (engines.length && !gpuEngines.length)
    notes.push("scenario.stack names no accelerator model and count: the hardware is unknown");
  if (gpuEngines.length)
    notes.push(
      `accelerators as the report states them: ${gpuEngines.map((e) => `${e.gpus}× ${e.accelerator}${e.role ? ` (${e.role})` : ""}`).join(", ")} (accelerator.count per replica × replicas)`
    );
  const load = obj(obj(obj(first.scenario).load).standardized);
  const producer = str(load.tool);
  if (producer) notes.push(`measured by ${producer}${str(load.tool_version) ? ` ${String(load.tool_version)}` : ""}`);
  if (finite(load.rate_qps) !== null) notes.push("rate_qps does not say whether arrivals were constant or random");
  const time = obj(obj(first.run).time);
  return {
    ok: true,
    value: {
      tool: "llmd-report",
      toolVersion: sources[0]!.toolVersion,
      model: engines.find((e) => e.model !== null)?.model ?? null,
      startedAt: isoOf(time.start),
      finishedAt: isoOf(obj(obj(reports.at(-1)!.doc.run).time).end),
      clock: "request",
      originNs: "0",
      loadPoints: [...points.values()],
      requests: [],
      sources: numberRecords(sources),
      workload: {
        promptTokens: finite(obj(load.input_seq_len).value) ?? undefined,
        maxTokens: finite(obj(load.output_seq_len).value) ?? undefined
      },
      environment: {
        ...(engine?.tool ? {engine: engine.tool} : {}),
        ...(engine?.version ? {engineVersion: engine.version} : {}),
        ...(gpuEngines.length
          ? {gpus: totalGpus, gpuNames: gpuEngines.flatMap((e) => Array<string>(e.gpus!).fill(e.accelerator!))}
          : {}),
        extra: {}
      },
      labels: {imported_from: "llmd-report"},
      notes,
      status: "complete",
      statusReason: null
    }
  };
}
