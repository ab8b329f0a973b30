import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {max, min} from "d3-array";
import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {
  analyzeBundle,
  deriveRequest,
  importPeer,
  PEER_TOOLS,
  sourceComparison,
  type DerivedRequest,
  type ImportedRun,
  type PeerFile,
  type PeerTool,
  type PointInput
} from "../../src/analysis/index.ts";
import {parseJsonExact} from "../../src/analysis/peers/shared/parse.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {spawnCli} from "../collector/helpers.ts";
import {SYNTH} from "./helpers.ts";

/**
 * Issue 11 item 6: `Math.max(...xs)` / `push(...xs)` pass every element as an argument and overflow the
 * stack beyond ~120k elements, so importing a large result crashed. Every importer is fed here, in
 * memory, an input of N requests made by replicating the per-request entries of its small synthetic
 * fixture (ids made unique, timestamps shifted by one fixture span per copy so they keep increasing,
 * run-level counts set to match), and must import it with one record per request.
 *
 * Entry i of a scaled input is copy ⌊i / n⌋ of fixture entry i mod n, so record i must look like record
 * i mod n of the fixture imported as it is (same outcome, usage and number of events).
 */
const N = 150_000;
// a limit, not a speed target (bench:import measures speed): the AIPerf import of 150,000 requests took 128 s with a
// mutation run and two other jobs on this 2-core machine, about 4× its time alone
const TIMEOUT = 360_000;

const read = (rel: string): string => readFileSync(join(SYNTH, rel), "utf8");
/** Fixture JSON with integers beyond 2^53 (epoch ns) kept exact as bigint, as the importers read them. */
const readExact = <T = Record<string, unknown>>(rel: string): T => parseJsonExact(read(rel)) as T;
const readLinesExact = <T = Record<string, unknown>>(rel: string): T[] =>
  read(rel)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => parseJsonExact(l) as T);

/** JSON text in which bigint values are written as bare integers (exact). */
const BIG = "__scale_bigint__:";
const BIG_RE = new RegExp(`"${BIG}(-?\\d+)"`, "g");
const stringify = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${BIG}${x}` : x)).replace(BIG_RE, "$1");

/** `total` entries: entry i is `make(items[i mod n], ⌊i / n⌋, i)`. */
function replicate<T, U>(items: readonly T[], total: number, make: (item: T, copy: number, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < total; i++) out.push(make(items[i % items.length]!, Math.floor(i / items.length), i));
  return out;
}

/** Replicates every array of `obj` that has one entry per request (length n), index-aligned. */
function replicateArrays(
  obj: Record<string, unknown>,
  n: number,
  total: number,
  shift: Record<string, (x: unknown, copy: number) => unknown> = {}
): {out: Record<string, unknown>; keys: string[]} {
  const out: Record<string, unknown> = {...obj};
  const keys: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (!Array.isArray(v) || v.length !== n) continue;
    keys.push(k);
    const f = shift[k];
    out[k] = replicate(v as unknown[], total, (x, c) => (f ? f(x, c) : x));
  }
  return {out, keys: keys.sort()};
}

const big = (x: unknown): bigint => BigInt(x as bigint | number);
const bigMax = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));
const bigMin = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => (b < a ? b : a));

function imported(tool: PeerTool | "auto", files: readonly PeerFile[]): ImportedRun {
  const r = importPeer(tool, files);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.file}: ${e.path}: ${e.expected}`).join("\n"));
  return r.value;
}

/** What a record keeps of its source entry whatever copy it is: outcome, usage, how many events. */
const shape = (r: ImportedRun["requests"][number]): string =>
  JSON.stringify([r.httpStatus, r.transportError, r.errorMessage, r.usage, r.events.length, r.phase, r.timeBase]);

/**
 * The scaled run has `total` records with unique ids and seq 0…total−1, record i shaped like record
 * i mod n of the unscaled fixture.
 */
function expectScaled(run: ImportedRun, reference: ImportedRun, total: number): void {
  const ref = reference.requests.map(shape);
  expect(ref.length).toBeGreaterThan(0);
  expect(run.requests.length).toBe(total);
  expect(new Set(run.requests.map((r) => r.id)).size).toBe(total);
  const badSeq = run.requests.findIndex((r, i) => r.seq !== i);
  expect(badSeq).toBe(-1);
  const mismatched: number[] = [];
  run.requests.forEach((r, i) => {
    if (mismatched.length < 5 && shape(r) !== ref[i % ref.length]) mismatched.push(i);
  });
  expect(mismatched).toEqual([]);
}

/** The source comparison `analyzeBundle` makes of an imported run (our canonical column left out). */
function compareAll(run: ImportedRun): ReturnType<typeof sourceComparison> {
  const derived = new Map<string, DerivedRequest[]>(run.loadPoints.map((p) => [p.id, []]));
  for (const r of run.requests) if (r.phase === "measure") derived.get(r.point)?.push(deriveRequest(r));
  return sourceComparison(
    run.sources,
    new Map([...derived].map(([id, requests]): [string, PointInput] => [id, {requests, canonical: null}]))
  );
}

// ---------------------------------------------------------------------------------------------------
// Builders: a scaled input of `total` requests per format, from its synthetic fixture

/** vLLM 2025+ --save-detailed: per-request arrays replicated, start_times shifted by the run duration. */
function vllmDetailed(total: number): {text: string; failed: number} {
  const src = readExact("vllm/vllm-2025-detailed.json");
  const n = (src.ttfts as unknown[]).length;
  const duration = src.duration as number;
  const {out, keys} = replicateArrays(src, n, total, {start_times: (x, c) => (x as number) + c * duration});
  expect(keys).toEqual(
    expect.arrayContaining([
      "errors",
      "generated_texts",
      "input_lens",
      "itls",
      "latencies",
      "output_lens",
      "start_times",
      "ttfts"
    ])
  );
  const failed = (out.errors as string[]).filter((e) => e !== "").length;
  out.num_prompts = total;
  out.completed = total - failed;
  out.failed = failed;
  out.duration = duration * Math.ceil(total / n);
  return {text: stringify(out), failed};
}

/** SGLang JSONL: the first line's per-request arrays replicated, the aggregate-only second line kept. */
function sglangScaled(total: number): string {
  const [first, ...rest] = readLinesExact("sglang/sglang-bench-serving.jsonl");
  const n = (first!.ttfts as unknown[]).length;
  const {out, keys} = replicateArrays(first!, n, total);
  expect(keys).toEqual(expect.arrayContaining(["input_lens", "itls", "output_lens", "ttfts"]));
  for (const r of rest) expect(r.ttfts).toBeUndefined();
  out.completed = (out.errors as string[] | undefined)?.filter((e) => e === "").length ?? total;
  return [out, ...rest].map(stringify).join("\n") + "\n";
}

interface GenaiReq {
  timestamp: bigint | number;
  response_timestamps: (bigint | number)[];
  [k: string]: unknown;
}

/** GenAI-Perf: experiment 0's requests replicated, send and response timestamps shifted (exact ns). */
function genaiPerfScaled(total: number): PeerFile[] {
  const exp = readExact<{experiments: {requests: GenaiReq[]}[]}>("genai-perf/profile_export.json");
  const reqs = exp.experiments[0]!.requests;
  const span =
    bigMax(reqs.flatMap((r) => r.response_timestamps.map(big))) -
    bigMin(reqs.map((r) => big(r.timestamp))) +
    1_000_000n;
  exp.experiments = [
    {
      ...exp.experiments[0]!,
      requests: replicate(reqs, total, (r, c) => ({
        ...r,
        timestamp: big(r.timestamp) + BigInt(c) * span,
        response_timestamps: r.response_timestamps.map((t) => big(t) + BigInt(c) * span)
      }))
    }
  ];
  return [
    {name: "profile_export.json", text: stringify(exp)},
    {name: "profile_export_genai_perf.json", text: read("genai-perf/profile_export_genai_perf.json")}
  ];
}

interface AiperfRec {
  metadata: Record<string, unknown>;
  metrics: Record<string, {value: unknown; unit?: string}> | null;
  error: unknown;
}

/** The later generation (request_start_ns…); the Oct-2025 one differs in field names only. */
const AIPERF = "aiperf/later";

/** AIPerf profile_export.jsonl: records replicated with unique ids and every ns timestamp shifted. */
function aiperfScaled(total: number): PeerFile[] {
  const recs = readLinesExact<AiperfRec>(`${AIPERF}/profile_export.jsonl`);
  const isNs = (k: string) => k.endsWith("_ns");
  const times = recs.flatMap((r) =>
    Object.entries(r.metadata)
      .filter(([k, v]) => isNs(k) && v != null)
      .map(([, v]) => big(v))
  );
  const span = bigMax(times) - bigMin(times) + 1_000_000_000n;
  const TS_TAGS = new Set(["min_request_timestamp", "max_response_timestamp"]);
  const lines = replicate(recs, total, (r, c, i) => {
    const shift = BigInt(c) * span;
    const metadata: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.metadata)) metadata[k] = isNs(k) && v != null ? big(v) + shift : v;
    for (const k of ["x_request_id", "x_correlation_id", "conversation_id"])
      if (k in metadata) metadata[k] = `${k}-${i}`;
    if ("session_num" in metadata) metadata.session_num = i;
    const metrics = r.metrics && {...r.metrics};
    for (const t of TS_TAGS) if (metrics?.[t]) metrics[t] = {...metrics[t], value: big(metrics[t].value) + shift};
    return stringify({...r, metadata, metrics});
  });
  const agg = readExact(`${AIPERF}/profile_export_aiperf.json`);
  const loadgen = (agg.input_config as {loadgen?: Record<string, unknown>} | undefined)?.loadgen;
  if (loadgen && "request_count" in loadgen) loadgen.request_count = total;
  return [
    {name: "profile_export.jsonl", text: lines.join("\n") + "\n"},
    {name: "profile_export_aiperf.json", text: stringify(agg)}
  ];
}

interface GuideReq {
  request_id?: string;
  info: {timings: Record<string, number | null>};
  [k: string]: unknown;
}

/** GuideLLM: benchmarks[0].requests.successful replicated, epoch-second timings shifted, totals matched. */
function guidellmScaled(total: number): PeerFile[] {
  const report = readExact<{benchmarks: Record<string, unknown>[]}>("guidellm/benchmarks.json");
  expect(report.benchmarks).toHaveLength(1);
  const b = report.benchmarks[0]!;
  const requests = b.requests as {successful: GuideReq[]; errored?: unknown[]; incomplete?: unknown[]};
  expect(requests.errored ?? []).toEqual([]);
  expect(requests.incomplete ?? []).toEqual([]);
  const ok = requests.successful;
  const ts = ok.flatMap((r) =>
    Object.values(r.info.timings).filter((t): t is number => typeof t === "number" && t > 1e9)
  );
  const span = max(ts)! - min(ts)! + 1;
  requests.successful = replicate(ok, total, (r, c, i) => {
    const timings: Record<string, number | null> = {};
    for (const [k, t] of Object.entries(r.info.timings))
      timings[k] = typeof t === "number" && t > 1e9 ? t + c * span : t;
    return {...r, request_id: `g${i}`, info: {...r.info, timings}};
  });
  const metrics = b.metrics as {request_totals?: Record<string, number>};
  if (metrics.request_totals) metrics.request_totals = {...metrics.request_totals, successful: total, total};
  b.end_time = (b.start_time as number) + span * Math.ceil(total / ok.length);
  b.duration = (b.end_time as number) - (b.start_time as number);
  return [{name: "benchmarks.json", text: stringify(report)}];
}

/** LLMPerf: individual responses replicated (no timestamps, no ids in the format); summary counts matched. */
function llmperfScaled(total: number): PeerFile[] {
  const rows = readExact<Record<string, unknown>[]>("llmperf/synthetic_individual_responses.json");
  const scaled = replicate(rows, total, (r) => r);
  const summary = readExact("llmperf/synthetic_summary.json");
  // the summary's counts follow the rows (the importer pairs a summary only with rows it could describe);
  // the replicated rows keep the fixture's minima and maxima
  const errors = scaled.filter((r) => r.error_code != null).length;
  if ("results_num_requests_started" in summary) summary.results_num_requests_started = scaled.length;
  if ("results_number_errors" in summary) summary.results_number_errors = errors;
  if ("results_num_completed_requests" in summary) summary.results_num_completed_requests = scaled.length - errors;
  return [
    {name: "synthetic_individual_responses.json", text: stringify(scaled)},
    {name: "synthetic_summary.json", text: stringify(summary)}
  ];
}

const V1_RAW = "inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0";
const V1_AGG = "inferscope-v1/results/processed/20250801T100000000000Z-abcdef12-concurrency-2-r0/aggregate.json";
const V1_TIMES = ["scheduled_at_ns", "started_at_ns", "first_content_at_ns", "finished_at_ns"] as const;

/** InferScope v1 raw folder: requests.jsonl rows replicated (one run id, unique request ids, sequence). */
function v1Scaled(total: number): PeerFile[] {
  const rows = readLinesExact(`${V1_RAW}/requests.jsonl`);
  const times = rows.flatMap((r) => [
    ...V1_TIMES.map((k) => r[k]).filter((t) => t != null),
    ...((r.chunk_times_ns as unknown[] | null) ?? [])
  ]);
  const span = bigMax(times.map(big)) - bigMin(times.map(big)) + 1_000_000n;
  const lines = replicate(rows, total, (r, c, i) => {
    const shift = BigInt(c) * span;
    const row: Record<string, unknown> = {...r, request_id: `v1-${i}`, sequence: i};
    for (const k of V1_TIMES) if (r[k] != null) row[k] = big(r[k]) + shift;
    if (Array.isArray(r.chunk_times_ns)) row.chunk_times_ns = r.chunk_times_ns.map((t) => big(t) + shift);
    return stringify(row);
  });
  const agg = readExact(V1_AGG);
  const counts = agg.requests as Record<string, number> | undefined;
  if (counts) {
    const successes = replicate(rows, total, (r) => r.status === "success").filter(Boolean).length;
    agg.requests = {...counts, scheduled: total, successful: successes, valid: successes};
  }
  return [
    {name: "requests.jsonl", text: lines.join("\n") + "\n"},
    {name: "manifest.json", text: read(`${V1_RAW}/manifest.json`)},
    {name: "config.resolved.yaml", text: read(`${V1_RAW}/config.resolved.yaml`)},
    {name: "validation.json", text: read(`${V1_RAW}/validation.json`)},
    {name: "aggregate.json", text: stringify(agg)}
  ];
}

// ---------------------------------------------------------------------------------------------------

/**
 * The spawned import of TOTAL requests is the slowest case: it is started before the in-process cases,
 * so that it runs on another core meanwhile, and awaited by the last test.
 */
const TOTAL = 500_000;
let root: string | null = null;
let cli: {child: ReturnType<typeof spawnCli>; out: string; failed: number; exited: boolean} | null = null;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "inferscope-scale-"));
  root = dir;
  const {text, failed} = vllmDetailed(TOTAL);
  const file = join(dir, "vllm-500k.json");
  writeFileSync(file, text);
  const out = join(dir, "evidence");
  const child = spawnCli(["import", "auto", file, "--out", out]);
  const started = {child, out, failed, exited: false};
  void child.exit.then(() => (started.exited = true));
  cli = started;
});
afterAll(async () => {
  if (cli && !cli.exited) {
    cli.child.kill("SIGKILL");
    await cli.child.exit;
  }
  if (root) rmSync(root, {recursive: true, force: true});
});

/** Formats that hold aggregates only (no per-request data to scale). */
const AGGREGATES_ONLY = ["llmd-report"] as const;
type Scalable = Exclude<PeerTool, (typeof AGGREGATES_ONLY)[number]>;

/** Per tool: the fixture as it is (the reference) and the scaled input. */
const CASES: Record<Scalable, {fixture: () => PeerFile[]; scaled: (total: number) => PeerFile[]}> = {
  vllm: {
    fixture: () => [{name: "vllm-2025-detailed.json", text: read("vllm/vllm-2025-detailed.json")}],
    scaled: (total) => [{name: "vllm-2025-detailed.json", text: vllmDetailed(total).text}]
  },
  sglang: {
    fixture: () => [{name: "sglang-bench-serving.jsonl", text: read("sglang/sglang-bench-serving.jsonl")}],
    scaled: (total) => [{name: "sglang-bench-serving.jsonl", text: sglangScaled(total)}]
  },
  "genai-perf": {
    fixture: () => [
      {name: "profile_export.json", text: read("genai-perf/profile_export.json")},
      {name: "profile_export_genai_perf.json", text: read("genai-perf/profile_export_genai_perf.json")}
    ],
    scaled: genaiPerfScaled
  },
  aiperf: {
    fixture: () => [
      {name: "profile_export.jsonl", text: read(`${AIPERF}/profile_export.jsonl`)},
      {name: "profile_export_aiperf.json", text: read(`${AIPERF}/profile_export_aiperf.json`)}
    ],
    scaled: aiperfScaled
  },
  guidellm: {
    fixture: () => [{name: "benchmarks.json", text: read("guidellm/benchmarks.json")}],
    scaled: guidellmScaled
  },
  llmperf: {
    fixture: () => [
      {name: "synthetic_individual_responses.json", text: read("llmperf/synthetic_individual_responses.json")},
      {name: "synthetic_summary.json", text: read("llmperf/synthetic_summary.json")}
    ],
    scaled: llmperfScaled
  },
  "inferscope-v1": {
    fixture: () => [
      {name: "requests.jsonl", text: read(`${V1_RAW}/requests.jsonl`)},
      {name: "manifest.json", text: read(`${V1_RAW}/manifest.json`)},
      {name: "config.resolved.yaml", text: read(`${V1_RAW}/config.resolved.yaml`)},
      {name: "validation.json", text: read(`${V1_RAW}/validation.json`)},
      {name: "aggregate.json", text: read(V1_AGG)}
    ],
    scaled: v1Scaled
  }
};

describe(`every importer handles ${N} requests (issue 11 item 6: no stack overflow on large inputs)`, () => {
  it("covers every importer format", () => {
    const scalable = PEER_TOOLS.filter((t) => !(AGGREGATES_ONLY as readonly string[]).includes(t));
    expect(Object.keys(CASES).sort()).toEqual([...scalable].sort());
  });

  for (const tool of Object.keys(CASES) as Scalable[])
    it(
      `${tool}: ${N} requests import in process, one record per request`,
      () => {
        const reference = imported(tool, CASES[tool].fixture());
        const files = CASES[tool].scaled(N);
        // detection by shape must still pick the tool on the large input, and the import must succeed
        const r = importPeer("auto", files);
        if (!r.ok) throw new Error(r.errors.map((e) => `${e.file}: ${e.path}: ${e.expected}`).join("\n"));
        expect(r.value.tool).toBe(tool);
        expectScaled(r.value, reference, N);
        expect(r.value.loadPoints.map((p) => p.id)).toEqual(reference.loadPoints.map((p) => p.id));
        expect(r.value.sources.map((x) => x.point)).toEqual(reference.sources.map((x) => x.point));
        // `inferscope import` then recomputes the source's numbers over every record (analyzeBundle)
        const rows = compareAll(r.value).rows.map((x) => x.metric);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows).toEqual(compareAll(reference).rows.map((x) => x.metric));
      },
      TIMEOUT
    );

  it(
    "vLLM without --save-detailed: the per-request latencies array is kept whole (no request records)",
    () => {
      // latencies-only files have no per-request ttfts/itls, so no request records are made; their one
      // per-request path is the latencies array, kept in the source facts for recomputing E2E.
      // (Aggregate-only files — vLLM 2024 without arrays, a GenAI-Perf or AIPerf summary alone, an LLMPerf
      // summary alone — have no per-request data at all and nothing to scale.)
      const src = readExact("vllm/vllm-2025-latencies-only.json");
      const latencies = src.latencies as number[];
      const {out} = replicateArrays(src, latencies.length, N);
      out.num_prompts = N;
      out.completed = N;
      out.failed = 0;
      const run = imported("vllm", [{name: "vllm-2025-latencies-only.json", text: stringify(out)}]);
      expect(run.requests).toEqual([]);
      expect(run.sources).toHaveLength(1);
      const facts = run.sources[0]!.facts as {perRequest: string; latenciesS: number[]};
      expect(facts.perRequest).toBe("latencies_only");
      expect(facts.latenciesS).toHaveLength(N);
      // E2E statistics are recomputed from those N latencies
      const e2e = compareAll(run).rows.filter((x) => x.metric.endsWith("_e2el_ms"));
      expect(e2e.length).toBeGreaterThan(0);
      expect(e2e.every((x) => x.recomputed !== null)).toBe(true);
    },
    TIMEOUT
  );
});

/**
 * Inputs whose every request has a value of the wrong type, for the importers that validate a whole
 * document at once (vLLM, whose validation SGLang shares; GenAI-Perf, GuideLLM, LLMPerf): N errors, each
 * with its request's path, must come back as a result, not as a stack overflow. AIPerf and InferScope v1
 * validate each JSON Lines record on its own. Not here: a JSON Lines file with N unparsable lines
 * (parseDoc's "last line looks truncated" check slices the rest of the file per bad line, quadratic:
 * ~45 s for 150k lines).
 */
const INVALID: Partial<Record<PeerTool, {files: () => PeerFile[]; path: RegExp}>> = {
  vllm: {
    files: () => {
      const src = readExact("vllm/vllm-2025-detailed.json");
      const {out} = replicateArrays(src, (src.ttfts as unknown[]).length, N);
      out.ttfts = replicate(["0.1"], N, (x) => x);
      return [{name: "vllm.json", text: stringify(out)}];
    },
    path: /^\$\.ttfts\[\d+\]$/
  },
  "genai-perf": {
    files: () => {
      const exp = readExact<{experiments: {requests: Record<string, unknown>[]}[]}>("genai-perf/profile_export.json");
      exp.experiments[0]!.requests = replicate(exp.experiments[0]!.requests, N, (r) => ({...r, timestamp: "t0"}));
      return [{name: "profile_export.json", text: stringify(exp)}];
    },
    path: /^\$\.experiments\[0\]\.requests\[\d+\]\.timestamp$/
  },
  guidellm: {
    files: () => {
      const report = readExact<{benchmarks: {requests: {successful: GuideReq[]}}[]}>("guidellm/benchmarks.json");
      const b = report.benchmarks[0]!;
      b.requests.successful = replicate(b.requests.successful, N, (r, _c, i) => ({
        ...r,
        request_id: `g${i}`,
        prompt_tokens: "many"
      }));
      return [{name: "benchmarks.json", text: stringify(report)}];
    },
    path: /^\$\.benchmarks\[0\]\.requests\.successful\[\d+\]\.prompt_tokens$/
  },
  llmperf: {
    files: () => {
      const rows = readExact<Record<string, unknown>[]>("llmperf/synthetic_individual_responses.json");
      return [{name: "individual.json", text: stringify(replicate(rows, N, (r) => ({...r, ttft_s: "fast"})))}];
    },
    path: /^\$\[\d+\]\.ttft_s$/
  }
};

describe(`an invalid input with ${N} bad requests reports ${N} errors`, () => {
  for (const [tool, c] of Object.entries(INVALID) as [PeerTool, NonNullable<(typeof INVALID)[PeerTool]>][])
    it(
      tool,
      () => {
        const r = importPeer(tool, c.files());
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.errors).toHaveLength(N);
        expect(r.errors.filter((e) => !c.path.test(e.path)).slice(0, 3)).toEqual([]);
      },
      TIMEOUT
    );
});

describe(`inferscope import auto on a ${TOTAL}-request vLLM detailed result (spawned CLI)`, () => {
  it(
    `exits 0 and the written bundle analyses to ${TOTAL} measured requests`,
    async () => {
      const {child, out, failed} = cli!;
      const {code} = await child.exit;
      expect(code, child.stderr().slice(-4000)).toBe(0);
      expect(child.stderr()).toMatch(new RegExp(`imported vllm: ${TOTAL} requests, 1 load point`));
      const dir = child.stdout().trim();
      expect(dir.startsWith(out)).toBe(true);
      const report = await analyzeBundle(fsBundle(dir));
      expect(report.load_points.reduce((s, p) => s + p.n, 0)).toBe(TOTAL);
      expect(report.load_points.reduce((s, p) => s + p.n_success, 0)).toBe(TOTAL - failed);
    },
    TIMEOUT * 2
  );
});
