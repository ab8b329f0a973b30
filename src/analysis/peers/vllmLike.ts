import {z} from "zod";

import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../schema/records.ts";
import {chunkEvents, isoFromLocal, loadPoint, numberRecords, requestRecord, sToNs, sourceRecord} from "./build.ts";
import {
  bounded,
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type ReasonCode,
  type Recomputed,
  type SourceComparisonRow
} from "./compare.ts";
import {docValues, isObject, jsonSafe, validate} from "./parse.ts";
import {numpyStat, parseStat, type Stat} from "./stats.ts";
import type {Doc, ImportedRun, PeerError, PeerTool, Result} from "./types.ts";
import {defined, endOf, gapsOf, lastTokenOf, successes, sumOf, ttftOf} from "./views.ts";
import {max, min} from "d3-array";
import {appendAll} from "../util/append.ts";

/**
 * vLLM `bench serve --save-result` (2024 and 2025+ schemas) and SGLang `bench_serving` JSONL share one
 * shape: run-level stats as `<stat>_<metric>_ms` keys and optional index-aligned per-request arrays.
 */
export type Flavor = "vllm" | "sglang";

/** `mean_ttft_ms`, `p99.9_itl_ms`, `median_e2el_ms`, … */
export const STAT_KEY = /^(mean|median|std|min|max|p\d+(?:\.\d+)?)_([a-z0-9_]+?)_ms$/;

/** Metric names per schema generation, mapped to one family. */
const FAMILY: Record<string, "ttft" | "tpot" | "itl" | "e2e"> = {
  ttft: "ttft",
  tpot: "tpot",
  itl: "itl",
  e2el: "e2e", // vLLM 2025+
  latency: "e2e", // vLLM 2024
  e2e_latency: "e2e" // SGLang
};

const numArray = z.array(z.number());
const intArray = z.array(z.number().int().nonnegative().nullable());

export const VllmLikeRun = z.looseObject({
  date: z.string().optional(),
  backend: z.string().optional(),
  model_id: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  tokenizer_id: z.string().nullable().optional(),
  endpoint_type: z.string().nullable().optional(),
  num_prompts: z.number().int().nullable().optional(),
  request_rate: z.union([z.number(), z.string(), z.null()]).optional(),
  burstiness: z.number().nullable().optional(),
  max_concurrency: z.number().int().positive().nullable().optional(),
  duration: z.number({error: "expected the run duration in seconds (a number)"}),
  completed: z.number({error: "expected the count of completed requests (an integer)"}).int(),
  failed: z.number().int().nullable().optional(),
  input_lens: intArray.optional(),
  output_lens: intArray.optional(),
  ttfts: z.array(z.number().nullable()).optional(),
  itls: z.array(z.array(z.number())).optional(),
  latencies: numArray.optional(),
  start_times: numArray.optional(),
  errors: z.array(z.string().nullable()).optional(),
  generated_texts: z.array(z.string().nullable()).optional()
});
export type VllmLikeRun = z.infer<typeof VllmLikeRun>;

const ARRAYS = ["input_lens", "output_lens", "itls", "errors", "generated_texts", "latencies", "start_times"] as const;

/** Which flavour a JSON value looks like, by shape; null when it is neither. */
export function vllmLikeShape(v: unknown): Flavor | null {
  if (!isObject(v) || !("duration" in v)) return null;
  const keys = Object.keys(v);
  if (!keys.some((k) => STAT_KEY.test(k) && k.endsWith("_ttft_ms"))) return null;
  const sglang =
    "total_output_retokenized" in v ||
    "accept_length" in v ||
    "output_throughput_retokenized" in v ||
    "mean_e2e_latency_ms" in v ||
    ("total_input" in v && !("total_input_tokens" in v));
  return sglang ? "sglang" : "vllm";
}

/** Parsed `<stat>_<metric>_ms` keys: family → stat label → {key, value}. */
export function statsOf(run: Record<string, unknown>): Map<string, Map<string, {key: string; value: number | null}>> {
  const out = new Map<string, Map<string, {key: string; value: number | null}>>();
  for (const [key, value] of Object.entries(run)) {
    const m = STAT_KEY.exec(key);
    if (!m) continue;
    const family = FAMILY[m[2]!];
    if (!family || parseStat(m[1]!) === null) continue;
    if (!out.has(family)) out.set(family, new Map());
    out.get(family)!.set(m[1]!, {key, value: typeof value === "number" ? value : null});
  }
  return out;
}

function alignErrors(run: VllmLikeRun, file: string, where: string): PeerError[] {
  const n = run.ttfts?.length;
  if (n === undefined) return [];
  const errors: PeerError[] = [];
  for (const k of ARRAYS) {
    const a = run[k];
    if (a !== undefined && a.length !== n)
      errors.push({
        file,
        path: `${where}$.${k}`,
        expected: `an array of ${n} entries (one per request, index-aligned with ttfts), got ${a.length}`
      });
  }
  return errors;
}

function pointOf(run: VllmLikeRun): LoadPoint {
  const rate = typeof run.request_rate === "number" ? run.request_rate : Number(run.request_rate ?? "inf");
  const total = run.num_prompts ?? run.completed + (run.failed ?? 0);
  const requests = run.num_prompts ?? null;
  if (Number.isFinite(rate) && rate > 0) {
    const b = run.burstiness ?? 1;
    return loadPoint(b === 1 ? "poisson" : "gamma", rate, {
      requests,
      maxConcurrency: run.max_concurrency ?? null,
      burstiness: b === 1 ? null : b
    });
  }
  return loadPoint("concurrency", run.max_concurrency ?? Math.max(1, total), {requests});
}

const generationOf = (flavor: Flavor, run: Record<string, unknown>): string => {
  if (flavor === "sglang") return "sglang";
  const keys = Object.keys(run);
  return keys.some((k) => k.endsWith("_e2el_ms")) || "failed" in run || "max_concurrency" in run ? "2025+" : "2024";
};

function mapRequests(
  flavor: Flavor,
  run: VllmLikeRun,
  point: LoadPoint,
  repeat: number,
  runIndex: number
): RequestRecord[] {
  const ttfts = run.ttfts;
  if (!ttfts) return [];
  const starts = run.start_times;
  const t0 = starts && starts.length ? (min(starts) ?? 0) : 0;
  const out: RequestRecord[] = [];
  for (let i = 0; i < ttfts.length; i++) {
    const err = run.errors?.[i] ?? "";
    const ttft = ttfts[i] ?? null;
    const gaps = run.itls?.[i] ?? [];
    const ok = err === "" && ttft !== null && (ttft > 0 || gaps.length > 0);
    const disp = starts ? sToNs(starts[i]! - t0) : 0;
    const latency = run.latencies?.[i];
    const outTokens = run.output_lens?.[i] ?? null;
    const nullReasons: Record<string, string> = {};
    if (latency === undefined)
      nullReasons.tEndNs =
        flavor === "sglang"
          ? "SGLang output details keep no per-request latency"
          : "this vLLM file keeps no per-request latency";
    if (!starts) nullReasons.tDispNs = "times are relative to each request's own send time (no start times recorded)";
    out.push(
      requestRecord({
        id: `r${runIndex}-${i}`,
        point: point.id,
        repeat,
        index: i,
        timeBase: starts ? "run" : "request",
        tDispNs: disp,
        tEndNs: latency === undefined ? null : disp + sToNs(latency),
        events: ok ? chunkEvents(disp + sToNs(ttft), gaps.map(sToNs)) : [],
        eventCoverage: "token_chunks",
        httpStatus: ok ? 200 : null,
        transportError: ok ? null : "other",
        errorMessage: ok ? null : err === "" ? "no chunk received" : err.slice(0, 4096),
        usage: {
          promptTokens: run.input_lens?.[i] ?? null,
          completionTokens: ok ? outTokens : null,
          reasoningTokens: null,
          cachedTokens: null
        },
        usageSource:
          outTokens === null
            ? "none"
            : flavor === "vllm" && generationOf(flavor, run) === "2024"
              ? "client_tokenizer"
              : "server_final",
        ...(typeof run.generated_texts?.[i] === "string" ? {responseText: run.generated_texts[i]!} : {}),
        nullReasons
      })
    );
  }
  return out;
}

/** Maps vLLM/SGLang result objects (a JSON file, or JSON Lines with one run per line) to one imported run. */
export function importVllmLike(flavor: Flavor, docs: readonly Doc[]): Result<ImportedRun> {
  const tool: PeerTool = flavor;
  const errors: PeerError[] = [];
  const runs: {run: VllmLikeRun; raw: Record<string, unknown>; file: string; where: string}[] = [];
  for (const doc of docs) {
    for (const {value, where} of docValues(doc)) {
      if (vllmLikeShape(value) === null) {
        errors.push({
          file: doc.name,
          path: `${where}$`,
          expected: `a ${flavor === "vllm" ? "vLLM --save-result" : "SGLang bench_serving"} object with "duration", "completed" and "<stat>_ttft_ms" keys`
        });
        continue;
      }
      const r = validate(VllmLikeRun, value, doc.name, "$", where);
      if (!r.ok) {
        appendAll(errors, r.errors);
        continue;
      }
      const align = alignErrors(r.value, doc.name, where);
      if (align.length) appendAll(errors, align);
      else runs.push({run: r.value, raw: value as Record<string, unknown>, file: doc.name, where});
    }
  }
  if (errors.length) return {ok: false, errors};
  if (runs.length === 0)
    return {ok: false, errors: [{file: docs[0]?.name ?? "(none)", path: "$", expected: "at least one run"}]};

  const points = new Map<string, LoadPoint>();
  const requests: RequestRecord[] = [];
  const sources: SourceRecord[] = [];
  const notes = new Set<string>();
  runs.forEach(({run, raw, file}, k) => {
    const p = pointOf(run);
    const existing = points.get(p.id);
    const repeat = existing ? existing.repeats : 0;
    if (existing) existing.repeats++;
    else points.set(p.id, p);
    const generation = generationOf(flavor, raw);
    const reqs = mapRequests(flavor, run, p, repeat, k);
    for (const r of reqs) requests.push(r);
    const aggregates = Object.fromEntries(Object.entries(raw).filter(([, v]) => !Array.isArray(v)));
    const perRequest = run.ttfts ? "detailed" : run.latencies ? "latencies_only" : "none";
    if (perRequest === "none") notes.add("no per-request arrays: only the source's aggregates are imported");
    if (perRequest === "latencies_only")
      notes.add(
        "per-request latencies only (no --save-detailed): no request records; latency stats recomputed from them"
      );
    if (run.ttfts && !run.latencies)
      notes.add("no per-request latency: E2E and TPOT are bounded from chunk times and the reported mean latency");
    if (!run.start_times && run.ttfts)
      notes.add("no start times: request times are relative to each request's send time");
    sources.push(
      sourceRecord({
        tool,
        toolVersion: null,
        file,
        point: p.id,
        aggregates: jsonSafe(aggregates),
        facts: {
          flavor,
          generation,
          repeat,
          perRequest,
          durationS: run.duration,
          completed: run.completed,
          failed: run.failed ?? null,
          numPrompts: run.num_prompts ?? null,
          requestRate: run.request_rate ?? null,
          ...(perRequest === "latencies_only" ? {latenciesS: run.latencies} : {})
        }
      })
    );
  });
  const first = runs[0]!.run;
  if (flavor === "sglang")
    notes.add("SGLang counts the requested output length as tokens when the server sends no usage");
  else if (generationOf(flavor, runs[0]!.raw) === "2024")
    notes.add("vLLM 2024 clients re-tokenize the generated text to count output tokens");
  if (flavor === "vllm" && vllmMaybeChat(runs[0]!.raw)) notes.add(VLLM_CHAT_TTFT_CAVEAT);
  return {
    ok: true,
    value: {
      tool,
      toolVersion: null,
      model: first.model_id ?? first.model ?? null,
      startedAt: isoFromLocal(first.date),
      finishedAt: null,
      clock: first.start_times ? "monotonic" : "request",
      originNs: "0",
      loadPoints: [...points.values()],
      requests: numberRecords(requests),
      sources: numberRecords(sources),
      workload: {endpoint: first.endpoint_type === "openai" || first.backend === "vllm" ? "completions" : undefined},
      environment: {
        engine: flavor === "sglang" ? (first.backend ?? "sglang") : (first.backend ?? undefined),
        extra: {}
      },
      labels: {imported_from: tool, ...(first.date ? {source_date: first.date} : {})},
      notes: [...notes, ...(first.date ? ["the source date carries no time zone; read as UTC"] : [])],
      status: "complete",
      statusReason: null
    }
  };
}

// ---------------------------------------------------------------------------------------------------
// Recomputation under the tool's own definitions

const DEFS: Record<Flavor, Record<"ttft" | "tpot" | "itl" | "e2e", string>> = {
  vllm: {
    ttft: "first chunk with choices minus send time; per request; numpy R-7 percentiles, population std",
    tpot: "(latency − ttft)/(out − 1) per request with out > 1; request-weighted; R-7",
    itl: "gaps between consecutive chunks, pooled over requests (chunk-weighted, per chunk not per token); R-7",
    e2e: "request latency (2024: after the stream ended; 2025+: last chunk); R-7"
  },
  sglang: {
    ttft: "first chunk with non-empty text minus send time; numpy R-7, population std",
    tpot: "(latency − ttft)/(out − 1) per request with out > 1; R-7",
    itl: "gaps between consecutive chunks, pooled over requests (chunk-weighted); R-7",
    e2e: "send to the last SSE line including [DONE]; R-7"
  }
};

const CANONICAL: Record<"ttft" | "tpot" | "itl" | "e2e", string> = {
  ttft: "ttft_ms",
  tpot: "tpot_ms",
  itl: "inter_chunk_ms",
  e2e: "e2e_ms"
};

const WHY: Record<"ttft" | "tpot" | "itl" | "e2e", {codes: ReasonCode[]; why: string}> = {
  ttft: {codes: ["percentile_method"], why: "we publish nearest-rank percentiles; theirs interpolate (R-7)"},
  itl: {
    codes: ["percentile_method"],
    why: "their ITL is our inter_chunk_ms (per chunk); percentiles R-7 vs nearest rank"
  },
  tpot: {
    codes: ["end_of_request", "percentile_method"],
    why: "our decode span ends at the last token event; theirs at the end of the request as the client timed it"
  },
  e2e: {
    codes: ["end_of_request", "percentile_method"],
    why: "our e2e_ms ends at the last token event; theirs when their client stopped the clock"
  }
};

/**
 * vLLM's client takes the first SSE chunk that has `choices` as the first token — on the chat endpoint a
 * role-only chunk counts (vLLM issue #15106; the content check of PR #3768 is gone from the refactored
 * client). Its per-request TTFT then ends at the role chunk, and so does every TTFT recomputed from it.
 */
export const VLLM_CHAT_TTFT_CAVEAT =
  "vLLM's chat client counts the first chunk with choices as the first token, a role-only chunk included (vLLM issue #15106): where the server sends the role chunk early, this TTFT — and ttft_ms recomputed from its per-request first-token times — ends before the first content token";

/** Whether a vLLM result was measured on the chat endpoint (or may have been: unknown counts as chat). */
export function vllmMaybeChat(aggregates: Record<string, unknown>): boolean {
  return !(aggregates.endpoint_type === "openai" || aggregates.backend === "vllm");
}

/** Per-request values each family is computed from, in ms. */
function familyValues(family: "ttft" | "tpot" | "itl" | "e2e", ok: readonly DerivedRequest[]) {
  if (family === "ttft") return defined(ok.map(ttftOf));
  if (family === "itl") return ok.flatMap(gapsOf);
  if (family === "e2e") return defined(ok.map(endOf));
  return defined(
    ok.map((r) => {
      const end = endOf(r);
      const t = ttftOf(r);
      return end === null || t === null || r.out === null || r.out <= 1 ? null : (end - t) / (r.out - 1);
    })
  );
}

/**
 * Bounds for TPOT and E2E statistics when the file lacks per-request latency: each latency is at least
 * ttft + Σ chunk gaps (the last chunk), and the tails above that sum to T = n·mean_latency − Σ(ttft + Σ gaps),
 * so each tail lies in [0, T]. R-7 percentiles and medians are monotone in every value, so the statistic
 * of the lower values is a lower bound and of lower + T (per request) an upper bound.
 */
function boundFor(
  family: "tpot" | "e2e",
  stat: Stat,
  ok: readonly DerivedRequest[],
  meanLatencyMs: number | null
): Recomputed {
  const last = ok.map((r) => ({r, last: lastTokenOf(r), ttft: ttftOf(r)}));
  if (last.some((x) => x.last === null || x.ttft === null)) return missing("token times missing");
  const tail = meanLatencyMs === null ? null : meanLatencyMs * ok.length - sumOf(last.map((x) => x.last!));
  if (family === "e2e") {
    const lo = last.map((x) => x.last!);
    if (stat === "std" || stat === "count") return missing("per-request latency not recorded");
    if (stat === "mean")
      return bounded(numpyStat(lo, "mean") ?? null, null, "mean latency ≥ mean of (ttft + Σ chunk gaps)");
    return bounded(
      numpyStat(lo, stat) ?? null,
      tail === null
        ? null
        : (numpyStat(
            lo.map((v) => v + Math.max(0, tail)),
            stat
          ) ?? null),
      "per-request latency lies between the last chunk and the last chunk + the total tail implied by the reported mean"
    );
  }
  const rows = last.filter((x) => x.r.out !== null && x.r.out > 1);
  const lo = rows.map((x) => (x.last! - x.ttft!) / (x.r.out! - 1));
  if (lo.length === 0) return missing("no request with more than one output token");
  if (tail === null) return missing("neither per-request latency nor a reported mean latency");
  const T = Math.max(0, tail);
  if (stat === "mean") {
    const denoms = rows.map((x) => x.r.out! - 1);
    const m = numpyStat(lo, "mean")!;
    return bounded(
      m + T / (lo.length * max(denoms)!),
      m + T / (lo.length * min(denoms)!),
      `latency unknown per request; the tails total ${T.toFixed(3)} ms over ${ok.length} requests (from the reported mean latency), shared in every possible way`
    );
  }
  if (stat === "std" || stat === "count")
    return missing("per-request latency not recorded; no bound computed for this statistic");
  const hi = rows.map((x, i) => lo[i]! + T / (x.r.out! - 1));
  return bounded(
    numpyStat(lo, stat) ?? null,
    numpyStat(hi, stat) ?? null,
    "per-request TPOT lies between (last chunk − ttft)/(out − 1) and that plus the whole implied tail over (out − 1)"
  );
}

/** Recomputes one `<stat>_<family>_ms` number under the tool's definition. */
export function recomputeVllmStat(
  family: "ttft" | "tpot" | "itl" | "e2e",
  stat: Stat,
  requests: readonly DerivedRequest[],
  facts: {latenciesS?: readonly number[]; meanLatencyMs: number | null}
): Recomputed {
  const ok = successes(requests);
  if (facts.latenciesS && family === "e2e")
    return exact(
      numpyStat(
        facts.latenciesS.map((s) => s * 1000),
        stat
      ),
      "from the per-request latencies array"
    );
  if (ok.length === 0) return missing("no successful request records (the file has no per-request arrays)");
  const hasLatency = ok.every((r) => r.record.tEndNs !== null);
  if ((family === "tpot" || family === "e2e") && !hasLatency) return boundFor(family, stat, ok, facts.meanLatencyMs);
  return exact(numpyStat(familyValues(family, ok), stat, 0));
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The three-column rows of one vLLM or SGLang run. */
export function compareVllmLike(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;
  const facts = source.facts as {
    flavor?: Flavor;
    durationS?: number;
    completed?: number;
    latenciesS?: number[];
    perRequest?: string;
  };
  const flavor: Flavor = facts.flavor ?? (source.tool === "sglang" ? "sglang" : "vllm");
  const point = source.point;
  const ok = successes(requests);
  const completed = num(agg.completed);
  const allFailed = completed === 0;
  const rows: SourceComparisonRow[] = [];
  const stats = statsOf(agg);
  const meanLatencyMs = num(stats.get("e2e")?.get("mean")?.value);
  const duration = num(agg.duration);
  const haveRecords = requests.length > 0;
  const recount = (v: number): Recomputed => (haveRecords ? exact(v) : missing("no per-request arrays in the file"));

  rows.push(
    finishRow({
      point,
      metric: "completed",
      definition: "requests that finished successfully",
      unit: "requests",
      reported: completed,
      recomputed: recount(ok.length),
      canonical: canonical ? {metric: "n_success", value: ok.length} : null,
      codes: []
    })
  );
  const outTokens = ok.map((r) => r.out);
  const sumOut = outTokens.every((x) => x !== null) ? sumOf(outTokens as number[]) : null;
  const inTokens = ok.map((r) => r.in);
  const sumIn = inTokens.every((x) => x !== null) ? sumOf(inTokens as number[]) : null;
  const outKey = "total_output_tokens" in agg ? "total_output_tokens" : "total_output";
  const inKey = "total_input_tokens" in agg ? "total_input_tokens" : "total_input";
  rows.push(
    finishRow({
      point,
      metric: outKey,
      definition:
        flavor === "sglang"
          ? "Σ output tokens (server usage, else the requested length)"
          : "Σ output tokens of successful requests",
      unit: "tokens",
      reported: num(agg[outKey]),
      recomputed: haveRecords ? exact(sumOut) : missing("no per-request arrays in the file"),
      canonical: null,
      codes: []
    }),
    finishRow({
      point,
      metric: inKey,
      definition: "Σ prompt tokens of successful requests",
      unit: "tokens",
      reported: num(agg[inKey]),
      recomputed: haveRecords ? exact(sumIn) : missing("no per-request arrays in the file"),
      canonical: null,
      codes: []
    })
  );
  if (flavor === "sglang" && num(agg.total_output_retokenized) !== null && num(agg[outKey]) !== null) {
    const a = num(agg[outKey])!;
    const b = num(agg.total_output_retokenized)!;
    if (Math.abs(a - b) > 0.02 * Math.max(a, b))
      rows.push(
        finishRow({
          point,
          metric: "total_output_retokenized",
          definition: "Σ output tokens re-tokenized on the client",
          unit: "tokens",
          reported: b,
          recomputed: derived(a, "total_output"),
          canonical: null,
          codes: ["token_source"],
          why: "usage_source uncertain: SGLang's total_output differs from its re-tokenized count by more than 2 %"
        })
      );
  }
  const windowNote = "their duration is kept as the window (the file has no run start and end)";
  rows.push(
    finishRow({
      point,
      metric: "duration",
      definition: "first request issued to last request finished, seconds",
      unit: "s",
      reported: duration,
      recomputed: missing("the run's start and end are not in the per-request data"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window runs from the first measured request's start to the last measured request's end"
    }),
    finishRow({
      point,
      metric: "request_throughput",
      definition: "completed / duration",
      unit: "req/s",
      reported: num(agg.request_throughput),
      recomputed:
        haveRecords && duration
          ? derived(ok.length / duration, windowNote)
          : missing("no per-request arrays in the file"),
      canonical: canonicalRun(canonical, "request_throughput_rps"),
      codes: ["window"],
      why: "measured over our window, not their duration"
    }),
    finishRow({
      point,
      metric: "output_throughput",
      definition: "Σ output tokens / duration",
      unit: "tok/s",
      reported: num(agg.output_throughput),
      recomputed:
        haveRecords && duration && sumOut !== null
          ? derived(sumOut / duration, windowNote)
          : missing("no per-request output lengths"),
      canonical: canonicalRun(canonical, "output_throughput_tok_s"),
      codes: ["window"],
      why: "measured over our window, not their duration"
    })
  );
  if (flavor === "sglang" && num(agg.concurrency) !== null && meanLatencyMs !== null && completed !== null && duration)
    rows.push(
      finishRow({
        point,
        metric: "concurrency",
        definition: "Σ E2E / duration (Little's law)",
        unit: "requests",
        reported: num(agg.concurrency),
        recomputed: derived(
          (meanLatencyMs * completed) / 1000 / duration,
          "mean_e2e_latency_ms × completed / duration"
        ),
        canonical: canonicalRun(canonical, "achieved_concurrency"),
        codes: ["definition", "window"],
        why: "ours is the time-weighted mean in flight over our window"
      })
    );
  for (const family of ["ttft", "tpot", "itl", "e2e"] as const) {
    const fam = stats.get(family);
    if (!fam) continue;
    for (const [label, {key, value}] of fam) {
      const stat = parseStat(label)!;
      const reported = allFailed ? null : value;
      const rec = recomputeVllmStat(family, stat, requests, {latenciesS: facts.latenciesS, meanLatencyMs});
      const roleChunk = family === "ttft" && flavor === "vllm" && vllmMaybeChat(agg);
      const why = WHY[family];
      rows.push(
        finishRow({
          point,
          metric: key,
          definition: `${DEFS[flavor][family]}: ${label}`,
          unit: "ms",
          reported,
          recomputed: rec,
          canonical: canonicalRef(canonical, CANONICAL[family], stat),
          codes:
            typeof stat === "string" && stat !== "median"
              ? why.codes.filter((c) => c !== "percentile_method")
              : why.codes,
          why: why.why,
          ...(roleChunk ? {caveat: VLLM_CHAT_TTFT_CAVEAT} : {})
        })
      );
    }
  }
  return rows;
}
