import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {isoFromEpochMs, loadPoint, numberRecords, requestRecord, sourceRecord} from "../shared/build.ts";
import {latencyOrderWarnings} from "../shared/latencyOrder.ts";
import {minBig, requestTimeError} from "../shared/numeric.ts";
import {isObject, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {Export, isExport, isSummary, Req} from "./format.ts";
import {statedModel, summaryPoint} from "./inputConfig.ts";
import {responseEvents} from "./sse.ts";

function pointOf(mode: string, value: number): LoadPoint {
  return mode === "request_rate" ? loadPoint("rate", value) : loadPoint("concurrency", value);
}

interface Inputs {
  exportName: string | null;
  summaryName: string | null;
  exp: {
    endpoint?: string;
    service_kind?: string;
    experiments: {experiment: {mode: string; value: number}; requests: Req[]}[];
  } | null;
  summary: Record<string, unknown> | null;
  /** The earliest request timestamp: time 0 of the records. */
  origin: bigint;
}

/**
 * The export (each request validated on its own, then its times checked: requestErrors) and the summary; every
 * error of every file together.
 */
function readGenaiPerf(docs: readonly Doc[]): Result<Inputs> {
  const errors: PeerError[] = [];
  const exportDoc = docs.find((d) => d.kind === "json" && isExport(d.value));
  const summaryDoc = docs.find((d) => d.kind === "json" && isSummary(d.value));
  for (const d of docs)
    if (d !== exportDoc && d !== summaryDoc)
      errors.push({
        file: d.name,
        path: "$",
        expected:
          "a GenAI-Perf profile_export.json (experiments[].requests[]) or profile_export_genai_perf.json (metric objects {unit, avg, …})"
      });
  if (!exportDoc && !summaryDoc) return {ok: false, errors};
  const parsed = exportDoc ? validate(Export, (exportDoc as {value: unknown}).value, exportDoc.name) : null;
  if (parsed && !parsed.ok) appendAll(errors, parsed.errors);
  if (errors.length) return {ok: false, errors};
  const experiments = (parsed?.ok ? parsed.value.experiments : []).map((e, ei) => {
    const requests: Req[] = [];
    e.requests.forEach((raw, i) => {
      const v = validate(Req, raw, exportDoc!.name, `$.experiments[${ei}].requests[${i}]`);
      if (v.ok) requests.push(v.value);
      else appendAll(errors, v.errors);
    });
    return {...e, requests};
  });
  if (errors.length) return {ok: false, errors};
  const exp = parsed?.ok ? {...parsed.value, experiments} : null;
  const origin = minBig(experiments.flatMap((e) => e.requests.map((r) => BigInt(r.timestamp)))) ?? 0n;
  if (exp) appendAll(errors, requestErrors(exportDoc!.name, exp, origin));
  if (errors.length) return {ok: false, errors};
  const summary = summaryDoc ? ((summaryDoc as {value: unknown}).value as Record<string, unknown>) : null;
  const names = {exportName: exportDoc?.name ?? null, summaryName: summaryDoc?.name ?? null};
  return {ok: true, value: {...names, exp, summary, origin}};
}

/** What one request's payload says about the workload (the payload is the request body as sent). */
interface PayloadFacts {
  model: string | null;
  /** Undefined when no payload was recorded: a missing ignore_eos in a recorded payload was not sent. */
  ignoreEos: boolean | undefined;
  /** The payload asked for a non-streaming answer (`stream: false` or no `stream`). */
  nonStreaming: boolean | undefined;
  maxTokens: number | null;
}

/** One perf_analyzer request as a request record, with what its payload says. */
function mapRequest(
  req: Req,
  at: {experiment: number; index: number; point: string; repeat: number; origin: bigint}
): {record: RequestRecord; facts: PayloadFacts} {
  const {experiment: ei, index: i, repeat, origin} = at;
  const {events, parsed: ps} = responseEvents(req, origin);
  const usage = ps.findLast((x) => x.usage !== null)?.usage ?? null;
  const finish = ps.findLast((x) => x.finish !== null)?.finish ?? null;
  const err = ps.find((x) => x.error !== null)?.error ?? null;
  let payload: Record<string, unknown> = {};
  try {
    const v = JSON.parse(req.request_inputs?.payload ?? "{}");
    if (isObject(v)) payload = v;
  } catch {
    payload = {};
  }
  const maxTokens =
    typeof payload.max_tokens === "number"
      ? payload.max_tokens
      : typeof payload.max_completion_tokens === "number"
        ? payload.max_completion_tokens
        : null;
  const disp = Number(BigInt(req.timestamp) - origin);
  const record = requestRecord({
    id: `e${ei}-r${i}`,
    point: at.point,
    repeat,
    index: i,
    timeBase: "run",
    tDispNs: disp,
    tEndNs: req.response_timestamps.length ? Number(BigInt(req.response_timestamps.at(-1)!) - origin) : null,
    events,
    eventCoverage: "all",
    httpStatus: events.length ? 200 : null,
    transportError: events.length ? null : "other",
    finishReason: finish,
    errorMessage: err ?? (events.length ? null : "no response recorded"),
    usage: usage
      ? {
          promptTokens: usage.prompt,
          completionTokens: usage.completion,
          reasoningTokens: usage.reasoning,
          cachedTokens: null
        }
      : null,
    usageSource: usage?.completion != null ? "server_final" : "none",
    maxTokens,
    nullReasons: {
      tSchedNs: "perf_analyzer records send times only",
      ...(usage?.completion == null
        ? {usage: "no usage chunk in the stream; GenAI-Perf counts tokens with a client tokenizer"}
        : {})
    }
  });
  return {
    record,
    facts: {
      model: typeof payload.model === "string" ? payload.model : null,
      ignoreEos: req.request_inputs?.payload !== undefined ? payload.ignore_eos === true : undefined,
      nonStreaming: req.request_inputs?.payload !== undefined ? payload.stream !== true : undefined,
      maxTokens
    }
  };
}

/**
 * perf_analyzer stamps requests and responses with std::chrono::system_clock (its RequestRecord), written as ns
 * since the Unix epoch: a time 0 from 2019 to 2099 is read as that wall time. A value far below it (a steady
 * clock's time since boot) gives no date.
 */
const WALL_NS = {from: 1_546_300_800n * 1_000_000_000n, to: 4_102_444_800n * 1_000_000_000n};
const isWallNs = (ns: bigint): boolean => ns >= WALL_NS.from && ns < WALL_NS.to;

function importNotes(nonStreaming: number, total: number, wall: boolean): string[] {
  return [
    wall
      ? "perf_analyzer timestamps are ns since the Unix epoch (its system clock): the run's start is the first request's; every response is kept with its SSE text"
      : "perf_analyzer timestamps are ns on its own clock; every response is kept with its SSE text",
    "GenAI-Perf counts output tokens with a client tokenizer: token metrics need a usage chunk in the stream",
    ...(nonStreaming > 0
      ? [
          `${nonStreaming} of ${total} requests asked for a non-streaming answer: the whole answer arrives in one response, so their TTFT equals their E2E latency by definition, and they have no inter-token latency or decode speed`
        ]
      : [])
  ];
}

/** The API of a GenAI-Perf endpoint path (`v1/chat/completions`, `v1/completions`), else unknown. */
const endpointOf = (path: string | undefined): "chat" | "completions" | undefined =>
  path?.includes("chat") ? "chat" : path?.includes("completions") ? "completions" : undefined;

/** [within, whole]: per request, each first metric is part of the second. */
const ORDER = [
  ["time_to_first_token", "request_latency"],
  ["time_to_second_token", "request_latency"],
  ["inter_token_latency", "request_latency"]
] as const;

/** A summary that contradicts itself (shared/latencyOrder.ts), as warnings; its numbers stay as written. */
function summaryWarnings(file: string | null, summary: Record<string, unknown> | null): string[] {
  if (summary === null) return [];
  const blocks = Object.fromEntries(
    Object.entries(summary).filter((e): e is [string, Record<string, unknown>] => isObject(e[1]))
  );
  return latencyOrderWarnings(file ?? "summary", blocks, ORDER);
}

/**
 * Each request's times as its record holds them (sent, then every response in order), checked by the rule every
 * importer's times obey (shared/numeric.ts).
 */
function requestErrors(file: string, exp: NonNullable<Inputs["exp"]>, origin: bigint): PeerError[] {
  const errors: PeerError[] = [];
  const rel = (t: bigint | number) => Number(BigInt(t) - origin);
  exp.experiments.forEach((e, ei) =>
    e.requests.forEach((req, i) => {
      const base = `$.experiments[${ei}].requests[${i}]`;
      const responses = req.response_timestamps.map((t, k) => ({
        path: `${base}.response_timestamps[${k}]`,
        what: "a response timestamp",
        value: t,
        ns: rel(t)
      }));
      const e1 = requestTimeError(file, "ns", "the earliest request timestamp in the file", [
        {path: `${base}.timestamp`, what: "the request timestamp", value: req.timestamp, ns: rel(req.timestamp)},
        ...responses
      ]);
      if (e1) errors.push(e1);
    })
  );
  return errors;
}

/** A usage chunk's token counts become the record's usage: whole numbers from 0 to 2^53 − 1, else an error. */
function usageError(file: string, at: string, record: RequestRecord): PeerError | null {
  const bad = Object.entries(record.usage ?? {}).find(([, v]) => v !== null && !(Number.isSafeInteger(v) && v >= 0));
  return bad
    ? {
        file,
        path: `${at}.response_outputs`,
        expected: `a usage chunk whose token counts are whole numbers from 0 to 2^53 − 1, got ${bad[0]} ${String(bad[1])}`
      }
    : null;
}

/** Maps a GenAI-Perf export (one load point per experiment) and its summary to one imported run. */
export function importGenaiPerf(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readGenaiPerf(docs);
  if (!read.ok) return read;
  const {exp, summary, origin} = read.value;
  const invalid: PeerError[] = [];
  const points = new Map<string, LoadPoint>();
  const requests: RequestRecord[] = [];
  let model: string | null = null;
  let ignoreEos: boolean | undefined;
  let maxTokensAll: number | undefined;
  let nonStreaming = 0;
  (exp?.experiments ?? []).forEach((e, ei) => {
    const p = pointOf(e.experiment.mode, e.experiment.value);
    const existing = points.get(p.id);
    const repeat = existing ? existing.repeats : 0;
    if (existing) existing.repeats++;
    else points.set(p.id, p);
    e.requests.forEach((req, i) => {
      const {record, facts} = mapRequest(req, {experiment: ei, index: i, point: p.id, repeat, origin});
      const usage = usageError(read.value.exportName!, `$.experiments[${ei}].requests[${i}]`, record);
      if (usage) invalid.push(usage);
      requests.push(record);
      model ??= facts.model;
      if (facts.ignoreEos !== undefined) ignoreEos ??= facts.ignoreEos;
      maxTokensAll ??= facts.maxTokens ?? undefined;
      if (facts.nonStreaming === true) nonStreaming++;
    });
  });
  if (invalid.length) return {ok: false, errors: invalid};
  const lp = [...points.values()];
  const cfg = isObject(summary?.input_config) ? summary.input_config : {};
  const wall = requests.length > 0 && isWallNs(origin);
  const notes = importNotes(nonStreaming, requests.length, wall);
  const warnings = summaryWarnings(read.value.summaryName, summary);
  appendAll(notes, warnings);
  // a summary without its export: the load its input_config states
  if (lp.length === 0) lp.push(summaryPoint(cfg, notes));
  model ??= statedModel(cfg);
  const sources = lp.map((p) =>
    sourceRecord({
      tool: "genai-perf",
      toolVersion: null,
      file: read.value.summaryName ?? read.value.exportName!,
      point: p.id,
      aggregates: summary && lp.length === 1 ? jsonSafe(summary) : null,
      facts: {
        exportFile: read.value.exportName,
        summaryFile: read.value.summaryName,
        ...(summary && lp.length > 1
          ? {summaryNote: "one summary for several experiments: not attributed to a load point"}
          : {})
      }
    })
  );
  return {
    ok: true,
    value: {
      tool: "genai-perf",
      toolVersion: null,
      model,
      startedAt: wall ? isoFromEpochMs(Number(origin / 1_000_000n)) : null,
      finishedAt: null,
      clock: wall ? "wall" : "monotonic",
      originNs: origin.toString(),
      loadPoints: lp,
      requests: numberRecords(requests),
      sources: numberRecords(sources),
      workload: {
        endpoint: endpointOf(exp?.endpoint),
        ignoreEos,
        maxTokens: maxTokensAll
      },
      environment: {extra: exp?.service_kind ? {service_kind: exp.service_kind} : {}},
      labels: {imported_from: "genai-perf"},
      notes,
      ...(warnings.length ? {warnings} : {}),
      status: "complete",
      statusReason: null
    }
  };
}
