import {min} from "d3-array";

import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../../schema/records.ts";
import {appendAll} from "../../util/append.ts";
import {
  chunkEvents,
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestRecord,
  sToNs,
  sourceRecord
} from "../shared/build.ts";
import {docValues, jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, PeerTool, Result} from "../shared/types.ts";
import {ARRAYS, VLLM_CHAT_TTFT_CAVEAT, VllmLikeRun, vllmLikeShape, vllmMaybeChat, type Flavor} from "./format.ts";

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

interface ParsedRun {
  run: VllmLikeRun;
  raw: Record<string, unknown>;
  file: string;
  where: string;
}

/** Every run object of every file, validated and checked for index-aligned arrays; all errors together. */
function readRuns(flavor: Flavor, docs: readonly Doc[]): Result<ParsedRun[]> {
  const errors: PeerError[] = [];
  const runs: ParsedRun[] = [];
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
  return {ok: true, value: runs};
}

/**
 * Maps vLLM/SGLang result objects (a JSON file, or JSON Lines with one run per line) to one imported run.
 * Long because it reads as the mapping, field by field: runs → points, request records, source records, notes.
 */
// eslint-disable-next-line max-lines-per-function -- the mapping, field by field (see above)
export function importVllmLike(flavor: Flavor, docs: readonly Doc[]): Result<ImportedRun> {
  const tool: PeerTool = flavor;
  const read = readRuns(flavor, docs);
  if (!read.ok) return read;
  const runs = read.value;
  const points = new Map<string, LoadPoint>();
  const requests: RequestRecord[] = [];
  const sources: SourceRecord[] = [];
  const notes = new Set<string>();
  runs.forEach(({run, raw, file}, k) => {
    const p = pointOf(run);
    if (p.mode === "concurrency" && run.max_concurrency == null)
      notes.add(
        `${p.id}: the file sets no max_concurrency and an infinite request rate (every request sent at once): the load point is derived as concurrency = ${run.num_prompts != null ? "num_prompts" : "completed + failed"} (${p.value}), not declared by the file`
      );
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
        // the client's backend names an engine (vllm, tgi, lmdeploy, sglang…) or only an API dialect
        // (openai, openai-chat, sglang-oai): a dialect says nothing of the engine behind it
        engine: apiDialect(first.backend)
          ? undefined
          : flavor === "sglang"
            ? (first.backend ?? "sglang")
            : (first.backend ?? undefined),
        extra: first.backend ? {backend: first.backend} : {}
      },
      labels: {imported_from: tool, ...(first.date ? {source_date: first.date} : {})},
      notes: [...notes, ...(first.date ? ["the source date carries no time zone; read as UTC"] : [])],
      status: "complete",
      statusReason: null
    }
  };
}

export const importVllm = (docs: readonly Doc[]): Result<ImportedRun> =>
  importVllmLike("vllm", docs); /** A benchmark client backend that names an API dialect, not an engine. */
const apiDialect = (backend: string | null | undefined): boolean =>
  typeof backend === "string" && (/^openai/.test(backend) || /-oai(-|$)/.test(backend));
