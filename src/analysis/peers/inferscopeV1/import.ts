import type {LoadMode} from "../../schema/config.ts";
import type {RequestRecord, SseEvent} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestRecord,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "../shared/build.ts";
import {minBig, requestTimeError, type RequestTime} from "../shared/numeric.ts";
import {isObject, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {Aggregate, role, Row} from "./format.ts";

const MODES: Record<string, LoadMode> = {concurrency: "concurrency", fixed_rate: "rate", poisson: "poisson"};

function modeOf(
  config: Record<string, unknown> | null,
  manifest: Record<string, unknown> | null
): {mode: LoadMode; value: number} | null {
  const runId = typeof manifest?.run_id === "string" ? manifest.run_id : "";
  const m = /-(concurrency|fixed_rate|poisson)-([0-9p]+)-r\d+$/.exec(runId);
  const arrival = isObject(config?.workload) && isObject(config.workload.arrival) ? config.workload.arrival : {};
  const modeName = typeof arrival.mode === "string" ? arrival.mode : m?.[1];
  const value =
    typeof manifest?.arrival_value === "number"
      ? manifest.arrival_value
      : m
        ? Number(m[2]!.replace("p", "."))
        : Array.isArray(arrival.values) && arrival.values.length === 1
          ? Number(arrival.values[0])
          : null;
  const mode = modeName ? MODES[modeName] : undefined;
  return mode && value !== null && value > 0 ? {mode, value} : null;
}

interface Inputs {
  rows: {line: number; row: Row}[];
  requestsFile: string | null;
  /** The aggregate file's name and its raw value (kept verbatim), when one was given. */
  aggregate: {file: string; value: unknown} | null;
  runIds: Set<string | undefined>;
  manifest: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
  validation: Record<string, unknown> | null;
}

/** Sorts the files by role (one of each), validates the request rows and the aggregate. */
function readV1(docs: readonly Doc[]): Result<Inputs> {
  const errors: PeerError[] = [];
  const by = new Map<string, Doc>();
  for (const d of docs) {
    const r = role(d);
    if (r === null) {
      errors.push({
        file: d.name,
        path: "$",
        expected:
          "an InferScope v1 artifact: requests.jsonl rows (scheduled_at_ns, started_at_ns, status…), aggregate.json, manifest.json, validation.json or config.resolved.yaml"
      });
      continue;
    }
    if (by.has(r))
      errors.push({
        file: d.name,
        path: "$",
        expected: `one run per import: a second ${r} file (first: ${by.get(r)!.name})`
      });
    else by.set(r, d);
  }
  const reqDoc = by.get("requests");
  const rows: {line: number; row: Row}[] = [];
  if (reqDoc) {
    const lines = reqDoc.kind === "jsonl" ? reqDoc.lines : [{line: 1, value: (reqDoc as {value: unknown}).value}];
    for (const l of lines) {
      const r = validate(Row, l.value, reqDoc.name, "$", `line ${l.line} `);
      if (r.ok) rows.push({line: l.line, row: r.value});
      else appendAll(errors, r.errors);
    }
  }
  const aggDoc = by.get("aggregate");
  const agg = aggDoc ? validate(Aggregate, (aggDoc as {value: unknown}).value, aggDoc.name) : null;
  if (agg && !agg.ok) appendAll(errors, agg.errors);
  if (!reqDoc && !aggDoc)
    errors.push({file: docs[0]?.name ?? "(none)", path: "$", expected: "a v1 requests.jsonl or aggregate.json"});
  const runIds = new Set(rows.map((r) => r.row.run_id).filter(Boolean));
  if (runIds.size > 1)
    errors.push({file: reqDoc!.name, path: "$.run_id", expected: `one run per import, found ${runIds.size} run ids`});
  if (errors.length) return {ok: false, errors};
  const value = (role: string) => (by.get(role) as {value: Record<string, unknown>} | undefined)?.value ?? null;
  return {
    ok: true,
    value: {
      rows,
      requestsFile: reqDoc?.name ?? null,
      aggregate: aggDoc && agg?.ok ? {file: aggDoc.name, value: (aggDoc as {value: unknown}).value} : null,
      runIds,
      manifest: value("manifest"),
      config: value("config"),
      validation: value("validation")
    }
  };
}

/** One v1 request row as a request record; `rel` puts v1's monotonic ns on the run's clock. */
function mapRow(
  row: Row,
  i: number,
  point: string,
  rel: (t: bigint | number | null | undefined) => number | null
): RequestRecord {
  const first = rel(row.first_content_at_ns);
  const chunks = (row.chunk_times_ns ?? []).map((t) => rel(t)!);
  const ok = row.status === "success" && first !== null;
  let events: SseEvent[] = [];
  if (ok) {
    const before = chunks.filter((t) => t < first).map((t): SseEvent => [t, 0, "role", null]);
    const after = chunks.filter((t) => t > first).map((t) => tokenEvent(t));
    events = [...before, tokenEvent(first), ...after];
  }
  const src = row.token_count_source;
  const warm = row.warmup === true || row.phase === "warmup";
  return requestRecord({
    id: row.request_id ?? `r${i}`,
    point,
    index: row.sequence ?? i,
    phase: warm ? "warmup" : "measure",
    timeBase: "run",
    tSchedNs: rel(row.scheduled_at_ns),
    tDispNs: rel(row.started_at_ns),
    tEndNs: rel(row.finished_at_ns),
    events,
    eventCoverage: chunks.length ? "token_chunks" : "first_last",
    httpStatus: row.http_status ?? (ok ? 200 : null),
    transportError:
      ok || row.http_status != null
        ? null
        : row.status === "timeout"
          ? "timeout_total"
          : row.status === "cancelled"
            ? "client_abort"
            : "other",
    finishReason: row.finish_reason ?? null,
    errorMessage: ok ? null : (row.error_code ?? row.status),
    usage: {
      promptTokens: row.input_tokens ?? null,
      completionTokens: ok ? (row.output_tokens ?? null) : null,
      reasoningTokens: null,
      cachedTokens: null
    },
    usageSource: src === "server_usage" ? "server_final" : src === "local_tokenizer" ? "client_tokenizer" : "none",
    nullReasons: {tHdrNs: "InferScope v1 kept no header time"}
  });
}

/**
 * A row's times as its record holds them (scheduled, started, the chunks before the first content, the first
 * content, the chunks after it, finished), checked by the rule every importer's times obey (shared/numeric.ts).
 */
function rowTimeError(
  file: string,
  {line, row}: {line: number; row: Row},
  rel: (t: bigint | number) => number
): PeerError | null {
  const at = (key: string, what: string, v: bigint | number | null | undefined): RequestTime | null =>
    v == null ? null : {path: `line ${line} $.${key}`, what, value: v, ns: rel(v)};
  const first = at("first_content_at_ns", "the first content", row.first_content_at_ns);
  const chunks = (row.chunk_times_ns ?? []).map((t, k) => at(`chunk_times_ns[${k}]`, "a chunk time", t)!);
  const ok = row.status === "success" && first !== null;
  return requestTimeError(file, "ns", "the earliest scheduled or start time in the file", [
    at("scheduled_at_ns", "the scheduled time", row.scheduled_at_ns),
    at("started_at_ns", "the start time", row.started_at_ns),
    ...(ok ? [...chunks.filter((c) => c.ns < first.ns), first, ...chunks.filter((c) => c.ns > first.ns)] : []),
    at("finished_at_ns", "the finish time", row.finished_at_ns)
  ]);
}

/** Maps one v1 run (its raw and processed artifacts) to one imported run. */
export function importInferscopeV1(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readV1(docs);
  if (!read.ok) return read;
  const {rows, requestsFile, aggregate, runIds, manifest, config, validation} = read.value;
  const mv = modeOf(config, manifest);
  const point = mv
    ? loadPoint(mv.mode, mv.value, {requests: rows.length || null})
    : unknownPoint({requests: rows.length || null});
  const origin =
    minBig(
      rows.flatMap(({row}) => [row.scheduled_at_ns, row.started_at_ns].filter((x): x is bigint | number => x != null))
    ) ?? 0n;
  const rel = (t: bigint | number | null | undefined) => (t == null ? null : Number(BigInt(t) - origin));
  const invalid = rows.map((r) => rowTimeError(requestsFile!, r, (t) => rel(t)!)).filter((e) => e !== null);
  if (invalid.length) return {ok: false, errors: invalid};
  const requests: RequestRecord[] = rows.map(({row}, i) => mapRow(row, i, point.id, rel));
  const slo = isObject(config?.slo) ? config.slo : {};
  const gen = isObject(config?.generation) ? config.generation : {};
  const workload = isObject(config?.workload) ? config.workload : {};
  const target = isObject(config?.target) ? config.target : {};
  const env = isObject(manifest?.environment) ? manifest.environment : {};
  const devices = isObject(env.nvidia) && Array.isArray(env.nvidia.devices) ? env.nvidia.devices.filter(isObject) : [];
  const warmup = isObject(config?.warmup) && typeof config.warmup.requests === "number" ? config.warmup.requests : null;
  point.warmup = warmup ?? 0;
  return {
    ok: true,
    value: {
      tool: "inferscope-v1",
      toolVersion: typeof manifest?.schema_version === "string" ? manifest.schema_version : null,
      model: typeof target.model === "string" ? target.model : null,
      startedAt: typeof manifest?.started_at === "string" ? isoFromLocal(manifest.started_at) : null,
      finishedAt: null,
      clock: "monotonic",
      originNs: origin.toString(),
      loadPoints: [point],
      requests: numberRecords(requests),
      sources: numberRecords([
        sourceRecord({
          tool: "inferscope-v1",
          toolVersion: typeof manifest?.schema_version === "string" ? manifest.schema_version : null,
          file: aggregate?.file ?? requestsFile!,
          point: point.id,
          aggregates: aggregate ? jsonSafe(aggregate.value) : null,
          facts: {
            runId: typeof manifest?.run_id === "string" ? manifest.run_id : ([...runIds][0] ?? null),
            slo: jsonSafe(slo),
            validation: validation ? jsonSafe(validation) : null,
            requestsFile
          }
        })
      ]),
      workload: {
        endpoint: target.request_type === "completions" ? "completions" : "chat",
        baseUrl: typeof target.base_url === "string" ? target.base_url : undefined,
        ignoreEos: typeof gen.ignore_eos === "boolean" ? gen.ignore_eos : undefined,
        maxTokens: typeof gen.max_output_tokens === "number" ? gen.max_output_tokens : undefined,
        temperature: typeof gen.temperature === "number" ? gen.temperature : undefined,
        promptTokens: typeof workload.prompt_tokens === "number" ? workload.prompt_tokens : undefined
      },
      environment: {
        engine: typeof target.backend === "string" ? target.backend : undefined,
        gpuNames: devices.map((d) => String(d.name ?? "GPU")),
        gpus: devices.length || undefined,
        extra: isObject(env.platform) || typeof env.platform === "string" ? {platform: jsonSafe(env.platform)} : {}
      },
      labels: {imported_from: "inferscope-v1"},
      notes: [
        "InferScope v1 prompts counted words, not tokens; v1 TTFT waited for the first content delta",
        "started_at carries no zone unless written with one"
      ],
      status: "complete",
      statusReason: null
    }
  };
}
