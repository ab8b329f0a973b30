import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {EventKind, RequestRecord, SseEvent} from "../schema/records.ts";
import {loadPoint, numberRecords, requestRecord, sourceRecord, unknownPoint} from "./build.ts";
import {
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type CanonicalRef,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow
} from "./compare.ts";
import {isAiperfAggregate} from "./aiperf.ts";
import {minBig, NsInt} from "./numeric.ts";
import {isObject, jsonSafe, validate} from "./parse.ts";
import {numpyStat, parseStat, type Stat} from "./stats.ts";
import type {Claim, Doc, ImportedRun, PeerError, PeerFormat, Result} from "./types.ts";
import {defined, successes, sumOf} from "./views.ts";
import {max, min} from "d3-array";
import {appendAll} from "../util/append.ts";

/**
 * GenAI-Perf `profile_export.json` (perf_analyzer's raw export: every response timestamped with its SSE
 * text) and, optionally, its summary sibling `profile_export_genai_perf.json`.
 */
const Req = z
  .looseObject({
    timestamp: NsInt,
    request_inputs: z.looseObject({payload: z.string().optional()}).optional(),
    response_timestamps: z.array(NsInt),
    response_outputs: z.array(z.looseObject({response: z.string().optional(), text_output: z.string().optional()}))
  })
  .refine((r) => r.response_timestamps.length === r.response_outputs.length, {
    message: "expected response_timestamps and response_outputs of equal length",
    path: ["response_outputs"]
  });
type Req = z.infer<typeof Req>;
const Export = z.looseObject({
  service_kind: z.string().optional(),
  endpoint: z.string().optional(),
  experiments: z
    .array(
      z.looseObject({
        experiment: z.looseObject({mode: z.string(), value: z.number().positive()}),
        // each request is validated on its own (importGenaiPerf): zod gathers an array's issues with
        // push(...issues), which overflows the stack when an experiment has more than ~120k of them
        requests: z.array(z.unknown())
      })
    )
    .min(1, "expected at least one experiment")
});

const isExport = (v: unknown): boolean =>
  isObject(v) && Array.isArray(v.experiments) && v.experiments.every((e) => isObject(e) && Array.isArray(e.requests));
/** The summary sibling: metric objects {unit, avg, …} without AIPerf's own sections. */
const isSummary = (v: unknown): boolean =>
  isObject(v) &&
  !isAiperfAggregate(v) &&
  ["time_to_first_token", "request_latency", "request_throughput"].some(
    (k) => isObject(v[k]) && "avg" in (v[k] as object)
  );

function detect(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => d.kind === "json" && (isExport(d.value) || isSummary(d.value))).map((d) => d.name);
  return files.length && docs.some((d) => d.kind === "json" && isExport(d.value))
    ? {tool: "genai-perf", files, shape: "GenAI-Perf profile export"}
    : files.length
      ? {tool: "genai-perf", files, shape: "GenAI-Perf summary only"}
      : null;
}

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

interface Parsed {
  kind: EventKind;
  tokens: number | null;
  usage: {prompt: number | null; completion: number | null; reasoning: number | null} | null;
  finish: string | null;
  error: string | null;
}

/** Classifies one SSE data payload the way the collector does (raw facts, no metrics). */
export function classifyData(data: string): Parsed {
  const base = {tokens: null, usage: null, finish: null, error: null};
  if (data.trim() === "[DONE]") return {...base, kind: "done"};
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return {...base, kind: "parse_error"};
  }
  if (!isObject(v)) return {...base, kind: "other"};
  if (v.error !== undefined && v.error !== null)
    return {
      ...base,
      kind: "error",
      error: typeof v.error === "string" ? v.error : JSON.stringify(v.error).slice(0, 4096)
    };
  const u = isObject(v.usage) ? v.usage : null;
  const usage = u
    ? {
        prompt: typeof u.prompt_tokens === "number" ? u.prompt_tokens : null,
        completion: typeof u.completion_tokens === "number" ? u.completion_tokens : null,
        reasoning:
          isObject(u.completion_tokens_details) && typeof u.completion_tokens_details.reasoning_tokens === "number"
            ? u.completion_tokens_details.reasoning_tokens
            : null
      }
    : null;
  const c = Array.isArray(v.choices) && isObject(v.choices[0]) ? v.choices[0] : null;
  const finish = c && typeof c.finish_reason === "string" ? c.finish_reason : null;
  const delta = c && isObject(c.delta) ? c.delta : null;
  const nonEmpty = (x: unknown) => typeof x === "string" && x.length > 0;
  let kind: EventKind;
  if (delta && nonEmpty(delta.content)) kind = "content";
  else if (c && nonEmpty(c.text)) kind = "content";
  else if (delta && (nonEmpty(delta.reasoning_content) || nonEmpty(delta.reasoning))) kind = "reasoning";
  else if (delta && Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) kind = "tool_call";
  else if (finish) kind = "finish";
  else if (usage && !c) kind = "usage";
  else if (c) kind = "role";
  else kind = "other";
  return {kind, tokens: null, usage, finish, error: null};
}

/**
 * Re-joins the SSE stream of one request from its timestamped responses: a response may hold several
 * events (merged reads) or part of one (a split line, completed by a later response, whose time it takes).
 */
export function responseEvents(req: Req, origin: bigint): {events: SseEvent[]; parsed: Parsed[]} {
  const events: SseEvent[] = [];
  const parsed: Parsed[] = [];
  let buffer = "";
  const emit = (block: string, t: bigint) => {
    const lines = block.split(/\r?\n/);
    const dataLines = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
    const data = dataLines.length ? dataLines.join("\n") : lines.every((l) => l.startsWith(":")) ? null : block.trim();
    if (data === null || data === "") return;
    const p = classifyData(data);
    parsed.push(p);
    events.push([Number(t - origin), utf8Bytes(data), p.kind, p.tokens]);
  };
  req.response_outputs.forEach((out, k) => {
    const t = BigInt(req.response_timestamps[k]!);
    buffer +=
      out.response ??
      (out.text_output !== undefined ? `data: ${JSON.stringify({choices: [{text: out.text_output}]})}\n\n` : "");
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    for (const b of blocks) if (b.trim()) emit(b, t);
    // a response that is complete JSON without the blank-line terminator (GenAI-Perf's merged responses)
    if (buffer.trim()) {
      const data = buffer.trim().replace(/^data:\s?/, "");
      try {
        JSON.parse(data);
        emit(buffer, t);
        buffer = "";
      } catch {
        if (data === "[DONE]") {
          emit(buffer, t);
          buffer = "";
        }
      }
    }
  });
  if (buffer.trim()) {
    parsed.push({kind: "parse_error", tokens: null, usage: null, finish: null, error: null});
    events.push([Number(BigInt(req.response_timestamps.at(-1)!) - origin), utf8Bytes(buffer), "parse_error", null]);
  }
  return {events, parsed};
}

function pointOf(mode: string, value: number): LoadPoint {
  return mode === "request_rate" ? loadPoint("rate", value) : loadPoint("concurrency", value);
}

function importGenaiPerf(docs: readonly Doc[]): Result<ImportedRun> {
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
  const summary = summaryDoc ? ((summaryDoc as {value: unknown}).value as Record<string, unknown>) : null;
  const all = exp?.experiments.flatMap((e) => e.requests.map((r) => BigInt(r.timestamp))) ?? [];
  const origin = minBig(all) ?? 0n;
  const points = new Map<string, LoadPoint>();
  const requests: RequestRecord[] = [];
  let model: string | null = null;
  let ignoreEos: boolean | undefined;
  let maxTokensAll: number | undefined;
  (exp?.experiments ?? []).forEach((e, ei) => {
    const p = pointOf(e.experiment.mode, e.experiment.value);
    const existing = points.get(p.id);
    const repeat = existing ? existing.repeats : 0;
    if (existing) existing.repeats++;
    else points.set(p.id, p);
    e.requests.forEach((req, i) => {
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
      model ??= typeof payload.model === "string" ? payload.model : null;
      // the payload is the request body: a missing ignore_eos was not sent
      if (req.request_inputs?.payload !== undefined) ignoreEos ??= payload.ignore_eos === true;
      const maxTokens =
        typeof payload.max_tokens === "number"
          ? payload.max_tokens
          : typeof payload.max_completion_tokens === "number"
            ? payload.max_completion_tokens
            : null;
      maxTokensAll ??= maxTokens ?? undefined;
      const disp = Number(BigInt(req.timestamp) - origin);
      requests.push(
        requestRecord({
          id: `e${ei}-r${i}`,
          point: p.id,
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
        })
      );
    });
  });
  const lp = [...points.values()];
  if (lp.length === 0) {
    const cfg = isObject(summary?.input_config) ? summary.input_config : {};
    const c = typeof cfg.concurrency === "number" ? cfg.concurrency : null;
    lp.push(c === null ? unknownPoint() : loadPoint("concurrency", c));
  }
  const sources = lp.map((p) =>
    sourceRecord({
      tool: "genai-perf",
      toolVersion: null,
      file: summaryDoc?.name ?? exportDoc!.name,
      point: p.id,
      aggregates: summary && lp.length === 1 ? jsonSafe(summary) : null,
      facts: {
        exportFile: exportDoc?.name ?? null,
        summaryFile: summaryDoc?.name ?? null,
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
      startedAt: null,
      finishedAt: null,
      clock: "monotonic",
      originNs: origin.toString(),
      loadPoints: lp,
      requests: numberRecords(requests),
      sources: numberRecords(sources),
      workload: {
        endpoint: exp?.endpoint?.includes("chat")
          ? "chat"
          : exp?.endpoint?.includes("completions")
            ? "completions"
            : undefined,
        ignoreEos,
        maxTokens: maxTokensAll
      },
      environment: {extra: exp?.service_kind ? {service_kind: exp.service_kind} : {}},
      labels: {imported_from: "genai-perf"},
      notes: [
        "perf_analyzer timestamps are ns on its own clock; every response is kept with its SSE text",
        "GenAI-Perf counts output tokens with a client tokenizer: token metrics need a usage chunk in the stream"
      ],
      status: "complete",
      statusReason: null
    }
  };
}

// ---------------------------------------------------------------------------------------------------

type Family =
  "time_to_first_token" | "time_to_second_token" | "request_latency" | "inter_token_latency" | "output_sequence_length";

/** Times of a request's content responses (GenAI-Perf drops empty and role-only responses), ms from send. */
function contentTimes(r: DerivedRequest): number[] {
  const out: number[] = [];
  for (const [t, , kind] of r.record.events) if (kind === "content" && r.tDisp !== null) out.push((t - r.tDisp) / 1e6);
  return out;
}

export function genaiPerfValues(family: Family, ok: readonly DerivedRequest[]): number[] {
  return defined(
    ok.map((r) => {
      const ts = contentTimes(r);
      if (ts.length === 0) return null;
      if (family === "time_to_first_token") return ts[0]!;
      if (family === "time_to_second_token") return ts.length > 1 ? ts[1]! - ts[0]! : null;
      if (family === "request_latency") return ts.at(-1)!;
      if (family === "output_sequence_length") return r.out;
      return r.out !== null && r.out > 1 ? (ts.at(-1)! - ts[0]!) / (r.out - 1) : null;
    })
  );
}

export function recomputeGenaiPerf(family: Family, stat: Stat, requests: readonly DerivedRequest[]) {
  const ok = successes(requests);
  if ((family === "inter_token_latency" || family === "output_sequence_length") && ok.some((r) => r.out === null))
    return missing(
      "token_source: no usage chunk in the stream and GenAI-Perf's client tokenizer is not available here"
    );
  return exact(numpyStat(genaiPerfValues(family, ok), stat, 0));
}

const DEF: Record<Family, string> = {
  time_to_first_token: "first response with non-empty content − request timestamp",
  time_to_second_token: "second content response − first",
  request_latency: "last content response − request timestamp",
  inter_token_latency: "(request_latency − ttft)/(OSL − 1) per request",
  output_sequence_length: "output tokens (client tokenizer)"
};

function canonicalFor(
  v: ComparisonInput["canonical"],
  f: Family,
  stat: Stat
): {ref: CanonicalRef | null; codes: ReasonCode[]; why: string} {
  const pm: ReasonCode[] = typeof stat === "object" ? ["percentile_method"] : [];
  if (f === "time_to_first_token")
    return {
      ref: canonicalRef(v, "ttft_content_ms", stat),
      codes: pm,
      why: "R-7 vs nearest-rank percentiles (their TTFT ignores reasoning, like our ttft_content_ms)"
    };
  if (f === "request_latency")
    return {
      ref: canonicalRef(v, "e2e_ms", stat),
      codes: pm,
      why: "R-7 vs nearest-rank percentiles (our e2e_ms also ends at reasoning or tool-call tokens)"
    };
  if (f === "inter_token_latency")
    return {
      ref: canonicalRef(v, "itl_ms", stat),
      codes: ["token_source", ...pm],
      why: "token counts: server usage (ours) vs their client tokenizer"
    };
  if (f === "output_sequence_length")
    return {
      ref: canonicalRef(v, "output_tokens", stat),
      codes: ["token_source", ...pm],
      why: "server usage vs client tokenizer"
    };
  return {ref: null, codes: [], why: ""};
}

export function compareGenaiPerf(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;
  const point = source.point;
  const have = requests.length > 0;
  const rows: SourceComparisonRow[] = [];
  const families = Object.keys(DEF) as Family[];
  for (const f of families) {
    const stats = isObject(agg[f])
      ? (agg[f] as Record<string, unknown>)
      : have
        ? {avg: null, p50: null, p99: null}
        : null;
    if (!stats) continue;
    for (const [label, value] of Object.entries(stats)) {
      const stat = parseStat(label);
      if (stat === null || stat === "count") continue;
      const c = canonicalFor(canonical, f, stat);
      rows.push(
        finishRow({
          point,
          metric: `${f}.${label}`,
          definition: `${DEF[f]}; numpy R-7, population std`,
          unit: typeof stats.unit === "string" ? stats.unit : f === "output_sequence_length" ? "tokens" : "ms",
          reported: typeof value === "number" ? value : null,
          recomputed: have ? recomputeGenaiPerf(f, stat, requests) : missing("no profile_export.json"),
          canonical: c.ref,
          codes: c.codes,
          why: c.why
        })
      );
    }
  }
  // duration: max last content response − min request timestamp, over every request
  const lasts = requests.flatMap((r) => r.record.events.filter((e) => e[2] === "content").map((e) => e[0]));
  const sends = requests.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const duration = lasts.length && sends.length ? (max(lasts)! - min(sends)!) / 1e9 : null;
  const ok = successes(requests);
  const sumOut = ok.every((r) => r.out !== null) ? sumOf(ok.map((r) => r.out!)) : null;
  const avg = (k: string) =>
    isObject(agg[k]) && typeof (agg[k] as Record<string, unknown>).avg === "number"
      ? ((agg[k] as Record<string, unknown>).avg as number)
      : null;
  rows.push(
    finishRow({
      point,
      metric: "request_throughput.avg",
      definition: "all requests (failed included) / (max response − min request timestamp)",
      unit: "requests/sec",
      reported: avg("request_throughput"),
      recomputed: have
        ? derived(duration ? requests.length / duration : null, "every request counted, failed ones included")
        : missing("no profile_export.json"),
      canonical: canonicalRun(canonical, "request_throughput_rps"),
      codes: ["definition", "window"],
      why: "we count successful requests only, over our window"
    }),
    finishRow({
      point,
      metric: "output_token_throughput.avg",
      definition: "Σ OSL / (max response − min request timestamp)",
      unit: "tokens/sec",
      reported: avg("output_token_throughput"),
      recomputed: !have
        ? missing("no profile_export.json")
        : sumOut === null
          ? missing("token_source: no usage chunk in the stream")
          : derived(duration ? sumOut / duration : null, "Σ usage tokens / duration"),
      canonical: canonicalRun(canonical, "output_throughput_tok_s"),
      codes: ["window", "token_source"],
      why: "our window and server token counts"
    })
  );
  return rows;
}

export const genaiPerf: PeerFormat = {
  tool: "genai-perf",
  expected:
    "GenAI-Perf: profile_export.json (experiments[{experiment: {mode, value}, requests[{timestamp, response_timestamps[], response_outputs[]}]}]) and optionally profile_export_genai_perf.json",
  detect,
  import: importGenaiPerf
};
