import {max} from "d3-array";

import type {EventKind, RequestRecord, SourceRequestCounts, SseEvent} from "../../schema/records.ts";
import type {LoadPoint} from "../../schema/manifest.ts";
import {appendAll} from "../../util/append.ts";
import {
  chunkEvents,
  isoFromEpochMs,
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestCounts,
  requestRecord,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "../shared/build.ts";
import {minBig, timeToNs} from "../shared/numeric.ts";
import {isObject, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {
  aggregateErrors,
  aiperfAggregates,
  isAiperfAggregate,
  isAiperfRecord,
  Rec,
  recordError,
  startOf,
  tag,
  tagNs,
  tagNum
} from "./format.ts";
import {aggregateWarnings} from "./consistency.ts";
import {telemetryEnvironment} from "./telemetry.ts";

/** The profiling phase of a newer `input_config` (`phases[]`), or the older `loadgen` section. */
function loadgenOf(agg: unknown): Record<string, unknown> {
  if (!isObject(agg) || !isObject(agg.input_config)) return {};
  const ic = agg.input_config;
  if (isObject(ic.loadgen)) return ic.loadgen;
  if (Array.isArray(ic.phases)) {
    const phases = ic.phases.filter(isObject);
    const profiling = phases.find((p) => p.name === "profiling") ?? phases.find((p) => p.exclude_from_results !== true);
    if (profiling) return {...profiling, request_count: profiling.requests, request_rate_mode: profiling.rate_mode};
  }
  return {};
}

/** Warmup requests the run was configured with (older `loadgen.warmup_request_count`, newer warmup phase). */
function warmupOf(agg: unknown): number {
  if (!isObject(agg) || !isObject(agg.input_config)) return 0;
  const ic = agg.input_config;
  if (isObject(ic.loadgen) && typeof ic.loadgen.warmup_request_count === "number")
    return ic.loadgen.warmup_request_count;
  const w = Array.isArray(ic.phases) ? ic.phases.find((p) => isObject(p) && p.name === "warmup") : null;
  return isObject(w) && typeof w.requests === "number" ? w.requests : 0;
}

/**
 * The aggregate's request counts: request_count counts the successful requests and error_request_count the
 * failed ones (a request AIPerf cancels on purpose is one); a file without error_request_count had none only
 * where its error_summary is an empty list. A run stopped by request count waits for every request; one with
 * a benchmark duration drops the responses still pending after its grace period, uncounted (AIPerf's
 * time-based benchmarking docs), so its incomplete requests are unknown.
 */
function aggregateCounts(agg: unknown): SourceRequestCounts {
  const stats = aiperfAggregates(agg);
  const count = (t: string) => stats[t]?.avg;
  const noErrors = isObject(agg) && Array.isArray(agg.error_summary) && agg.error_summary.length === 0;
  const lg = loadgenOf(agg);
  const byCount = typeof lg.request_count === "number" && lg.benchmark_duration == null && lg.duration == null;
  return requestCounts(
    count("request_count"),
    count("error_request_count") ?? (noErrors ? 0 : null),
    byCount ? 0 : null
  );
}

function pointFrom(agg: unknown): LoadPoint {
  const lg = loadgenOf(agg);
  const rate = typeof lg.request_rate === "number" ? lg.request_rate : null;
  const conc = typeof lg.concurrency === "number" ? lg.concurrency : null;
  const requests = typeof lg.request_count === "number" ? lg.request_count : null;
  const warmup = warmupOf(agg);
  if (rate !== null)
    return loadPoint(lg.request_rate_mode === "constant" ? "rate" : "poisson", rate, {
      maxConcurrency: conc,
      requests,
      warmup
    });
  if (conc !== null) return loadPoint("concurrency", conc, {requests, warmup});
  return unknownPoint({warmup});
}

/** The model: older `endpoint.model_names`, newer `models.items[].name`, else the command line's --model. */
function modelOf(agg: unknown): string | null {
  if (!isObject(agg)) return null;
  const ic = isObject(agg.input_config) ? agg.input_config : {};
  if (isObject(ic.endpoint) && Array.isArray(ic.endpoint.model_names) && ic.endpoint.model_names.length)
    return String(ic.endpoint.model_names[0]);
  if (isObject(ic.models) && Array.isArray(ic.models.items)) {
    const first = ic.models.items.find((m) => isObject(m) && typeof m.name === "string");
    if (isObject(first)) return first.name as string;
  }
  const cli = isObject(agg.run_info) && typeof agg.run_info.cli_command === "string" ? agg.run_info.cli_command : "";
  const m = /--model(?:-names?)?[ =]+(?:'([^']+)'|"([^"]+)"|(\S+))/.exec(cli);
  return m ? (m[1] ?? m[2] ?? m[3]!) : null;
}

interface Inputs {
  records: {file: string; lines: {line: number; rec: Rec}[]} | null;
  aggregate: {file: string; value: Record<string, unknown>} | null;
  /** The earliest request start: time 0 of the records. */
  origin: bigint;
}

/** The records file and the aggregates file, validated record by record; every request needs a start time. */
function readAiperf(docs: readonly Doc[]): Result<Inputs> {
  const errors: PeerError[] = [];
  let records: {file: string; lines: {line: number; rec: Rec}[]} | null = null;
  let aggregate: {file: string; value: Record<string, unknown>} | null = null;
  for (const d of docs) {
    if (d.kind === "jsonl" || (d.kind === "json" && isAiperfRecord(d.value))) {
      const lines = d.kind === "jsonl" ? d.lines : [{line: 1, value: d.value}];
      const out: {line: number; rec: Rec}[] = [];
      for (const l of lines) {
        const r = validate(Rec, l.value, d.name, "$", `line ${l.line} `);
        if (r.ok) out.push({line: l.line, rec: r.value});
        else appendAll(errors, r.errors);
      }
      records = {file: d.name, lines: out};
    } else if (d.kind === "json" && isAiperfAggregate(d.value)) {
      aggregate = {file: d.name, value: d.value as Record<string, unknown>};
      appendAll(errors, aggregateErrors(d.name, d.value));
    } else
      errors.push({
        file: d.name,
        path: "$",
        expected:
          "an AIPerf profile_export.jsonl (records with metadata, metrics {tag: {value, unit}}, error) or profile_export_aiperf.json (records{} or top-level {unit, avg, …} metrics)"
      });
  }
  if (!records && !aggregate) errors.push({file: docs[0]?.name ?? "(none)", path: "$", expected: "AIPerf files"});
  const starts: (bigint | number)[] = [];
  for (const {line, rec} of records?.lines ?? []) {
    const start = startOf(rec);
    if (start === null)
      errors.push({
        file: records!.file,
        path: `line ${line} $.metadata`,
        expected: "a request start time (request_start_ns or timestamp_ns)"
      });
    else if (typeof start.value === "number" && !(Number.isInteger(start.value) && start.value >= 0))
      errors.push({
        file: records!.file,
        path: `line ${line} $${start.key}`,
        expected: `a request start in epoch ns (a whole number ≥ 0), got ${start.value}`
      });
    else starts.push(start.value);
  }
  if (errors.length) return {ok: false, errors};
  return {ok: true, value: {records, aggregate, origin: minBig(starts) ?? 0n}};
}

/**
 * The events of a successful record: one per chunk from ttft and the chunk gaps when AIPerf kept them
 * (channels from the first output token's time, or inferred from the reasoning count), else first and last.
 */
function eventsOf(
  m: Rec["metrics"],
  disp: number,
  ttft: number,
  counts: {inferred: number}
): {events: SseEvent[]; icl: number[] | null} {
  const iclRaw = tag(m, "icl");
  const icl =
    iclRaw && Array.isArray(iclRaw.value)
      ? (iclRaw.value as number[]).map((x) => timeToNs(x, iclRaw.unit || "ms")!)
      : null;
  const latency = tagNs(m, "request_latency");
  if (!icl) {
    const last = latency !== null && latency > ttft ? [tokenEvent(disp + latency)] : [];
    return {events: [tokenEvent(disp + ttft), ...last], icl};
  }
  const osl = tagNum(m, "osl");
  const reasoning = tagNum(m, "reasoning");
  const ttfo = tagNs(m, "ttfo");
  let kindOf: ((k: number) => EventKind) | undefined;
  const times: number[] = [ttft];
  for (const g of icl) times.push(times.at(-1)! + g);
  if (ttfo !== null) kindOf = (k) => (times[k]! < ttfo ? "reasoning" : "content");
  else if (reasoning && osl !== null && icl.length + 1 === osl) {
    counts.inferred++;
    kindOf = (k) => (k < reasoning ? "reasoning" : "content");
  }
  return {events: chunkEvents(disp + ttft, icl, kindOf), icl};
}

/**
 * One profile_export record as a request record. `counts.inferred` counts requests whose chunk channels
 * were inferred from the reasoning token count (reported once in the notes).
 */
function mapRecord(
  rec: Rec,
  i: number,
  origin: bigint,
  point: string,
  openLoop: boolean,
  counts: {inferred: number}
): RequestRecord {
  const m = rec.metrics;
  const md = rec.metadata;
  const start = BigInt(startOf(rec)!.value);
  const disp = Number(start - origin);
  const rel = (t: bigint | number | null | undefined): number | null => (t == null ? null : Number(BigInt(t) - origin));
  const phase = (md.benchmark_phase ?? md.credit_phase) === "warmup" ? "warmup" : "measure";
  const err = rec.error ?? null;
  const ttft = tagNs(m, "ttft");
  const ok = err === null && ttft !== null;
  const {events, icl} = ok ? eventsOf(m, disp, ttft, counts) : {events: [], icl: null};
  const osl = tagNum(m, "osl");
  const cancelled = err !== null && (err.code === 499 || /cancel/i.test(err.type ?? "") || md.was_cancelled === true);
  return requestRecord({
    id: md.x_request_id ?? `r${i}`,
    point,
    index: i,
    phase,
    timeBase: "run",
    // AIPerf's credit is the schedule's release of a request (open loop: its planned send time)
    tSchedNs: openLoop ? rel(md.credit_issued_ns) : null,
    tDispNs: disp,
    tHdrNs: rel(md.request_ack_ns),
    // the request's end: the stream's close, or the time of its error (AIPerf's MetricRecordMetadata)
    tEndNs: rel(md.request_end_ns),
    events,
    eventCoverage: icl || !ok ? "token_chunks" : "first_last",
    httpStatus: ok ? 200 : !cancelled && err?.code != null && err.code >= 100 && err.code < 600 ? err.code : null,
    transportError: ok
      ? null
      : cancelled
        ? "client_abort"
        : err?.code != null && err.code >= 100 && err.code < 600
          ? null
          : "other",
    errorMessage: err
      ? `${err.type ?? "error"}: ${err.message ?? ""}`.slice(0, 4096)
      : ok
        ? null
        : "no first token recorded",
    usage: {
      promptTokens: tagNum(m, "isl"),
      completionTokens: ok ? osl : null,
      reasoningTokens: ok ? tagNum(m, "reasoning") : null,
      cachedTokens: null
    },
    usageSource: osl === null ? "none" : "client_tokenizer",
    nullReasons: {
      ...(md.request_end_ns == null
        ? {tEndNs: "this AIPerf generation records no request end (request_end_ns), only the last response"}
        : {}),
      ...(openLoop && md.credit_issued_ns != null
        ? {}
        : {tSchedNs: openLoop ? "AIPerf recorded no credit_issued_ns" : "closed loop: no schedule"}),
      ...(md.request_ack_ns == null ? {tHdrNs: "AIPerf recorded no request_ack_ns"} : {})
    }
  });
}

/** What the records say about the run that the numbers alone do not: warmups kept, multi-turn replays. */
function recordNotes(recs: readonly Rec[], requests: readonly RequestRecord[]): string[] {
  const notes: string[] = [];
  const warmups = requests.filter((r) => r.phase === "warmup").length;
  if (warmups > 0)
    notes.push(`${warmups} warmup records (benchmark_phase warmup) kept as warmup, outside the measured set`);
  const turns = recs.filter((r) => (r.metadata.turn_index ?? 0) > 0).length;
  const depth = max(recs, (r) => r.metadata.agent_depth ?? 0) ?? 0;
  if (turns > 0 || depth > 0)
    notes.push(
      `multi-turn replay: ${turns} records are later turns of a conversation${depth > 0 ? `, agent depth up to ${depth}` : ""}; each turn is one request here, and its TTFT counts from that turn's own start`
    );
  return notes;
}

/** The first problem of each record a request is built from (format.ts recordError). */
const recordErrors = (records: Inputs["records"], origin: bigint, openLoop: boolean): PeerError[] =>
  (records?.lines ?? [])
    .map(({line, rec}) => recordError(records!.file, line, rec, {origin, openLoop, start: startOf(rec)!}))
    .filter((e) => e !== null);

const inferredNote = (n: number): string =>
  `chunk channels are not recorded: in ${n} requests with one token per chunk the first reasoning_token_count chunks are taken as reasoning (reasoning streams before content)`;

/** Maps AIPerf's records and aggregates to one imported run (one load point: AIPerf profiles one). */
export function importAiperf(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readAiperf(docs);
  if (!read.ok) return read;
  const {records, aggregate, origin} = read.value;
  const point = pointFrom(aggregate?.value);
  const notes: string[] = ["AIPerf timestamps are wall-clock epoch ns (time.time_ns())"];
  const counts = {inferred: 0};
  const openLoop = point.mode !== "concurrency";
  const invalid = recordErrors(records, origin, openLoop);
  if (invalid.length) return {ok: false, errors: invalid};
  const requests: RequestRecord[] = (records?.lines ?? []).map(({rec}, i) =>
    mapRecord(rec, i, origin, point.id, openLoop, counts)
  );
  appendAll(notes, recordNotes(records?.lines.map((l) => l.rec) ?? [], requests));
  if (counts.inferred > 0) notes.push(inferredNote(counts.inferred));
  const warnings = aggregateWarnings(aggregate);
  appendAll(notes, warnings);
  const agg = aggregate?.value;
  const schema = isObject(agg) && typeof agg.schema_version === "string" ? agg.schema_version : null;
  const aiperfVersion = isObject(agg) && typeof agg.aiperf_version === "string" ? agg.aiperf_version : null;
  const version = aiperfVersion ?? (schema ? `schema ${schema}` : null);
  const model = modelOf(agg);
  const ep =
    isObject(agg) && isObject(agg.input_config) && isObject(agg.input_config.endpoint) ? agg.input_config.endpoint : {};
  const osl =
    isObject(agg) && isObject(agg.input_config) && isObject(agg.input_config.input) ? agg.input_config.input : {};
  const prompt = isObject(osl.prompt) && isObject(osl.prompt.output_tokens) ? osl.prompt.output_tokens : {};
  return {
    ok: true,
    value: {
      tool: "aiperf",
      toolVersion: version,
      model,
      // the records' epoch ns are UTC; the aggregate's start_time is the host's local time without a zone
      startedAt: records?.lines.length
        ? isoFromEpochMs(Number(origin / 1_000_000n))
        : isObject(agg) && typeof agg.start_time === "string"
          ? isoFromLocal(agg.start_time)
          : null,
      finishedAt: isObject(agg) && typeof agg.end_time === "string" ? isoFromLocal(agg.end_time) : null,
      clock: "wall",
      originNs: origin.toString(),
      loadPoints: [point],
      requests: numberRecords(requests),
      sources: numberRecords([
        sourceRecord({
          tool: "aiperf",
          toolVersion: version,
          file: aggregate?.file ?? records!.file,
          point: point.id,
          aggregates: agg ? jsonSafe(agg) : null,
          facts: {
            ...(agg ? {requestCounts: aggregateCounts(agg)} : {}),
            recordsFile: records?.file ?? null,
            aggregateFile: aggregate?.file ?? null,
            generation: isObject(agg) && isObject(agg.records) ? "2025-10" : agg ? "later" : null,
            schemaVersion: schema,
            aiperfVersion,
            warmupMetrics: isObject(agg) && isObject(agg.warmup_metrics)
          }
        })
      ]),
      workload: {
        endpoint: ep.type === "chat" ? "chat" : ep.type === "completions" ? "completions" : undefined,
        maxTokens: typeof prompt.mean === "number" ? prompt.mean : undefined
      },
      environment: telemetryEnvironment(agg, notes),
      labels: {imported_from: "aiperf"},
      notes: [
        ...notes,
        ...(isObject(agg) && typeof agg.start_time === "string" && !records?.lines.length
          ? ["start_time carries no time zone (AIPerf writes the host's local time); read as UTC"]
          : [])
      ],
      status: isObject(agg) && agg.was_cancelled === true ? "interrupted" : "complete",
      statusReason: isObject(agg) && agg.was_cancelled === true ? "the AIPerf run was cancelled" : null,
      ...(warnings.length ? {warnings} : {})
    }
  };
}
