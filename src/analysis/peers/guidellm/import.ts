import {min} from "d3-array";
import type {z} from "zod";

import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {
  isoFromEpochS,
  loadPoint,
  numberRecords,
  requestRecord,
  sToNs,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "../shared/build.ts";
import {isObject, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, Result} from "../shared/types.ts";
import {isGuidellm, Report, Req, timesOf, type Benchmark} from "./format.ts";

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
  const doc = docs.find((d) => d.kind === "json" && isGuidellm(d.value));
  for (const d of docs)
    if (d !== doc)
      errors.push({
        file: d.name,
        path: "$",
        expected: "one GuideLLM benchmarks.json (an object with benchmarks[] of generative benchmarks)"
      });
  if (!doc) return {ok: false, errors};
  const parsed = validate(Report, (doc as {value: unknown}).value, doc.name);
  if (!parsed.ok) return {ok: false, errors: [...errors, ...parsed.errors]};
  const report = parsed.value;
  const all: Listed[] = [];
  report.benchmarks.forEach((b, bi) => {
    for (const kind of ["successful", "errored", "incomplete"] as const)
      (b.requests[kind] ?? []).forEach((raw, i) => {
        const v = validate(Req, raw, doc.name, `$.benchmarks[${bi}].requests.${kind}[${i}]`);
        if (!v.ok) return void appendAll(errors, v.errors);
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

/** One listed request as a request record; times are epoch seconds, `rel` puts them on the run's ns clock. */
function mapRequest(
  {r, b, kind, i}: Listed,
  p: LoadPoint,
  repeat: number,
  rel: (t: number | null) => number | null,
  preferResponse: boolean
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
  const points = new Map<string, LoadPoint>();
  const pointIds: string[] = [];
  const sources: SourceRecord[] = [];
  const version = report.metadata?.guidellm_version ?? null;
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
          durationS: b.duration ?? null
        }
      })
    );
  });
  const preferResponse =
    report.benchmarks[0]?.config?.prefer_response_metrics ?? report.args?.prefer_response_metrics !== false;
  const requests: RequestRecord[] = all.map((x) =>
    mapRequest(x, points.get(pointIds[x.b]!)!, sources[x.b]!.facts.repeat as number, rel, preferResponse)
  );
  const firstBody = body(all[0]?.r.request_args);
  const b0 = report.benchmarks[0]!;
  const notes = [
    "GuideLLM times are wall-clock epoch seconds (time.time()): durations can absorb clock steps",
    "records hold the first and last token iterations only (intermediate chunk times are not in the file)"
  ];
  report.benchmarks.forEach((b, bi) => {
    const totals = isObject(b.metrics.request_totals) ? (b.metrics.request_totals as Record<string, unknown>) : null;
    if (typeof totals?.successful === "number" && totals.successful !== b.requests.successful.length)
      notes.push(
        `benchmark ${bi}: ${b.requests.successful.length} of ${totals.successful} successful requests are listed (sampled)`
      );
  });
  const args = report.args ?? {};
  return {
    ok: true,
    value: {
      tool: "guidellm",
      toolVersion: version,
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
      status: "complete",
      statusReason: null
    }
  };
}
