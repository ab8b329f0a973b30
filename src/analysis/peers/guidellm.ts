import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../schema/records.ts";
import {
  isoFromEpochS,
  loadPoint,
  numberRecords,
  requestRecord,
  sToNs,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "./build.ts";
import {
  approximate,
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
import {isObject, jsonSafe, validate} from "./parse.ts";
import {parseGuidellmPercentile, weightedStat, type Stat} from "./stats.ts";
import type {Claim, Doc, ImportedRun, PeerError, PeerFormat, Result} from "./types.ts";
import {successes} from "./views.ts";
import {max, min} from "d3-array";
import {appendAll} from "../util/append.ts";

/**
 * GuideLLM `benchmarks.json`. Per-request timings are wall-clock epoch seconds: `info.timings`
 * (request_start, first_token_iteration, last_token_iteration, request_end, targeted_start; 0.5+) or
 * the older top-level start_time/first_token_time/last_token_time/end_time.
 */
const n = z.number().nullable().optional();
const Timings = z.looseObject({
  targeted_start: n,
  request_start: n,
  first_token_iteration: n,
  last_token_iteration: n,
  request_end: n,
  token_iterations: n,
  request_iterations: n
});
const Req = z.looseObject({
  request_id: z.string().nullable().optional(),
  request_args: z.unknown().optional(),
  output: z.string().nullable().optional(),
  prompt_tokens: z.number().int().nullable().optional(),
  output_tokens: z.number().int().nullable().optional(),
  info: z
    .looseObject({timings: Timings.optional(), status: z.string().nullable().optional(), error: z.unknown().optional()})
    .optional(),
  start_time: n,
  end_time: n,
  first_token_time: n,
  last_token_time: n,
  error: z.unknown().optional()
});
type Req = z.infer<typeof Req>;
// Requests are validated one by one (importGuidellm): zod gathers an array's issues with push(...issues),
// which overflows the stack when a benchmark has more than ~120k of them.
const ReqList = z.array(z.unknown()).nullable().optional();
const Benchmark = z.looseObject({
  type_: z.string().optional(),
  config: z
    .looseObject({
      strategy: z
        .looseObject({
          type_: z.string().optional(),
          streams: z.number().nullable().optional(),
          max_concurrency: z.number().nullable().optional(),
          worker_count: z.number().nullable().optional(),
          rate: z.number().nullable().optional()
        })
        .optional(),
      prefer_response_metrics: z.boolean().optional()
    })
    .optional(),
  metrics: z.record(z.string(), z.unknown(), {error: "expected a metrics object"}),
  requests: z.looseObject({successful: z.array(z.unknown()), errored: ReqList, incomplete: ReqList}),
  start_time: n,
  end_time: n,
  duration: n
});
type Benchmark = z.infer<typeof Benchmark>;
const Report = z.looseObject({
  metadata: z.looseObject({guidellm_version: z.string().optional(), version: z.unknown().optional()}).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  benchmarks: z.array(Benchmark).min(1, "expected at least one benchmark")
});

const isGuidellm = (v: unknown): boolean =>
  isObject(v) &&
  Array.isArray(v.benchmarks) &&
  v.benchmarks.some(
    (b) => isObject(b) && (b.type_ === "generative_benchmark" || (isObject(b.metrics) && isObject(b.requests)))
  );

function detect(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => d.kind === "json" && isGuidellm(d.value)).map((d) => d.name);
  return files.length ? {tool: "guidellm", files, shape: "GuideLLM benchmarks.json"} : null;
}

interface Times {
  start: number;
  first: number | null;
  last: number | null;
  end: number | null;
  targeted: number | null;
}

function timesOf(r: Req): Times | null {
  const t = r.info?.timings;
  const start = t?.request_start ?? r.start_time ?? null;
  if (start === null) return null;
  return {
    start,
    first: t?.first_token_iteration ?? r.first_token_time ?? null,
    last: t?.last_token_iteration ?? r.last_token_time ?? null,
    end: t?.request_end ?? r.end_time ?? null,
    targeted: t?.targeted_start ?? null
  };
}

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

function importGuidellm(docs: readonly Doc[]): Result<ImportedRun> {
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
  const all: {r: Req; b: number; kind: "successful" | "errored" | "incomplete"; i: number}[] = [];
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
        file: doc.name,
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
  const requests: RequestRecord[] = all.map(({r, b, kind, i}) => {
    const t = timesOf(r)!;
    const p = points.get(pointIds[b]!)!;
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
      repeat: sources[b]!.facts.repeat as number,
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
  });
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

// ---------------------------------------------------------------------------------------------------

type Metric =
  | "time_to_first_token_ms"
  | "inter_token_latency_ms"
  | "time_per_output_token_ms"
  | "request_latency"
  | "output_token_count"
  | "prompt_token_count";

const span = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : (b - a) / 1e6);

/** Per-request values and weights of GuideLLM's own metrics (weights: 1, out − 1 or out). */
export function guidellmValues(metric: Metric, ok: readonly DerivedRequest[]): {values: number[]; weights: number[]} {
  const values: number[] = [];
  const weights: number[] = [];
  for (const r of ok) {
    const ttft = span(r.tDisp, r.tTok1);
    let v: number | null = null;
    let w = 1;
    if (metric === "time_to_first_token_ms") v = ttft;
    else if (metric === "request_latency")
      v = span(r.tDisp, r.record.tEndNs) === null ? null : span(r.tDisp, r.record.tEndNs)! / 1000;
    else if (metric === "output_token_count") v = r.out;
    else if (metric === "prompt_token_count") v = r.in;
    else if (metric === "inter_token_latency_ms") {
      if (r.out !== null && r.out > 1) {
        v = span(r.tTok1, r.tTokN)! / (r.out - 1);
        w = r.out - 1;
      }
    } else if (r.out !== null && r.out > 0) {
      v = span(r.tDisp, r.tTokN)! / r.out;
      w = r.out;
    }
    if (v !== null && Number.isFinite(v)) {
      values.push(v);
      weights.push(w);
    }
  }
  return {values, weights};
}

/** GuideLLM's statistic: weighted mean, weighted population std, nearest rank on the weighted CDF. */
export function recomputeGuidellm(metric: Metric, stat: Stat, requests: readonly DerivedRequest[]) {
  const {values, weights} = guidellmValues(metric, successes(requests));
  return exact(weightedStat(values, weights, stat));
}

const DEF: Record<Metric, string> = {
  time_to_first_token_ms: "first token iteration − request start; weight 1",
  inter_token_latency_ms: "(last − first token iteration)/(out − 1) per request; token-weighted (out − 1)",
  time_per_output_token_ms: "(last token iteration − request start)/out — includes TTFT; token-weighted (out)",
  request_latency: "request end − request start, s",
  output_token_count: "output tokens (server usage when prefer_response_metrics)",
  prompt_token_count: "prompt tokens"
};

function canonicalFor(
  v: ComparisonInput["canonical"],
  metric: Metric,
  stat: Stat
): {ref: CanonicalRef | null; codes: ReasonCode[]; why: string} {
  const pm: ReasonCode[] = typeof stat === "object" || stat === "median" ? ["percentile_method"] : [];
  switch (metric) {
    case "time_to_first_token_ms":
      return {
        ref: canonicalRef(v, "ttft_ms", stat),
        codes: pm,
        why: "their median and percentiles are nearest ranks on a weighted CDF; our median is the midpoint"
      };
    case "inter_token_latency_ms":
      return {
        ref: canonicalRef(v, "tpot_ms", stat),
        codes: ["weighting", ...pm],
        why: "ours is request-weighted; theirs token-weighted"
      };
    case "time_per_output_token_ms":
      return {
        ref: canonicalRef(v, "tpot_ms", stat),
        codes: ["definition", "weighting", ...pm],
        why: "their TPOT includes TTFT (a legacy name); our tpot_ms excludes the first token and is request-weighted"
      };
    case "request_latency":
      return {ref: canonicalRef(v, "request_time_ms", stat, 1e-3), codes: pm, why: "percentile method"};
    case "output_token_count":
      return {ref: canonicalRef(v, "output_tokens", stat), codes: pm, why: "nearest rank vs a midpoint median"};
    case "prompt_token_count":
      return {
        ref: canonicalRef(v, "input_tokens", stat),
        codes: pm,
        why: "their median is a nearest rank, ours the midpoint"
      };
  }
}

const STATS = ["mean", "median", "std_dev", "min", "max", "count"] as const;
const PUBLISHED = ["p50", "p90", "p95", "p99", "p999"];

export function compareGuidellm(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;
  const metrics = (isObject(agg.metrics) ? agg.metrics : {}) as Record<string, unknown>;
  const point = source.point;
  const facts = source.facts as {listedSuccessful?: number};
  const rows: SourceComparisonRow[] = [];
  const ok = successes(requests);
  const totals = isObject(metrics.request_totals) ? (metrics.request_totals as Record<string, unknown>) : {};
  const sampled =
    typeof totals.successful === "number" &&
    facts.listedSuccessful !== undefined &&
    totals.successful !== facts.listedSuccessful;
  const sampleNote = sampled
    ? ` (from the ${facts.listedSuccessful} listed of ${String(totals.successful)} requests)`
    : "";
  for (const metric of Object.keys(DEF) as Metric[]) {
    const m = metrics[metric];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) continue;
    const labels: {label: string; stat: Stat; value: unknown}[] = STATS.map((k) => ({
      label: k,
      stat: (k === "std_dev" ? "std" : k) as Stat,
      value: dist[k]
    }));
    const pcts = isObject(dist.percentiles) ? (dist.percentiles as Record<string, unknown>) : {};
    for (const [k, value] of Object.entries(pcts)) {
      const p = parseGuidellmPercentile(k);
      if (p !== null && PUBLISHED.includes(k)) labels.push({label: `percentiles.${k}`, stat: {p}, value});
    }
    for (const {label, stat, value} of labels) {
      const c = canonicalFor(canonical, metric, stat);
      const rec = recomputeGuidellm(metric, stat, requests);
      rows.push(
        finishRow({
          point,
          metric: `${metric}.${label}`,
          definition: `${DEF[metric]}; weighted nearest rank, weighted population std`,
          unit: metric === "request_latency" ? "s" : metric.endsWith("_ms") ? "ms" : "tokens",
          reported: typeof value === "number" ? value : null,
          recomputed:
            sampled && rec.value !== null
              ? {...rec, status: "approximate", note: `sampled_requests${sampleNote}`}
              : rec,
          canonical: c.ref,
          codes: sampled ? [...c.codes, "sampled_requests"] : c.codes,
          why: c.why
        })
      );
    }
  }
  for (const k of ["successful", "errored", "incomplete", "total"] as const) {
    const kindCount =
      k === "successful"
        ? ok.length
        : k === "total"
          ? requests.length
          : requests.filter((r) => !r.success && (k === "incomplete") === (r.record.transportError === "client_abort"))
              .length;
    rows.push(
      finishRow({
        point,
        metric: `request_totals.${k}`,
        definition: `${k} requests in the benchmark`,
        unit: "requests",
        reported: typeof totals[k] === "number" ? (totals[k] as number) : null,
        recomputed: exact(kindCount, sampled ? "listed requests only" : undefined),
        canonical: null,
        codes: sampled ? ["sampled_requests"] : []
      })
    );
  }
  const starts = requests.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const ends = requests.map((r) => r.record.tEndNs).filter((t): t is number => t !== null);
  rows.push(
    finishRow({
      point,
      metric: "duration",
      definition: "benchmark start to end (measure window), s",
      unit: "s",
      reported: typeof agg.duration === "number" ? agg.duration : null,
      recomputed:
        starts.length && ends.length
          ? approximate((max(ends)! - min(starts)!) / 1e9, "first request start to last request end")
          : missing("no request times"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window runs from the first request's start to the last request's end"
    })
  );
  const rate = (name: string, canonicalId: string, definition: string) => {
    const m = metrics[name];
    const dist = isObject(m) && isObject(m.successful) ? (m.successful as Record<string, unknown>) : null;
    if (!dist) return;
    rows.push(
      finishRow({
        point,
        metric: `${name}.mean`,
        definition,
        unit: name === "requests_per_second" ? "req/s" : name === "request_concurrency" ? "requests" : "tok/s",
        reported: typeof dist.mean === "number" ? dist.mean : null,
        recomputed: missing("weighting: a time-weighted rate distribution over GuideLLM's internal iteration timeline"),
        canonical: canonicalRun(canonical, canonicalId),
        codes: ["weighting", "window"],
        why: "ours is a count over the measurement window (Σ/window), not the mean of a time-weighted rate distribution"
      })
    );
  };
  rate("requests_per_second", "request_throughput_rps", "mean of the time-weighted request rate distribution");
  rate(
    "output_tokens_per_second",
    "output_throughput_tok_s",
    "mean of the time-weighted output token rate (tokens spread between first and last iteration)"
  );
  rate("request_concurrency", "achieved_concurrency", "mean of the time-weighted concurrency distribution");
  return rows;
}

export const guidellm: PeerFormat = {
  tool: "guidellm",
  expected:
    "GuideLLM benchmarks.json: an object with benchmarks[] (type_ generative_benchmark) holding metrics{} and requests{successful[], errored[], incomplete[]}",
  detect,
  import: importGuidellm
};
