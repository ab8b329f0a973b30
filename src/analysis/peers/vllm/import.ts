import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../../schema/records.ts";
import {
  chunkEvents,
  isoFromLocal,
  loadPoint,
  numberRecords,
  requestCounts,
  requestRecord,
  sourceRecord
} from "../shared/build.ts";
import {jsonSafe} from "../shared/parse.ts";
import type {Doc, ImportedRun, PeerError, PeerTool, Result} from "../shared/types.ts";
import {
  commonSettings,
  conditionOf,
  conditionText,
  modelOf,
  serverVersions,
  sglangRetokenizedGap,
  clientApiOf,
  vllmMaybeChatRun,
  type Condition
} from "./condition.ts";
import {VLLM_CHAT_TTFT_CAVEAT, type Flavor, type VllmLikeRun} from "./format.ts";
import {selfContradictions} from "./consistency.ts";
import {readRuns, type ParsedRun} from "./runs.ts";
import {requestTimes, runOrigin} from "./times.ts";

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

/** The requests a run failed: its `failed`, else (2024 files, SGLang) the prompts it did not complete; else unknown. */
const failedOf = (run: VllmLikeRun): number | null =>
  run.failed ?? (run.num_prompts == null ? null : run.num_prompts - run.completed);

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
  const t0 = runOrigin(run);
  const out: RequestRecord[] = [];
  for (let i = 0; i < ttfts.length; i++) {
    const err = run.errors?.[i] ?? "";
    const t = requestTimes(run, i, t0);
    // the tool's verdict is its error string: empty means its client saw HTTP 200 and the stream's end
    // (`success`), tokens or not; a token came when it set a first-token time or timed a gap after one
    const failed = t.failed;
    const ok = !failed && t.ttft !== null && (t.ttft > 0 || t.gaps.length > 0);
    // a client that keeps latencies (a patched vLLM) leaves a failed request's at its default 0: unknown
    const unset = t.latencyUnset;
    const latency = t.latency;
    const nullReasons: Record<string, string> = {};
    // SGLang's trt client writes the requested output length as every request's output_len: not a count
    const requested = flavor === "sglang" && run.backend === "trt";
    const outTokens = requested ? null : (run.output_lens?.[i] ?? null);
    if (requested && run.output_lens?.[i] != null)
      nullReasons.completionTokens =
        "SGLang's trt client writes the requested output length as output_len, not a count of what was generated";
    if (unset) nullReasons.tEndNs = "a failed request's latency is 0 in the file, the client's default: unknown";
    else if (latency === undefined)
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
        tDispNs: t.dispNs,
        tEndNs: t.endNs,
        // an answer without any token and without an error is written as what it was (HTTP 200, no token
        // event, no error): InferScope's derivation judges it (empty_output); the tool counted it completed
        events: ok && t.firstNs !== null ? chunkEvents(t.firstNs, t.gapsNs) : [],
        eventCoverage: "token_chunks",
        httpStatus: failed ? null : 200,
        transportError: failed ? "other" : null,
        errorMessage: failed ? err.slice(0, 4096) : null,
        usage: {
          promptTokens: run.input_lens?.[i] ?? null,
          completionTokens: failed ? null : outTokens,
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

/** A load point and the condition of its first run, which every repeat must share. */
interface PointEntry {
  point: LoadPoint;
  condition: Condition;
  label: string;
}

/**
 * Runs to load points. Runs at one point (mode and value) are its repeats only under one condition (same
 * backend, planned requests, workload, swept parameters: `conditionOf`); a second condition at an occupied point
 * is refused, naming both runs, because a bundle's point id is its mode and value and cannot hold two
 * workloads. Runs of different conditions at different points are imported, with a note per point.
 */
function placeRuns(flavor: Flavor, runs: readonly ParsedRun[]): Result<{points: PointEntry[]; repeats: number[]}> {
  const points = new Map<string, PointEntry>();
  const repeats: number[] = [];
  const errors: PeerError[] = [];
  for (const r of runs) {
    const p = pointOf(r.run);
    const condition = conditionOf(flavor, r.raw);
    const existing = points.get(p.id);
    if (existing && existing.condition.key !== condition.key) {
      const same = commonSettings([existing.condition, condition]);
      errors.push({
        file: r.file,
        path: `${r.where}${r.base}`,
        expected: `the condition of ${existing.label}, which this run would repeat at load point ${p.id}: that run has ${conditionText(existing.condition, same)}, this one ${conditionText(condition, same)}. The repeats of a load point are one condition, and a bundle has one load point per mode and value: import each condition's runs as a bundle of their own`
      });
      continue;
    }
    repeats.push(existing ? existing.point.repeats++ : 0);
    if (!existing) points.set(p.id, {point: p, condition, label: r.label});
  }
  return errors.length ? {ok: false, errors} : {ok: true, value: {points: [...points.values()], repeats}};
}

/**
 * The notes and warnings that concern the whole import: mixed conditions, empty answers, SGLang token counts its
 * own re-tokenization contradicts, unjudged failures.
 */
function importNotes(
  flavor: Flavor,
  runs: readonly ParsedRun[],
  points: readonly PointEntry[],
  requests: readonly RequestRecord[]
): {notes: string[]; warnings: string[]} {
  const notes: string[] = [];
  const warnings: string[] = [];
  const label = flavor === "vllm" ? "vLLM" : "SGLang";
  if (new Set(points.map((p) => p.condition.key)).size > 1) {
    const same = commonSettings(points.map((p) => p.condition));
    const w = `the load points are not one condition (${points.map((p) => `${p.point.id}: ${conditionText(p.condition, same)}`).join("; ")}${same.size ? `; all with ${[...same].join(", ")}` : ""}): compare them with that in mind`;
    notes.push(w);
    warnings.push(w);
  }
  const empty = requests.filter((r) => r.errorMessage === null && r.events.length === 0);
  if (empty.length) {
    const w = `${empty.length} of ${requests.length} requests ended without an error and without any token (${empty
      .slice(0, 5)
      .map((r) => r.id)
      .join(
        ", "
      )}${empty.length > 5 ? ", …" : ""}): an empty output with no error is what ${label} counts as completed (TTFT 0 in its file), and the rows under its definition count them so; InferScope's definition treats an answer without any token as a failure (empty_output), so its own columns and the error-rate gate count them as failed`;
    notes.push(w);
    warnings.push(w);
  }
  for (const {raw, label: where} of runs) {
    const gap = flavor === "sglang" ? sglangRetokenizedGap(raw) : null;
    if (gap) {
      notes.push(`${where}: ${gap.note}`);
      warnings.push(`${where}: ${gap.note}`);
    }
  }
  for (const {run, raw, label: where} of runs)
    for (const c of selfContradictions(run, raw)) {
      const w = `${where}: the file contradicts itself: ${c}. Its numbers are imported as written; none of them can be trusted until the file is explained`;
      notes.push(w);
      warnings.push(w);
    }
  for (const {run, label: where} of runs) {
    const failed = failedOf(run);
    // warned where requests are known to have failed, or none completed (an unknown count alone is G3's to say)
    if (run.ttfts || ((failed ?? 0) === 0 && run.completed > 0)) continue;
    const gate =
      failed === null
        ? "so InferScope cannot judge its error rate (G3 not evaluable)"
        : `so the error-rate gate (G3) reads ${label}'s own counts: a failed share above its threshold fails the run, a lower one is not a pass (what ${label} counted as completed cannot be checked)`;
    const w = `${where}: ${label} counted ${run.completed} completed and ${failed ?? "an unknown number of"} failed requests, but the file keeps no per-request results (no ${flavor === "vllm" ? "--save-detailed" : "--output-details"}): no request records are written, ${gate}; the counts stand in the source comparison`;
    notes.push(w);
    warnings.push(w);
  }
  return {notes, warnings};
}

/** The engine's version when the results name one: SGLang's server_info, one version for every server. */
function engineVersionOf(runs: readonly ParsedRun[], notes: string[]): string | undefined {
  const all = runs.flatMap((r) => serverVersions(r.raw));
  const distinct = [...new Set(all.map((v) => v.version))];
  if (distinct.length <= 1) return distinct[0];
  const byRole = [...new Set(all.map((v) => `${v.role} ${v.version}`))].join(", ");
  notes.push(`server_info names several SGLang versions (${byRole}): no single engine version is recorded`);
  return undefined;
}

/**
 * Maps vLLM/SGLang result objects (a JSON file, JSON Lines with one run per line, or a vllm bench sweep
 * summary.json) to one imported run. Long because it reads as the mapping, field by field: runs → points,
 * request records, source records, notes.
 */
// eslint-disable-next-line max-lines-per-function -- the mapping, field by field (see above)
export function importVllmLike(flavor: Flavor, docs: readonly Doc[]): Result<ImportedRun> {
  const tool: PeerTool = flavor;
  const notes = new Set<string>();
  const readNotes: string[] = [];
  const read = readRuns(flavor, docs, readNotes);
  if (!read.ok) return read;
  const runs = read.value;
  const placed = placeRuns(flavor, runs);
  if (!placed.ok) return placed;
  const {points, repeats} = placed.value;
  const requests: RequestRecord[] = [];
  const sources: SourceRecord[] = [];
  runs.forEach(({run, raw, file}, k) => {
    const p = pointOf(run);
    if (p.mode === "concurrency" && run.max_concurrency == null)
      notes.add(
        `${p.id}: the file sets no max_concurrency and an infinite request rate (every request sent at once): the load point is derived as concurrency = ${run.num_prompts != null ? "num_prompts" : "completed + failed"} (${p.value}), not declared by the file`
      );
    if (p.mode !== "concurrency" && p.maxConcurrency !== null)
      notes.add(
        `${p.id}: ${p.value} req/s with at most ${p.maxConcurrency} requests in flight (max_concurrency): where the cap is reached it, not the rate, sets the achieved load`
      );
    const repeat = repeats[k]!;
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
          // the client awaits every request: none is left incomplete
          requestCounts: requestCounts(run.completed, failedOf(run), 0),
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
  if (flavor === "vllm" && vllmMaybeChatRun(runs[0]!.raw)) notes.add(VLLM_CHAT_TTFT_CAVEAT);
  const versionNotes: string[] = [];
  const engineVersion = engineVersionOf(runs, versionNotes);
  const serverInfo = runs.some((r) => "server_info" in r.raw);
  const endpoints = new Set(runs.map(({run}) => endpointOf(flavor, run)));
  const extra = importNotes(flavor, runs, points, requests);
  return {
    ok: true,
    value: {
      tool,
      toolVersion: null,
      model: modelOf(runs[0]!.raw),
      startedAt: isoFromLocal(first.date),
      finishedAt: null,
      clock: first.start_times ? "monotonic" : "request",
      originNs: "0",
      loadPoints: points.map((p) => p.point),
      requests: numberRecords(requests),
      sources: numberRecords(sources),
      workload: {endpoint: endpoints.size === 1 ? endpointOf(flavor, first) : undefined},
      environment: {
        // the client's backend names an engine (vllm, tgi, lmdeploy, sglang…) or only an API dialect
        // (openai, openai-chat, sglang-oai): a dialect says nothing of the engine behind it; SGLang's
        // server_info is the server's own answer
        engine: serverInfo
          ? "sglang"
          : apiDialect(first.backend)
            ? undefined
            : flavor === "sglang"
              ? (first.backend ?? "sglang")
              : (first.backend ?? undefined),
        ...(engineVersion ? {engineVersion} : {}),
        extra: first.backend ? {backend: first.backend} : {}
      },
      labels: {imported_from: tool, ...(first.date ? {source_date: first.date} : {})},
      notes: [
        ...readNotes,
        ...notes,
        ...versionNotes,
        ...extra.notes,
        ...(first.date ? ["the source date carries no time zone; read as UTC"] : [])
      ],
      ...(extra.warnings.length || readNotes.length ? {warnings: [...readNotes, ...extra.warnings]} : {}),
      status: "complete",
      statusReason: null
    }
  };
}

/** The endpoint a result was measured on, when its backend names an OpenAI client (condition.ts). */
const endpointOf = (flavor: Flavor, run: VllmLikeRun): "completions" | "chat" | undefined => {
  const api = clientApiOf(flavor, run);
  return api === "other" ? undefined : api;
};

export const importVllm = (docs: readonly Doc[]): Result<ImportedRun> => importVllmLike("vllm", docs);

/** A benchmark client backend that names an API dialect, not an engine. */
const apiDialect = (backend: string | null | undefined): boolean =>
  typeof backend === "string" && (/^openai/.test(backend) || /-oai(-|$)/.test(backend));
