import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {LoadMode} from "../schema/config.ts";
import type {RequestRecord, SseEvent} from "../schema/records.ts";
import {
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestRecord,
  sourceRecord,
  tokenEvent,
  unknownPoint
} from "./build.ts";
import {
  approximate,
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type SourceComparisonRow
} from "./compare.ts";
import {minBig, NsInt} from "./numeric.ts";
import {isObject, jsonSafe, validate} from "./parse.ts";
import {numpyStat, parseStat, type Stat} from "./stats.ts";
import type {Claim, Doc, ImportedRun, PeerError, PeerFormat, Result} from "./types.ts";
import {defined, successes, sumOf} from "./views.ts";
import {max, min} from "d3-array";
import {appendAll} from "../util/append.ts";

/**
 * InferScope v1 (Python) artifacts: `results/raw/<run-id>/` (manifest.json, config.resolved.yaml,
 * requests.jsonl, validation.json) and `results/processed/<run-id>/aggregate.json`. Monotonic ns clock.
 */
const NsN = NsInt.nullable().optional();
const Row = z.looseObject({
  run_id: z.string().optional(),
  request_id: z.string().optional(),
  sequence: z.number().int().optional(),
  scheduled_at_ns: NsN,
  started_at_ns: NsN,
  first_content_at_ns: NsN,
  finished_at_ns: NsN,
  input_tokens: z.number().int().nullable().optional(),
  output_tokens: z.number().int().nullable().optional(),
  token_count_source: z.string().nullable().optional(),
  chunk_times_ns: z.array(NsInt).nullable().optional(),
  status: z.string(),
  http_status: z.number().int().nullable().optional(),
  finish_reason: z.string().nullable().optional(),
  error_code: z.string().nullable().optional(),
  phase: z.string().nullable().optional(),
  warmup: z.boolean().nullable().optional()
});
type Row = z.infer<typeof Row>;

const Dist = z.looseObject({count: z.number().optional()}).nullable().optional();
const Aggregate = z.looseObject({
  validation_status: z.string().nullable().optional(),
  measured_seconds: z.number().nullable(),
  requests: z.looseObject({scheduled: z.number().optional(), successful: z.number().optional()}).optional(),
  throughput: z.record(z.string(), z.number().nullable()).optional(),
  latency_ms: z.looseObject({ttft: Dist, tpot: Dist, e2e: Dist}).optional()
});

const isRow = (v: unknown) => isObject(v) && "scheduled_at_ns" in v && "started_at_ns" in v && "status" in v;
const isAggregate = (v: unknown) => isObject(v) && "measured_seconds" in v && ("latency_ms" in v || "throughput" in v);
const isManifest = (v: unknown) => isObject(v) && typeof v.run_id === "string" && "config_sha256" in v;
const isValidation = (v: unknown) => isObject(v) && Array.isArray(v.checks) && typeof v.status === "string";
const isConfig = (v: unknown) =>
  isObject(v) && isObject(v.workload) && isObject(v.target) && ("slo" in v || "generation" in v);

function role(d: Doc): "requests" | "aggregate" | "manifest" | "validation" | "config" | null {
  if (d.kind === "jsonl" && d.lines.length > 0 && d.lines.every((l) => isRow(l.value))) return "requests";
  if (d.kind === "json" && isRow(d.value)) return "requests";
  if (d.kind === "json" && isAggregate(d.value)) return "aggregate";
  if (d.kind === "json" && isManifest(d.value)) return "manifest";
  if (d.kind === "json" && isValidation(d.value)) return "validation";
  if (d.kind === "yaml" && isConfig(d.value)) return "config";
  return null;
}

function detect(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => role(d) !== null).map((d) => d.name);
  return docs.some((d) => role(d) === "requests" || role(d) === "aggregate")
    ? {tool: "inferscope-v1", files, shape: "InferScope v1 artifact folder"}
    : null;
}

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

function importV1(docs: readonly Doc[]): Result<ImportedRun> {
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
  const manifest = (by.get("manifest") as {value: Record<string, unknown>} | undefined)?.value ?? null;
  const config = (by.get("config") as {value: Record<string, unknown>} | undefined)?.value ?? null;
  const validation = (by.get("validation") as {value: Record<string, unknown>} | undefined)?.value ?? null;
  const mv = modeOf(config, manifest);
  const point = mv
    ? loadPoint(mv.mode, mv.value, {requests: rows.length || null})
    : unknownPoint({requests: rows.length || null});
  const origin =
    minBig(
      rows.flatMap(({row}) => [row.scheduled_at_ns, row.started_at_ns].filter((x): x is bigint | number => x != null))
    ) ?? 0n;
  const rel = (t: bigint | number | null | undefined) => (t == null ? null : Number(BigInt(t) - origin));
  const requests: RequestRecord[] = rows.map(({row}, i) => {
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
      point: point.id,
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
  });
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
          file: aggDoc?.name ?? reqDoc!.name,
          point: point.id,
          aggregates: agg?.ok ? jsonSafe((aggDoc as {value: unknown}).value) : null,
          facts: {
            runId: typeof manifest?.run_id === "string" ? manifest.run_id : ([...runIds][0] ?? null),
            slo: jsonSafe(slo),
            validation: validation ? jsonSafe(validation) : null,
            requestsFile: reqDoc?.name ?? null
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

// ---------------------------------------------------------------------------------------------------

type Family = "ttft" | "tpot" | "e2e";

const span = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / 1e6);

/** v1 per-request values: TTFT = first content − started; E2E = finished − started; TPOT = (E2E − TTFT)/(out − 1). */
export function v1Values(f: Family, ok: readonly DerivedRequest[]): number[] {
  return defined(
    ok.map((r) => {
      const ttft = span(r.tDisp, r.tContent1);
      const e2e = span(r.tDisp, r.record.tEndNs);
      if (f === "ttft") return ttft;
      if (f === "e2e") return e2e;
      return ttft === null || e2e === null || r.out === null || r.out < 2 ? null : (e2e - ttft) / (r.out - 1);
    })
  );
}

const measuredOf = (rs: readonly DerivedRequest[]) => rs.filter((r) => r.record.phase === "measure");

export function recomputeInferscopeV1(f: Family, stat: Stat, requests: readonly DerivedRequest[]) {
  return exact(numpyStat(v1Values(f, successes(measuredOf(requests))), stat, 0));
}

const CANON: Record<Family, {id: string; why: string}> = {
  ttft: {
    id: "ttft_content_ms",
    why: "ours counts from the scheduled time (v1 from the actual start) with nearest-rank percentiles"
  },
  tpot: {
    id: "tpot_ms",
    why: "our decode span runs first to last token event; v1's from first content to the stream end"
  },
  e2e: {
    id: "e2e_ms",
    why: "our e2e_ms ends at the last token and starts at the schedule; v1's at stream end from the actual start"
  }
};

export function compareInferscopeV1(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;
  const facts = source.facts as {slo?: Record<string, unknown>};
  const point = source.point;
  const have = requests.length > 0;
  const measured = measuredOf(requests);
  const ok = successes(measured);
  const rows: SourceComparisonRow[] = [];
  const lat = isObject(agg.latency_ms) ? agg.latency_ms : {};
  for (const f of ["ttft", "tpot", "e2e"] as const) {
    const d = isObject(lat[f])
      ? (lat[f] as Record<string, unknown>)
      : have
        ? {mean: null, p50: null, p95: null, p99: null}
        : null;
    if (!d) continue;
    for (const [label, value] of Object.entries(d)) {
      const stat = parseStat(label);
      if (stat === null) continue;
      rows.push(
        finishRow({
          point,
          metric: `latency_ms.${f}.${label}`,
          definition: `v1 ${f}: ${f === "ttft" ? "first content − started" : f === "e2e" ? "finished − started" : "(e2e − ttft)/(out − 1)"}; numpy R-7`,
          unit: stat === "count" ? "requests" : "ms",
          reported: typeof value === "number" ? value : null,
          recomputed: have ? recomputeInferscopeV1(f, stat, requests) : missing("no requests.jsonl"),
          canonical: stat === "count" ? null : canonicalRef(canonical, CANON[f].id, stat),
          codes: typeof stat === "object" ? ["definition", "percentile_method"] : ["definition"],
          why: CANON[f].why
        })
      );
    }
  }
  const ms = typeof agg.measured_seconds === "number" ? agg.measured_seconds : null;
  const starts = measured.map((r) => r.tStart).filter((t): t is number => t !== null);
  const ends = measured.map((r) => r.record.tEndNs).filter((t): t is number => t !== null);
  rows.push(
    finishRow({
      point,
      metric: "measured_seconds",
      definition: "max(finished_at) − measured start (taken after warmup)",
      unit: "s",
      reported: ms,
      recomputed:
        starts.length && ends.length
          ? approximate(
              (max(ends)! - min(starts)!) / 1e9,
              "first scheduled to last finished; v1's start mark is not in the requests"
            )
          : missing("no requests"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window starts at the first measured request's scheduled time"
    })
  );
  const reqs = isObject(agg.requests) ? agg.requests : {};
  rows.push(
    finishRow({
      point,
      metric: "requests.successful",
      definition: "successful measured requests",
      unit: "requests",
      reported: typeof reqs.successful === "number" ? reqs.successful : null,
      recomputed: have ? exact(ok.length) : missing("no requests.jsonl"),
      canonical: null,
      codes: []
    }),
    finishRow({
      point,
      metric: "requests.scheduled",
      definition: "scheduled measured requests",
      unit: "requests",
      reported: typeof reqs.scheduled === "number" ? reqs.scheduled : null,
      recomputed: have ? exact(measured.length) : missing("no requests.jsonl"),
      canonical: null,
      codes: []
    })
  );
  const thr = isObject(agg.throughput) ? agg.throughput : {};
  const perS = (n: number | null) =>
    ms && n !== null ? derived(n / ms, "over v1's measured_seconds") : missing("measured_seconds or counts missing");
  const outs = ok.map((r) => r.out);
  const ins = ok.map((r) => r.in);
  const sumOut = outs.every((x) => x !== null) ? sumOf(outs as number[]) : null;
  const sumIn = ins.every((x) => x !== null) ? sumOf(ins as number[]) : null;
  const ttftSlo = typeof facts.slo?.ttft_p95_ms === "number" ? facts.slo.ttft_p95_ms : null;
  const tpotSlo = typeof facts.slo?.tpot_p95_ms === "number" ? facts.slo.tpot_p95_ms : null;
  const minRate = typeof facts.slo?.success_rate_min === "number" ? facts.slo.success_rate_min : null;
  let goodput: ReturnType<typeof derived> = missing(
    "v1 SLOs (slo.ttft_p95_ms, slo.tpot_p95_ms, slo.success_rate_min) not in the imported config"
  );
  if (ttftSlo !== null && tpotSlo !== null && minRate !== null && ms) {
    const qualifying = ok.filter((r) => {
      const t = v1Values("ttft", [r])[0];
      const p = v1Values("tpot", [r])[0];
      return t !== undefined && p !== undefined && t <= ttftSlo && p <= tpotSlo;
    }).length;
    const rate = measured.length ? ok.length / measured.length : 0;
    goodput = derived(
      rate >= minRate ? qualifying / ms : 0,
      "per-request thresholds despite the p95 names; 0 when the run's success rate misses its SLO"
    );
  }
  const rowsThr: [string, ReturnType<typeof derived>, string][] = [
    ["requests_per_second", have ? perS(ok.length) : missing("no requests.jsonl"), "request_throughput_rps"],
    ["output_tokens_per_second", have ? perS(sumOut) : missing("no requests.jsonl"), "output_throughput_tok_s"],
    ["input_tokens_per_second", have ? perS(sumIn) : missing("no requests.jsonl"), ""],
    ["goodput_requests_per_second", have ? goodput : missing("no requests.jsonl"), "goodput_rps"]
  ];
  for (const [k, rec, id] of rowsThr)
    rows.push(
      finishRow({
        point,
        metric: `throughput.${k}`,
        definition:
          k === "goodput_requests_per_second"
            ? "qualifying requests / measured_seconds, or 0 when the success-rate SLO fails"
            : `${k.replace(/_/g, " ")} over measured_seconds`,
        unit: k.includes("tokens") ? "tok/s" : "req/s",
        reported: typeof thr[k] === "number" ? (thr[k] as number) : null,
        recomputed: rec,
        canonical: id ? canonicalRun(canonical, id) : null,
        codes: k.startsWith("goodput") ? ["definition", "window"] : ["window"],
        why: k.startsWith("goodput")
          ? "our goodput applies our SLOs (ttft, itl, e2e) and keeps failures in the denominator"
          : "our window"
      })
    );
  return rows;
}

export const inferscopeV1: PeerFormat = {
  tool: "inferscope-v1",
  expected:
    "InferScope v1 artifacts: requests.jsonl (scheduled_at_ns, started_at_ns, first_content_at_ns, finished_at_ns, chunk_times_ns, status…) with aggregate.json, manifest.json, config.resolved.yaml, validation.json",
  detect,
  import: importV1
};
