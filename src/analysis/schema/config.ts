import {z} from "zod";

import {HardwareSpec} from "./hardware.ts";
import {MAX_TOKENS, WorkloadSpec} from "./workload.ts";
import {checkRateSpan, MAX_TIMER_MS} from "./loadChecks.ts";
import {checkWorkload} from "./workloadChecks.ts";

export {MAX_TOKENS, WorkloadSpec};

/**
 * The run configuration, as written by a user (YAML) and as resolved into a bundle
 * (`config.resolved.yaml`, every default filled in). Unknown keys are rejected everywhere.
 * Secrets never appear here: only the *name* of the environment variable that holds the API key.
 */

/** The collector's HTTP clients (target.http_client, manifest capture.httpClient). */
export const HttpClient = z.enum(["socket", "node_http"]);
export type HttpClient = z.infer<typeof HttpClient>;

export const LoadMode = z
  .enum(["concurrency", "rate", "poisson", "gamma", "trace"])
  .describe(
    "concurrency = closed loop with N in flight; rate = constant arrivals; poisson/gamma = seeded random arrivals; trace = the arrivals of workload.source (a trace), the value its replay speed"
  );
export type LoadMode = z.infer<typeof LoadMode>;

/**
 * Bounds that keep a typed number from breaking the run (issue 11): Node fires timers above 2³¹−1 ms at
 * once, and the load generator must not size memory by an absurd value. Each keeps legitimate scale
 * (tens of thousands of requests per second for days, contexts of millions of tokens).
 */
export {MAX_TIMER_MS};
const ms = (what: string) =>
  z
    .number()
    .positive()
    .max(MAX_TIMER_MS, `${what} above 2147483647 ms (24.8 days): Node would fire such a timer at once`);
const seconds = (what: string) =>
  z
    .number()
    .nonnegative()
    .max(MAX_TIMER_MS / 1000, `${what} above 2147483 s (24.8 days): Node would fire such a timer at once`);
export const MAX_CONCURRENCY = 1_000_000;
export const MAX_RATE = 1_000_000;
export const MAX_REQUESTS = 10_000_000_000;

export const OPEN_LOOP_MODES: readonly LoadMode[] = ["rate", "poisson", "gamma", "trace"];
export const isOpenLoop = (mode: LoadMode): boolean => OPEN_LOOP_MODES.includes(mode);

export const TargetSpec = z
  .strictObject({
    base_url: z.string().describe("OpenAI-compatible base URL including /v1, e.g. http://127.0.0.1:8000/v1"),
    model: z.string().min(1).describe("model name sent in each request"),
    endpoint: z
      .enum(["chat", "completions", "embeddings"])
      .default("chat")
      .describe("/chat/completions or /completions (streamed), or /embeddings (one JSON answer, not streamed)"),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe("name of the environment variable holding the API key (the key itself is never stored)"),
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe("extra request headers (values redacted in evidence)"),
    metrics_url: z.string().optional().describe("Prometheus endpoint; default: <base_url without /v1>/metrics"),
    engine: z.string().optional().describe("engine label shown in reports, e.g. vllm, sglang, llama.cpp"),
    engine_version: z.string().optional(),
    launch_args: z.array(z.string()).optional().describe("server launch arguments, recorded for reproduction"),
    image_digest: z.string().optional().describe("container image digest (sha256:…) of the server"),
    gpus: z.number().int().positive().optional().describe("GPUs serving this model (for per-GPU throughput)"),
    connection: z
      .enum(["reuse", "per_request"])
      .default("reuse")
      .describe(
        "reuse = keep-alive connections, as SDKs and peer tools use them (connect time then appears once per connection); per_request = one fresh connection per request (its connect time is recorded apart)"
      ),
    keep_alive_ms: ms("keep_alive_ms")
      .int()
      .default(2000)
      .describe(
        "idle keep-alive sockets are closed after this long (and 1 s before a shorter Keep-Alive timeout the server announces), so the client never sends on a socket the server is closing"
      ),
    http_client: HttpClient.default("socket").describe(
      "socket = the collector's own HTTP/1.1 client on a bare socket (one write per request, the response parsed by http-parser-js; the smaller timing error and CPU cost, docs/client-benchmark.md (a2), (i)); node_http = node:http's client (what every bundle without capture.httpClient used). Both record the same time points"
    ),
    tls: z
      .strictObject({
        ca_file: z.string().optional().describe("PEM file of extra trusted certificates (a private CA)"),
        insecure: z.boolean().default(false).describe("accept an untrusted certificate (tests only; recorded)")
      })
      .prefault({})
      .describe("https targets"),
    timeouts: z
      .strictObject({
        connect_ms: ms("connect_ms").default(10_000).describe("time allowed to connect (and finish TLS)"),
        headers_ms: ms("headers_ms").default(600_000).describe("time allowed until response headers"),
        idle_ms: ms("idle_ms").default(120_000).describe("longest silence allowed inside a stream"),
        close_ms: ms("close_ms")
          .default(10_000)
          .describe(
            "time allowed between a stream's [DONE] or finish_reason and its end; then the client closes it (the hang is recorded and gated)"
          ),
        total_ms: ms("total_ms").optional().describe("overall deadline per request")
      })
      .prefault({})
  })
  .describe("the server under test");

const LoadBase = z.strictObject({
  mode: LoadMode,
  values: z
    .array(
      z
        .number()
        .positive()
        .max(
          MAX_RATE,
          `above ${MAX_RATE.toLocaleString("en")} (requests in flight or req/s per load point): split such load over shards`
        )
    )
    .min(1)
    .describe(
      "concurrency levels, arrival rates (req/s) or, for trace, replay speeds (1 = the trace's own timestamps)"
    ),
  requests: z
    .number()
    .int()
    .positive()
    .max(MAX_REQUESTS, `requests above ${MAX_REQUESTS.toLocaleString("en")} per load point`)
    .optional()
    .describe("measured requests per load point"),
  duration_s: seconds("duration_s")
    .positive()
    .optional()
    .describe("measured duration per load point (replaces requests)"),
  warmup: z
    .number()
    .int()
    .nonnegative()
    .max(MAX_REQUESTS, `warmup above ${MAX_REQUESTS.toLocaleString("en")} requests`)
    .default(8)
    .describe("warmup requests per load point, excluded from metrics"),
  cooldown_s: seconds("cooldown_s").default(0).describe("pause between load points"),
  repeats: z.number().int().positive().max(10_000, "repeats above 10,000").default(1),
  seed: z.number().int().nonnegative().default(42),
  burstiness: z.number().positive().default(1).describe("gamma shape; 1 equals Poisson"),
  max_concurrency: z
    .number()
    .int()
    .positive()
    .max(MAX_CONCURRENCY, `max_concurrency above ${MAX_CONCURRENCY.toLocaleString("en")}: split such load over shards`)
    .optional()
    .describe("cap on in-flight requests in open-loop modes"),
  grace_s: seconds("grace_s").default(30).describe("on interrupt, how long in-flight requests may finish")
});

export const LoadSpec = LoadBase.refine((l) => !(l.requests !== undefined && l.duration_s !== undefined), {
  message: "give either requests or duration_s, not both"
})
  .superRefine(checkRateSpan)
  .transform((l) => (l.requests === undefined && l.duration_s === undefined ? {...l, requests: 100} : l));
export type LoadSpec = z.infer<typeof LoadSpec>;

/** A load search (issue 14): probes of one mode (not gamma), chosen from what was measured (docs/load-search.md). */
export const SearchSpec = z
  .strictObject({
    mode: z.literal("search"),
    over: z.enum(["concurrency", "rate", "poisson"]).describe("the load mode whose value is searched"),
    range: z
      .tuple([LoadBase.shape.values.element, LoadBase.shape.values.element])
      .refine(([lo, hi]) => lo < hi, {message: "range: give [min, max] with min < max"})
      .describe("[min, max] of the searched value (concurrency or req/s)"),
    precision: z
      .union([
        z.strictObject({relative: z.number().positive().max(1).describe("stop when (fail − pass) / pass ≤ this")}),
        z.strictObject({step: z.number().positive().describe("stop when fail − pass ≤ this")})
      ])
      .optional()
      .describe("when the bisection stops (default: step 1 for concurrency, relative 0.05 for rates)"),
    objective: z
      .enum(["slo", "goodput"])
      .default("slo")
      .describe(
        "slo = every clause of slo: at slo.percentile (TTFT, ITL, E2E) and the error rate ≤ gates.max_error_rate; goodput = the share of good requests ≥ min_goodput"
      ),
    min_goodput: z.number().min(0).max(1).optional().describe("objective goodput: the least share of good requests"),
    max_probes: z.number().int().min(2).max(100).default(12).describe("most probes the search runs"),
    requests: LoadBase.shape.requests.describe("measured requests per probe"),
    duration_s: LoadBase.shape.duration_s.describe("measured duration per probe (replaces requests)"),
    warmup: LoadBase.shape.warmup.describe("warmup requests per probe, excluded from metrics"),
    seed: LoadBase.shape.seed,
    cooldown_s: LoadBase.shape.cooldown_s.describe("pause between probes"),
    max_concurrency: LoadBase.shape.max_concurrency,
    grace_s: LoadBase.shape.grace_s
  })
  .refine((l) => !(l.requests !== undefined && l.duration_s !== undefined), {
    message: "give either requests or duration_s, not both"
  })
  .refine((l) => l.objective !== "goodput" || l.min_goodput !== undefined, {
    message: "objective goodput needs min_goodput (a fraction, e.g. 0.9)",
    path: ["min_goodput"]
  })
  .transform((l) => ({
    ...l,
    ...(l.requests === undefined && l.duration_s === undefined ? {requests: 100} : {}),
    precision: l.precision ?? (l.over === "concurrency" ? {step: 1} : {relative: 0.05})
  }));
export type SearchSpec = z.infer<typeof SearchSpec>;

/** One block of `load`: fixed load points, or a search. */
export const LoadBlock = z.union([LoadSpec, SearchSpec]);
export type LoadBlock = z.infer<typeof LoadBlock>;
export const isSearchBlock = (b: LoadBlock): b is SearchSpec => b.mode === "search";

export const Percentile = z.enum(["p50", "p90", "p95", "p99"]);

export const SloSpec = z
  .strictObject({
    percentile: Percentile.default("p95").describe(
      "percentile at which aggregate SLO statements are read (e.g. TTFT p95 ≤ ttft_ms); a load point whose n is below this percentile's floor (p95: 20) cannot be VALID"
    ),
    ttft_ms: z.number().positive().default(2000),
    itl_ms: z.number().positive().default(60),
    e2e_ms: z.number().positive().default(30_000),
    short_output: z
      .enum(["fail", "not_applicable"])
      .default("fail")
      .describe("how a request with fewer than 2 output tokens (no ITL) is judged by the ITL clause")
  })
  .describe("per-request service-level objectives used by goodput");

export const TelemetrySpec = z.strictObject({
  server_metrics: z.enum(["auto", "on", "off"]).default("auto"),
  gpu: z.enum(["auto", "on", "off"]).default("auto"),
  interval_ms: ms("interval_ms").int().min(100).default(500)
});

export const GateSpec = z.strictObject({
  max_error_rate: z.number().min(0).max(1).default(0.01),
  min_samples: z
    .number()
    .int()
    .min(5, "min_samples below 5 cannot support a median (the median floor is 5)")
    .default(20)
    .describe("measured successes needed per load point (at least 5, the median floor; default 20, the P95 floor)"),
  token_tolerance: z
    .number()
    .min(0)
    .max(1)
    .default(0.05)
    .describe("largest relative difference between the server's output token count and the stream's own count (G8)"),
  output_tolerance: z.number().min(0).max(1).default(0.1),
  input_tolerance: z.number().min(0).max(1).default(0.25),
  min_achieved_load: z.number().min(0).max(1).default(0.95),
  max_loop_delay_p99_ms: z.number().positive().default(5),
  max_stall_share: z
    .number()
    .min(0)
    .max(1)
    .default(0.01)
    .describe("largest share of a point's time the event loop may run more than max_loop_delay_p99_ms late (G6)"),
  max_dispatch_lag_p99_ms: z.number().positive().default(5),
  max_shard_start_skew_ms: z
    .number()
    .positive()
    .default(100)
    .describe("largest spread of the shards' measured-phase starts on the merged timeline (G32)"),
  max_telemetry_missing: z.number().min(0).max(1).default(0.1)
});

export const OutputSpec = z.strictObject({
  dir: z.string().default("evidence"),
  fsync_interval_ms: ms("fsync_interval_ms").int().default(1000),
  payload_bytes: z
    .number()
    .int()
    .min(0)
    .max(65_536)
    .default(512)
    .describe(
      "bytes of each SSE event's data kept verbatim (redacted) in the bundle, so a classification question is answered by re-analysis (0 = none). A chat chunk is ~210 bytes: with payloads a bundle's requests.jsonl is ~6× as large (npm run bench:analyze measures it; JSONL compresses ~10× for archiving)"
    )
});

const PositiveInts = z.array(z.number().int().positive()).min(1);

export const SuiteOptionsSpec = z
  .strictObject({
    repeats: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe("times each performance-case item is sent (medians need ≥ 5, P95 ≥ 20)"),
    quality_repeats: z.number().int().positive().default(1).describe("times each quality item is sent"),
    skip_heavy: z
      .boolean()
      .default(false)
      .describe("skip the heavy cases 05/06/07/09 (quality cases are never skipped)"),
    max_tokens_cap: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("upper bound on every case's max_tokens (slow engines); recorded with each request"),
    long_context_tiers: PositiveInts.default([500, 1000, 2000, 4000]).describe("case_05 context lengths in tokens"),
    reasoning_tiers: z
      .array(z.enum(["easy", "medium", "hard"]))
      .min(1)
      .default(["easy", "medium", "hard"])
      .describe("case_06 difficulty tiers"),
    rounds: z.number().int().min(2).max(20).default(5).describe("case_07 conversation rounds"),
    concurrency_tiers: PositiveInts.default([1, 2, 4, 8, 16]).describe("case_08 concurrency levels"),
    prefill_tiers: PositiveInts.default([1024, 2048, 4096, 8192]).describe("case_09 prompt lengths in tokens"),
    needle: z
      .strictObject({
        lengths: PositiveInts.default([512, 1024, 2048, 4096]).describe("context lengths in tokens"),
        depths: z
          .array(z.number().min(0).max(1))
          .min(1)
          .default([0, 0.25, 0.5, 0.75, 1])
          .describe("where the passphrase is planted, as a fraction of the context"),
        seed: z.number().int().nonnegative().default(7).describe("seed of the passphrases and the filler text")
      })
      .prefault({})
      .describe("case_10 needle retrieval grid"),
    gsm8k: z
      .strictObject({
        path: z.string().optional().describe("GSM8K test.jsonl to read instead of the cached download"),
        limit: z.number().int().positive().optional().describe("score only the first N items (default: all)"),
        max_tokens: z.number().int().positive().default(512).describe("max_tokens of each GSM8K answer"),
        download: z
          .boolean()
          .default(true)
          .describe("download the public test set once (sha256-pinned) when it is not cached")
      })
      .prefault({})
      .describe("GSM8K grade-school math"),
    quality_load: z
      .strictObject({
        point: z
          .string()
          .describe("load point id, e.g. concurrency-4: quality items are sent at its concurrency or rate"),
        suites: z
          .array(z.string())
          .optional()
          .describe("quality cases to repeat under load (default: every quality case run)")
      })
      .optional()
      .describe("score the quality cases again under load, at one of the load points")
  })
  .describe("options of the case suite");
export type SuiteOptions = z.output<typeof SuiteOptionsSpec>;

export const RunConfigSpec = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .default("run")
      .describe("short scenario name used in the bundle id"),
    description: z.string().optional(),
    labels: z.record(z.string(), z.string()).default({}).describe("free labels, e.g. {parallel: '2', mtp: 'on'}"),
    target: TargetSpec,
    workload: WorkloadSpec.prefault({}),
    load: z
      .union([LoadBlock, z.array(LoadBlock).min(1)])
      .describe("one load block or a list of them (fixed load points, or a search: mode search)"),
    slo: SloSpec.prefault({}),
    telemetry: TelemetrySpec.prefault({}),
    gates: GateSpec.prefault({}),
    output: OutputSpec.prefault({}),
    suites: z
      .array(z.string())
      .optional()
      .describe(
        "cases to run after the load points: case ids (case_01_generation … case_11_instruction, gsm8k) or all"
      ),
    suite_options: SuiteOptionsSpec.optional().describe(
      "options of the case suite (defaults filled in when suites run)"
    ),
    hardware: HardwareSpec.optional().describe("model facts and prices the collector cannot read (issue 15)")
  })
  .superRefine(checkWorkload);
export type RunConfigSpec = z.input<typeof RunConfigSpec>;
export type RunConfig = z.output<typeof RunConfigSpec>;
export type SloConfig = z.output<typeof SloSpec>;
export type GateConfig = z.output<typeof GateSpec>;

/** Normalizes the `load` field to a list. */
export function loadBlocks(config: RunConfig): LoadBlock[] {
  return Array.isArray(config.load) ? config.load : [config.load];
}

/** The blocks of fixed load points (searches left out), and the load searches, in config order. */
export const pointBlocks = (config: RunConfig): LoadSpec[] =>
  loadBlocks(config).filter((b): b is LoadSpec => !isSearchBlock(b));
export const searchBlocks = (config: RunConfig): SearchSpec[] => loadBlocks(config).filter(isSearchBlock);
