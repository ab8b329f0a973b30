import {min} from "d3-array";
import type {z} from "zod";

import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {
  isoFromEpochS,
  loadPoint,
  numberRecords,
  requestCounts,
  requestRecord,
  sToNs,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "../shared/build.ts";
import {derivedFieldErrors, ttftDisagreement} from "./derivedFields.ts";
import {requestTimeError, type RequestTime} from "../shared/numeric.ts";
import {isObject, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {
  generationOf,
  inWindow,
  isGuidellm,
  Report,
  reportValue,
  Req,
  timesOf,
  totalsOf,
  windowOf,
  type Benchmark,
  type Times
} from "./format.ts";

function pointOf(b: Benchmark): LoadPoint {
  const s = b.config?.strategy;
  const type = s?.type_ ?? "unknown";
  if ((type === "constant" || type === "poisson") && s?.rate)
    return loadPoint(type === "constant" ? "rate" : "poisson", s.rate);
  if (type === "synchronous") return loadPoint("concurrency", 1);
  const c = s?.streams ?? s?.max_concurrency ?? null;
  return c === null ? unknownPoint() : loadPoint("concurrency", c);
}

const body = (args: unknown): Record<string, unknown> => {
  let a = args;
  if (typeof a === "string") {
    try {
      a = JSON.parse(a);
    } catch {
      return {};
    }
  }
  return isObject(a) && isObject(a.body) ? a.body : {};
};

type Kind = "successful" | "errored" | "incomplete";
interface Listed {
  r: Req;
  b: number;
  kind: Kind;
  i: number;
}

/** The report and every listed request, each validated on its own and required to carry its timings. */
function readGuidellm(docs: readonly Doc[]): Result<{file: string; report: z.infer<typeof Report>; all: Listed[]}> {
  const errors: PeerError[] = [];
  const doc = docs.find((d) => isGuidellm(reportValue(d)));
  for (const d of docs)
    if (d !== doc)
      errors.push({
        file: d.name,
        path: "$",
        expected: "one GuideLLM benchmarks.json or .yaml (an object with benchmarks[] of generative benchmarks)"
      });
  if (!doc) return {ok: false, errors};
  const parsed = validate(Report, reportValue(doc), doc.name);
  if (!parsed.ok) return {ok: false, errors: [...errors, ...parsed.errors]};
  const report = parsed.value;
  const all: Listed[] = [];
  report.benchmarks.forEach((b, bi) => {
    for (const kind of ["successful", "errored", "incomplete"] as const)
      (b.requests[kind] ?? []).forEach((raw, i) => {
        const v = validate(Req, raw, doc.name, `$.benchmarks[${bi}].requests.${kind}[${i}]`);
        if (!v.ok) return void appendAll(errors, v.errors);
        appendAll(errors, derivedFieldErrors(doc.name, `$.benchmarks[${bi}].requests.${kind}[${i}]`, raw));
        const r = v.value;
        if (timesOf(r) === null)
          errors.push({
            file: doc.name,
            path: `$.benchmarks[${bi}].requests.${kind}[${i}]`,
            expected: "per-request timings: info.timings.request_start (GuideLLM ≥ 0.5) or start_time (older)"
          });
        else all.push({r, b: bi, kind, i});
      });
  });
  if (errors.length) return {ok: false, errors};
  return {ok: true, value: {file: doc.name, report, all}};
}

/**
 * A listed request's times as its record holds them (targeted start where the point is open-loop, start, first and
 * last token iteration of a success, end), checked by the rule every importer's times obey (shared/numeric.ts):
 * on the run's ns clock from the earliest request start, and in order — a first token before its request's start
 * is an error naming both, not a clock regression sealed into the bundle.
 */
function listedTimeError(file: string, {r, b, kind, i}: Listed, openLoop: boolean, rel: (t: number) => number) {
  const t = timesOf(r)!;
  const ok = kind === "successful" && t.first !== null;
  const at = (k: keyof Times["at"], what: string, v: number | null): RequestTime | null =>
    v === null ? null : {path: `$.benchmarks[${b}].requests.${kind}[${i}]${t.at[k]}`, what, value: v, ns: rel(v)};
  return requestTimeError(file, "s", "the earliest request start in the file", [
    openLoop ? at("targeted", "a targeted start", t.targeted) : null,
    at("start", "a request start", t.start),
    ok ? at("first", "a first token iteration", t.first) : null,
    ok && t.last !== null && rel(t.last) > rel(t.first!) ? at("last", "a last token iteration", t.last) : null,
    at("end", "a request end", t.end)
  ]);
}

/** One listed request as a request record; times are epoch seconds, `rel` puts them on the run's ns clock. */
function mapRequest(
  {r, b, kind, i}: Listed,
  p: LoadPoint,
  repeat: number,
  rel: (t: number | null) => number | null,
  preferResponse: boolean,
  phase: "warmup" | "measure" | "cooldown"
): RequestRecord {
  const t = timesOf(r)!;
  const ok = kind === "successful" && t.first !== null;
  const first = rel(t.first);
  const last = rel(t.last);
  const events = ok
    ? last !== null && last > first!
      ? [tokenEvent(first!), tokenEvent(last)]
      : [tokenEvent(first!)]
    : [];
  const args = body(r.request_args);
  const err = r.info?.error ?? r.error ?? null;
  return requestRecord({
    id: r.request_id ?? `b${b}-${kind}-${i}`,
    point: p.id,
    repeat,
    index: i,
    phase,
    timeBase: "run",
    tSchedNs: p.mode === "concurrency" ? null : rel(t.targeted),
    tDispNs: rel(t.start),
    tEndNs: rel(t.end),
    events,
    eventCoverage: "first_last",
    httpStatus: ok ? 200 : null,
    transportError: ok ? null : kind === "incomplete" ? "client_abort" : "other",
    errorMessage: ok
      ? null
      : (typeof err === "string" && err
          ? err
          : kind === "incomplete"
            ? "incomplete at the end of the benchmark"
            : "errored"
        ).slice(0, 4096),
    usage: {
      promptTokens: r.prompt_tokens ?? null,
      completionTokens: ok ? (r.output_tokens ?? null) : null,
      reasoningTokens: null,
      cachedTokens: null
    },
    usageSource: r.output_tokens == null ? "none" : preferResponse ? "server_final" : "client_tokenizer",
    maxTokens: typeof args.max_tokens === "number" ? args.max_tokens : null,
    ...(typeof r.output === "string" ? {responseText: r.output} : {}),
    nullReasons: {tHdrNs: "GuideLLM keeps no header time"}
  });
}

const KINDS = ["successful", "errored", "incomplete"] as const;
type Counts = Record<Kind, number>;
interface Sample {
  stored: Counts;
  inWindow: Counts;
  /** Statuses whose stored in-window requests are fewer than GuideLLM counted: a sample was stored. */
  sampled: Kind[];
  totals: Partial<Counts>;
  sampleSize: number | null;
}

/**
 * What one benchmark stores against what it counted. GuideLLM may store a sample of its requests
 * (--sample-requests / sample_size; 0.3 says so in request_samples, later versions nowhere) while its metrics
 * cover every request in the measured window: where the stored in-window requests of a status are fewer
 * than request_totals says, that status was sampled and its numbers cannot be recomputed from the file.
 */
function sampleOf(b: Benchmark, all: readonly Listed[], phases: readonly string[], bi: number): Sample {
  const stored: Counts = {successful: 0, errored: 0, incomplete: 0};
  const inside: Counts = {successful: 0, errored: 0, incomplete: 0};
  all.forEach((x, k) => {
    if (x.b !== bi) return;
    stored[x.kind]++;
    if (phases[k] === "measure") inside[x.kind]++;
  });
  const t = totalsOf(b) ?? {};
  const totals: Partial<Counts> = {};
  for (const k of KINDS) if (typeof t[k] === "number") totals[k] = t[k];
  const sampled = KINDS.filter((k) => totals[k] !== undefined && inside[k] < totals[k]!);
  const size = b.config?.sample_size ?? b.config?.sample_requests ?? null;
  return {stored, inWindow: inside, sampled, totals, sampleSize: size};
}

function sampleNotes(bi: number, s: Sample, w: {start: number; end: number} | null): string[] {
  const notes: string[] = [];
  const stored = KINDS.reduce((n, k) => n + s.stored[k], 0);
  const inside = KINDS.reduce((n, k) => n + s.inWindow[k], 0);
  if (w && inside < stored)
    notes.push(
      `benchmark ${bi}: ${stored} requests stored, ${inside} inside GuideLLM's measured window (scheduler_metrics.measure_start_time…measure_end_time, ${(w.end - w.start).toFixed(3)} s); the ${stored - inside} outside are its warmup/cooldown, kept as such and not measured`
    );
  for (const k of s.sampled)
    notes.push(
      `benchmark ${bi}: a sample — ${s.inWindow[k]} of ${s.totals[k]} ${k} requests are stored${s.sampleSize ? ` (sample size ${s.sampleSize})` : ""}; GuideLLM's numbers cover all ${s.totals[k]} and are kept as reported, not recomputable from the sample`
    );
  return notes;
}

/**
 * Maps a GuideLLM report (one load point per benchmark) to one imported run. Long because it reads as
 * the mapping, field by field: benchmarks → points and source records, requests, notes, workload.
 */
// eslint-disable-next-line max-lines-per-function -- the mapping, field by field (see above)
export function importGuidellm(docs: readonly Doc[]): Result<ImportedRun> {
  const read = readGuidellm(docs);
  if (!read.ok) return read;
  const {file, report, all} = read.value;
  const origin = min(all, (x) => timesOf(x.r)!.start) ?? 0;
  const rel = (t: number | null) => (t === null ? null : sToNs(t - origin));
  const timeErrors = all
    .map((x) => listedTimeError(file, x, pointOf(report.benchmarks[x.b]!).mode !== "concurrency", (t) => rel(t)!))
    .filter((e) => e !== null);
  if (timeErrors.length) return {ok: false, errors: timeErrors};
  const points = new Map<string, LoadPoint>();
  const pointIds: string[] = [];
  const sources: SourceRecord[] = [];
  const generation = generationOf(report);
  const version = report.metadata?.guidellm_version ?? null;
  const windows = report.benchmarks.map((b) => windowOf(b, generation));
  const phases = all.map((x) => inWindow(timesOf(x.r)!, windows[x.b]!));
  const samples = report.benchmarks.map((b, bi) => sampleOf(b, all, phases, bi));
  report.benchmarks.forEach((b, bi) => {
    const p = pointOf(b);
    const existing = points.get(p.id);
    if (existing) existing.repeats++;
    else points.set(p.id, p);
    pointIds.push(p.id);
    const {requests: _reqs, ...aggregates} = b as Record<string, unknown>;
    const listed = b.requests.successful.length;
    sources.push(
      sourceRecord({
        tool: "guidellm",
        toolVersion: version,
        file,
        point: p.id,
        aggregates: jsonSafe(aggregates),
        facts: {
          benchmark: bi,
          repeat: existing ? existing.repeats - 1 : 0,
          strategy: b.config?.strategy?.type_ ?? null,
          listedSuccessful: listed,
          durationS: b.duration ?? null,
          generation,
          window: windows[bi] ? {...windows[bi]} : null,
          windowNs: windows[bi] ? {start: rel(windows[bi].start), end: rel(windows[bi].end)} : null,
          stored: samples[bi]!.stored,
          inWindow: samples[bi]!.inWindow,
          sampled: samples[bi]!.sampled,
          sampleSize: samples[bi]!.sampleSize,
          // GuideLLM's own counts in its measured window: a sampled file's records hold only part of them
          requestCounts: requestCounts(
            samples[bi]!.totals.successful,
            samples[bi]!.totals.errored,
            samples[bi]!.totals.incomplete
          )
        }
      })
    );
  });
  const preferResponse =
    report.benchmarks[0]?.config?.prefer_response_metrics ?? report.args?.prefer_response_metrics !== false;
  const requests: RequestRecord[] = all.map((x, k) =>
    mapRequest(x, points.get(pointIds[x.b]!)!, sources[x.b]!.facts.repeat as number, rel, preferResponse, phases[k]!)
  );
  const firstBody = body(all[0]?.r.request_args);
  const b0 = report.benchmarks[0]!;
  const notes = [
    "GuideLLM times are wall-clock epoch seconds (time.time()): durations can absorb clock steps",
    "records hold the first and last token iterations only (intermediate chunk times are not in the file)"
  ];
  for (let bi = 0; bi < report.benchmarks.length; bi++) appendAll(notes, sampleNotes(bi, samples[bi]!, windows[bi]!));
  const warnings = listedWarnings(all);
  appendAll(notes, warnings);
  // report v2 keeps the run's settings under config.spec (backend: target, model) instead of args
  const spec = isObject(report.config) && isObject(report.config.spec) ? report.config.spec : {};
  const backend = isObject(spec.backend) ? spec.backend : {};
  const args = {...backend, ...(report.args ?? {})};
  return {
    ok: true,
    value: {
      tool: "guidellm",
      toolVersion: version ?? generation,
      model: typeof args.model === "string" ? args.model : typeof firstBody.model === "string" ? firstBody.model : null,
      startedAt: isoFromEpochS(b0.start_time ?? origin),
      finishedAt: isoFromEpochS(report.benchmarks.at(-1)!.end_time ?? null),
      clock: "wall",
      originNs: (BigInt(Math.round(origin * 1e6)) * 1000n).toString(),
      loadPoints: [...points.values()],
      requests: numberRecords(requests),
      sources: numberRecords(sources),
      workload: {
        endpoint:
          typeof args.request_format === "string" && args.request_format.includes("chat") ? "chat" : "completions",
        baseUrl: typeof args.target === "string" ? args.target : undefined,
        ignoreEos: typeof firstBody.ignore_eos === "boolean" ? firstBody.ignore_eos : undefined,
        maxTokens: typeof firstBody.max_tokens === "number" ? firstBody.max_tokens : undefined
      },
      environment: {
        extra: isObject(report.metadata)
          ? {platform: report.metadata.platform ?? null, python: report.metadata.python_version ?? null}
          : {}
      },
      labels: {imported_from: "guidellm"},
      notes,
      ...(warnings.length ? {warnings} : {}),
      status: "complete",
      statusReason: null
    }
  };
}

/** What the listed requests' own derived numbers say against their timings (derivedFields.ts), as warnings. */
function listedWarnings(all: readonly Listed[]): string[] {
  const ttft = ttftDisagreement(
    all.map(({r, b, kind, i}) => {
      const t = timesOf(r)!;
      return {raw: r, path: `$.benchmarks[${b}].requests.${kind}[${i}]`, start: t.start, first: t.first};
    })
  );
  return ttft === null ? [] : [ttft];
}
