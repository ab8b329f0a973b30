import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {EventKind, RequestRecord} from "../schema/records.ts";
import {
  chunkEvents,
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestRecord,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "./build.ts";
import {
  canonicalRef,
  canonicalRun,
  exact,
  finishRow,
  missing,
  type CanonicalRef,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow
} from "./compare.ts";
import {minBig, NsInt, timeToNs} from "./numeric.ts";
import {isObject, jsonSafe, validate} from "./parse.ts";
import {numpyStat, parseStat, type Stat} from "./stats.ts";
import type {Claim, Doc, ImportedRun, PeerError, PeerFormat, Result} from "./types.ts";
import {defined, gapsOf, lastTokenOf, successes, sumOf, ttftOf} from "./views.ts";
import {max, min} from "d3-array";
import {appendAll} from "../util/append.ts";

/**
 * AIPerf `profile_export.jsonl` (one record per request: metadata, metrics {tag: {value, unit}}, error)
 * and `profile_export_aiperf.json` (aggregates), in both generations: Oct 2025 (metadata.timestamp_ns,
 * credit_phase, tags ttft/ttst, aggregates under `records`) and later (request_start_ns/request_end_ns,
 * benchmark_phase, tags time_to_first_token/…, aggregates at the top level).
 */

/** Tag aliases per generation: our key → every name a generation uses. */
const TAGS = {
  ttft: ["ttft", "time_to_first_token"],
  ttst: ["ttst", "time_to_second_token"],
  ttfo: ["ttfo", "time_to_first_output_token"],
  request_latency: ["request_latency"],
  itl: ["inter_token_latency"],
  icl: ["inter_chunk_latency"],
  isl: ["input_sequence_length"],
  osl: ["output_sequence_length"],
  output_tokens: ["output_token_count"],
  reasoning: ["reasoning_token_count"],
  min_request_ts: ["min_request_timestamp"],
  max_response_ts: ["max_response_timestamp"],
  per_user: ["output_token_throughput_per_user"]
} as const;
type Tag = keyof typeof TAGS;

const MetricValue = z.looseObject({value: z.unknown(), unit: z.string().optional()});
const Rec = z.looseObject({
  metadata: z.looseObject({
    x_request_id: z.string().nullable().optional(),
    session_num: z.number().nullable().optional(),
    timestamp_ns: NsInt.nullable().optional(),
    request_start_ns: NsInt.nullable().optional(),
    request_end_ns: NsInt.nullable().optional(),
    credit_phase: z.string().nullable().optional(),
    benchmark_phase: z.string().nullable().optional(),
    was_cancelled: z.boolean().nullable().optional()
  }),
  metrics: z.record(z.string(), MetricValue).nullable(),
  error: z
    .looseObject({
      code: z.number().nullable().optional(),
      type: z.string().nullable().optional(),
      message: z.string().nullable().optional()
    })
    .nullable()
    .optional()
});
type Rec = z.infer<typeof Rec>;

const isRecord = (v: unknown): boolean =>
  isObject(v) && isObject(v.metadata) && (v.metrics === null || isObject(v.metrics)) && "error" in v;
/** Oct-2025 aggregates sit under `records`; later ones at the top level beside AIPerf's own sections. */
export const isAiperfAggregate = (v: unknown): boolean =>
  isObject(v) &&
  ((isObject(v.records) && Object.values(v.records).some((x) => isObject(x) && "avg" in x)) ||
    (("schema_version" in v ||
      Array.isArray(v.error_summary) ||
      (isObject(v.input_config) && isObject(v.input_config.loadgen))) &&
      Object.values(v).some((x) => isObject(x) && "unit" in x && "avg" in x)));
const isAggregate = isAiperfAggregate;

function detect(docs: readonly Doc[]): Claim | null {
  const files = docs
    .filter(
      (d) =>
        (d.kind === "jsonl" && d.lines.length > 0 && d.lines.every((l) => isRecord(l.value))) ||
        (d.kind === "json" && (isAggregate(d.value) || isRecord(d.value)))
    )
    .map((d) => d.name);
  return files.length ? {tool: "aiperf", files, shape: "AIPerf profile export"} : null;
}

/** The tag's {value, unit} under any of its names. */
function tag(m: Record<string, {value: unknown; unit?: string}> | null, t: Tag): {value: unknown; unit: string} | null {
  if (!m) return null;
  for (const name of TAGS[t]) if (m[name]) return {value: m[name].value, unit: m[name].unit ?? ""};
  return null;
}
const tagNum = (m: Rec["metrics"], t: Tag): number | null => {
  const x = tag(m, t);
  return x && typeof x.value === "number" ? x.value : x && typeof x.value === "bigint" ? Number(x.value) : null;
};
const tagNs = (m: Rec["metrics"], t: Tag): number | null => {
  const x = tag(m, t);
  return x && typeof x.value === "number" ? timeToNs(x.value, x.unit || "ms") : null;
};

/** Aggregates of both generations normalised to tag → stats object. */
export function aiperfAggregates(v: unknown): Record<string, Record<string, unknown>> {
  if (!isObject(v)) return {};
  const src = isObject(v.records) ? v.records : v;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, x] of Object.entries(src)) if (isObject(x) && "avg" in x) out[k] = x;
  return out;
}

function pointFrom(agg: unknown): LoadPoint {
  const lg =
    isObject(agg) && isObject(agg.input_config) && isObject(agg.input_config.loadgen) ? agg.input_config.loadgen : {};
  const rate = typeof lg.request_rate === "number" ? lg.request_rate : null;
  const conc = typeof lg.concurrency === "number" ? lg.concurrency : null;
  if (rate !== null)
    return loadPoint(lg.request_rate_mode === "constant" ? "rate" : "poisson", rate, {maxConcurrency: conc});
  if (conc !== null)
    return loadPoint("concurrency", conc, {requests: typeof lg.request_count === "number" ? lg.request_count : null});
  return unknownPoint();
}

function importAiperf(docs: readonly Doc[]): Result<ImportedRun> {
  const errors: PeerError[] = [];
  let records: {file: string; lines: {line: number; rec: Rec}[]} | null = null;
  let aggregate: {file: string; value: Record<string, unknown>} | null = null;
  for (const d of docs) {
    if (d.kind === "jsonl" || (d.kind === "json" && isRecord(d.value))) {
      const lines = d.kind === "jsonl" ? d.lines : [{line: 1, value: d.value}];
      const out: {line: number; rec: Rec}[] = [];
      for (const l of lines) {
        const r = validate(Rec, l.value, d.name, "$", `line ${l.line} `);
        if (r.ok) out.push({line: l.line, rec: r.value});
        else appendAll(errors, r.errors);
      }
      records = {file: d.name, lines: out};
    } else if (d.kind === "json" && isAggregate(d.value))
      aggregate = {file: d.name, value: d.value as Record<string, unknown>};
    else
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
    const s = rec.metadata.request_start_ns ?? rec.metadata.timestamp_ns ?? null;
    const ms = tag(rec.metrics, "min_request_ts");
    const start = s ?? (ms && (typeof ms.value === "bigint" || typeof ms.value === "number") ? ms.value : null);
    if (start === null)
      errors.push({
        file: records!.file,
        path: `line ${line} $.metadata`,
        expected: "a request start time (request_start_ns or timestamp_ns)"
      });
    else starts.push(start as bigint | number);
  }
  if (errors.length) return {ok: false, errors};
  const origin = minBig(starts) ?? 0n;
  const point = pointFrom(aggregate?.value);
  const notes: string[] = ["AIPerf timestamps are wall-clock epoch ns (time.time_ns())"];
  let inferred = 0;
  const requests: RequestRecord[] = (records?.lines ?? []).map(({rec}, i) => {
    const m = rec.metrics;
    const md = rec.metadata;
    const start = BigInt(
      (md.request_start_ns ?? md.timestamp_ns ?? tag(m, "min_request_ts")!.value) as bigint | number
    );
    const disp = Number(start - origin);
    const phase = (md.benchmark_phase ?? md.credit_phase) === "warmup" ? "warmup" : "measure";
    const err = rec.error ?? null;
    const ttft = tagNs(m, "ttft");
    const iclRaw = tag(m, "icl");
    const icl =
      iclRaw && Array.isArray(iclRaw.value)
        ? (iclRaw.value as number[]).map((x) => timeToNs(x, iclRaw.unit || "ms")!)
        : null;
    const latency = tagNs(m, "request_latency");
    const osl = tagNum(m, "osl");
    const reasoning = tagNum(m, "reasoning");
    const ttfo = tagNs(m, "ttfo");
    const ok = err === null && ttft !== null;
    let kindOf: ((k: number) => EventKind) | undefined;
    if (ok && icl) {
      const times: number[] = [ttft];
      for (const g of icl) times.push(times.at(-1)! + g);
      if (ttfo !== null) kindOf = (k) => (times[k]! < ttfo ? "reasoning" : "content");
      else if (reasoning && osl !== null && icl.length + 1 === osl) {
        inferred++;
        kindOf = (k) => (k < reasoning ? "reasoning" : "content");
      }
    }
    const events = !ok
      ? []
      : icl
        ? chunkEvents(disp + ttft, icl, kindOf)
        : latency !== null && latency > ttft
          ? [tokenEvent(disp + ttft), tokenEvent(disp + latency)]
          : [tokenEvent(disp + ttft)];
    const cancelled = err !== null && (err.code === 499 || /cancel/i.test(err.type ?? "") || md.was_cancelled === true);
    return requestRecord({
      id: md.x_request_id ?? `r${i}`,
      point: point.id,
      index: i,
      phase,
      timeBase: "run",
      tDispNs: disp,
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
        reasoningTokens: ok ? reasoning : null,
        cachedTokens: null
      },
      usageSource: osl === null ? "none" : "client_tokenizer",
      nullReasons: {
        tEndNs: "AIPerf records the last response, not the stream close",
        tSchedNs: "AIPerf records send times only"
      }
    });
  });
  if (inferred > 0)
    notes.push(
      `chunk channels are not recorded: in ${inferred} requests with one token per chunk the first reasoning_token_count chunks are taken as reasoning (reasoning streams before content)`
    );
  const agg = aggregate?.value;
  const version = isObject(agg) && typeof agg.schema_version === "string" ? agg.schema_version : null;
  const model =
    isObject(agg) &&
    isObject(agg.input_config) &&
    isObject(agg.input_config.endpoint) &&
    Array.isArray(agg.input_config.endpoint.model_names)
      ? String(agg.input_config.endpoint.model_names[0])
      : null;
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
      startedAt: isObject(agg) && typeof agg.start_time === "string" ? isoFromLocal(agg.start_time) : null,
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
            recordsFile: records?.file ?? null,
            aggregateFile: aggregate?.file ?? null,
            generation: isObject(agg) && isObject(agg.records) ? "2025-10" : agg ? "later" : null
          }
        })
      ]),
      workload: {
        endpoint: ep.type === "chat" ? "chat" : ep.type === "completions" ? "completions" : undefined,
        maxTokens: typeof prompt.mean === "number" ? prompt.mean : undefined
      },
      environment: {extra: {}},
      labels: {imported_from: "aiperf"},
      notes: [
        ...notes,
        ...(isObject(agg) && typeof agg.start_time === "string" ? ["start_time carries no time zone; read as UTC"] : [])
      ],
      status: isObject(agg) && agg.was_cancelled === true ? "interrupted" : "complete",
      statusReason: isObject(agg) && agg.was_cancelled === true ? "the AIPerf run was cancelled" : null
    }
  };
}

// ---------------------------------------------------------------------------------------------------

type Family =
  | "ttft"
  | "ttst"
  | "request_latency"
  | "inter_token_latency"
  | "inter_chunk_latency"
  | "output_sequence_length"
  | "input_sequence_length"
  | "reasoning_token_count"
  | "output_token_throughput_per_user";

/** Per-request (or per-chunk) values of AIPerf's own metrics from the imported records, ms or tokens. */
export function aiperfValues(family: Family, ok: readonly DerivedRequest[]): number[] {
  switch (family) {
    case "ttft":
      return defined(ok.map(ttftOf));
    case "ttst":
      return defined(ok.map((r) => gapsOf(r)[0] ?? null));
    case "request_latency":
      return defined(ok.map(lastTokenOf));
    case "inter_chunk_latency":
      return ok.flatMap(gapsOf);
    case "output_sequence_length":
      return defined(ok.map((r) => r.out));
    case "input_sequence_length":
      return defined(ok.map((r) => r.in));
    case "reasoning_token_count":
      return defined(ok.map((r) => r.record.usage?.reasoningTokens ?? null));
    case "inter_token_latency":
    case "output_token_throughput_per_user":
      return defined(
        ok.map((r) => {
          const l = lastTokenOf(r);
          const t = ttftOf(r);
          if (l === null || t === null || r.out === null || r.out < 2) return null;
          const itl = (l - t) / (r.out - 1);
          return family === "inter_token_latency" ? itl : 1000 / itl;
        })
      );
  }
}

/** AIPerf's statistic: numpy R-7 percentiles, population std (the Oct-2025 example's convention). */
export function recomputeAiperf(family: Family, stat: Stat, requests: readonly DerivedRequest[]) {
  const ok = successes(requests).filter((r) => r.record.phase === "measure");
  return exact(numpyStat(aiperfValues(family, ok), stat, 0));
}

const DEF: Record<Family, string> = {
  ttft: "first response with content (reasoning included) − request start",
  ttst: "second response − first response",
  request_latency: "last response − request start",
  inter_token_latency: "(request_latency − ttft)/(OSL − 1) per request",
  inter_chunk_latency: "gaps between responses, pooled (chunk-weighted)",
  output_sequence_length: "output tokens incl. reasoning (OSL)",
  input_sequence_length: "prompt tokens (ISL)",
  reasoning_token_count: "reasoning tokens",
  output_token_throughput_per_user: "1000 / inter_token_latency per request"
};

function canonicalFor(
  v: ComparisonInput["canonical"],
  f: Family,
  stat: Stat
): {ref: CanonicalRef | null; codes: ReasonCode[]; why: string} {
  const pm: ReasonCode[] = typeof stat === "object" ? ["percentile_method"] : [];
  const why = "numpy R-7 percentiles vs our nearest rank (with small-n withholding)";
  switch (f) {
    case "ttft":
      return {ref: canonicalRef(v, "ttft_ms", stat), codes: pm, why};
    case "request_latency":
      return {ref: canonicalRef(v, "e2e_ms", stat), codes: pm, why};
    case "inter_token_latency":
      return {ref: canonicalRef(v, "itl_ms", stat), codes: pm, why};
    case "inter_chunk_latency":
      return {ref: canonicalRef(v, "inter_chunk_ms", stat), codes: pm, why};
    case "output_sequence_length":
      return {ref: canonicalRef(v, "output_tokens", stat), codes: pm, why};
    case "input_sequence_length":
      return {ref: canonicalRef(v, "input_tokens", stat), codes: pm, why};
    case "output_token_throughput_per_user":
      return {ref: canonicalRef(v, "interactivity_tok_s", stat), codes: pm, why};
    default:
      return {ref: null, codes: [], why: ""};
  }
}

const FAMILIES = Object.keys(DEF) as Family[];
const aliasOf = (name: string): Family | null => {
  for (const f of FAMILIES) if (f === name) return f;
  if (name === "time_to_first_token") return "ttft";
  if (name === "time_to_second_token") return "ttst";
  return null;
};

export function compareAiperf(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aiperfAggregates(source.aggregates);
  const point = source.point;
  const rows: SourceComparisonRow[] = [];
  const have = requests.length > 0;
  const measured = requests.filter((r) => r.record.phase === "measure");
  const ok = successes(measured);
  const pick = (k: string) => (typeof agg[k]?.avg === "number" ? (agg[k]!.avg as number) : null);
  const names = Object.keys(agg).length
    ? Object.keys(agg)
    : have
      ? ["ttft", "request_latency", "inter_token_latency", "inter_chunk_latency"]
      : [];
  for (const name of names) {
    const family = aliasOf(name);
    if (!family) continue;
    const stats = agg[name] ?? {avg: null, p50: null, p99: null};
    for (const [label, value] of Object.entries(stats)) {
      const stat = parseStat(label);
      if (stat === null || label === "count") continue;
      const c = canonicalFor(canonical, family, stat);
      rows.push(
        finishRow({
          point,
          metric: `${name}.${label}`,
          definition: `${DEF[family]}; numpy R-7, population std`,
          unit: typeof stats.unit === "string" ? stats.unit : "",
          reported: typeof value === "number" ? value : null,
          recomputed: have ? recomputeAiperf(family, stat, requests) : missing("no profile_export.jsonl records"),
          canonical: c.ref,
          codes: c.codes,
          why: c.why
        })
      );
    }
  }
  const lastTok = ok.map((r) => r.tTokN).filter((t): t is number => t !== null);
  const firstDisp = ok.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const duration = lastTok.length && firstDisp.length ? (max(lastTok)! - min(firstDisp)!) / 1e9 : null;
  const sumOsl = ok.every((r) => r.out !== null) ? sumOf(ok.map((r) => r.out!)) : null;
  const sumReasoning = ok.every((r) => r.record.usage?.reasoningTokens != null)
    ? sumOf(ok.map((r) => r.record.usage!.reasoningTokens!))
    : null;
  const counts: [string, string, number | null, string, ReturnType<typeof canonicalRun>, ReasonCode[], string?][] = [
    ["request_count", "successful requests", ok.length, "requests", null, []],
    ["error_request_count", "requests that ended with an error", measured.length - ok.length, "requests", null, []],
    [
      "benchmark_duration",
      "max response timestamp − min request timestamp, s",
      duration,
      "sec",
      canonicalRun(canonical, "window_s"),
      ["window"],
      "our window starts at the first measured request (failed ones included)"
    ],
    [
      "request_throughput",
      "successful requests / benchmark_duration",
      duration ? ok.length / duration : null,
      "requests/sec",
      canonicalRun(canonical, "request_throughput_rps"),
      ["window"],
      "measured over our window"
    ],
    [
      "output_token_throughput",
      "Σ OSL (reasoning included) / benchmark_duration",
      duration && sumOsl !== null ? sumOsl / duration : null,
      "tokens/sec",
      canonicalRun(canonical, "output_throughput_tok_s"),
      ["window"],
      "measured over our window"
    ],
    ["total_osl", "Σ output sequence length (answer + reasoning)", sumOsl, "tokens", null, []],
    ["total_reasoning_tokens", "Σ reasoning tokens", sumReasoning, "tokens", null, []],
    [
      "total_output_tokens",
      "Σ answer tokens (reasoning excluded)",
      sumOsl !== null && sumReasoning !== null ? sumOsl - sumReasoning : null,
      "tokens",
      null,
      ["token_source"]
    ],
    [
      "total_isl",
      "Σ input sequence length",
      ok.every((r) => r.in !== null) ? sumOf(ok.map((r) => r.in!)) : null,
      "tokens",
      null,
      []
    ]
  ];
  for (const [metric, definition, value, unit, ref, codes, why] of counts) {
    if (!(metric in agg) && !have) continue;
    rows.push(
      finishRow({
        point,
        metric,
        definition,
        unit,
        reported: pick(metric),
        recomputed: !have ? missing("no profile_export.jsonl records") : exact(value),
        canonical: ref,
        codes,
        why
      })
    );
  }
  return rows;
}

export const aiperf: PeerFormat = {
  tool: "aiperf",
  expected:
    "AIPerf: profile_export.jsonl (one JSON record per line with metadata, metrics {tag: {value, unit}} and error) and/or profile_export_aiperf.json (aggregates)",
  detect,
  import: importAiperf
};
