import {z} from "zod";

import {NonNegInt, RelNs, Sha256, Slug} from "./primitives.ts";
import {JsonBody} from "./body.ts";
import {SourceRecord} from "./source.ts";
import {ERROR_TEXT_BYTES, utf8Bytes} from "../util/utf8.ts";
import {PromptSegments, WorkloadTag} from "./workload.ts";

/**
 * What kind of SSE event the collector saw. Raw facts only; the analyzer decides what counts.
 * role: a role-only delta (or, in bundle v1, any empty delta); empty (v2): a delta whose text is present but
 * empty, without a role (completions `text: ""`, chat `content: ""`/null) — a server may stream a generated
 * token whose text it holds back (partial UTF-8); content/reasoning/tool_call: a non-empty delta on that
 * channel (completions `text` is content); usage: usage without a delta; finish: finish_reason without a
 * delta; error: an in-band error object; done: `[DONE]`; parse_error: data that is not JSON; other: JSON we
 * do not know.
 */
export const EventKind = z.enum([
  "role",
  "empty",
  "content",
  "reasoning",
  "tool_call",
  "usage",
  "finish",
  "error",
  "done",
  "parse_error",
  "other"
]);
export type EventKind = z.infer<typeof EventKind>;
export const TOKEN_KINDS: ReadonlySet<EventKind> = new Set(["content", "reasoning", "tool_call"]);

/**
 * [time, bytes, kind, tokens, payload?]: one SSE data event. tokens = server-reported token delta, null when
 * unknown. payload (bundle v2): the first `capture.payloadBytes` bytes of the event's data, verbatim
 * (redacted), so a classification question is answered by re-analysis instead of a re-run.
 */
export const SseEvent = z
  .tuple([RelNs, NonNegInt, EventKind, NonNegInt.nullable(), z.string().optional()])
  .describe(
    "[tNs, bytes of the event's data, kind, output-token delta reported by the server or null, first bytes of the data (v2, optional)]"
  );
export type SseEvent = z.infer<typeof SseEvent>;

export const Phase = z.enum(["warmup", "measure", "cooldown"]);
export type Phase = z.infer<typeof Phase>;

export const UsageSource = z.enum(["server_final", "server_continuous", "server_timings", "client_tokenizer", "none"]);
export type UsageSource = z.infer<typeof UsageSource>;

export const Usage = z.strictObject({
  promptTokens: NonNegInt.nullable(),
  completionTokens: NonNegInt.nullable(),
  reasoningTokens: NonNegInt.nullable(),
  cachedTokens: NonNegInt.nullable()
});
export type Usage = z.infer<typeof Usage>;

/**
 * Transport-level outcome observed by the client (never inferred from content). close_timeout (v2): the
 * stream stayed open longer than `timeouts.close_ms` after its terminal marker ([DONE] or a finish_reason)
 * and the client closed it.
 */
export const TransportError = z.enum([
  "timeout_headers",
  "timeout_body",
  "timeout_total",
  "conn_refused",
  "conn_reset",
  "dns",
  "client_abort",
  "event_too_large",
  "write_error",
  "close_timeout",
  "other"
]);
export type TransportError = z.infer<typeof TransportError>;

export const ServerTimings = z
  .strictObject({
    promptN: z.number().nullable(),
    promptMs: z.number().nullable(),
    predictedN: z.number().nullable(),
    predictedMs: z.number().nullable(),
    cacheN: z.number().nullable(),
    draftN: z
      .number()
      .nullable()
      .optional()
      .describe(
        "llama.cpp `timings.draft_n`: tokens drafted for this response (speculative decoding); absent: not sent"
      ),
    draftNAccepted: z
      .number()
      .nullable()
      .optional()
      .describe("llama.cpp `timings.draft_n_accepted`: drafted tokens the target accepted; absent: not sent")
  })
  .describe("server-side timings reported in the stream (llama.cpp `timings`)");

/** Error text as the collector and the importers keep it: at most 4 KiB of UTF-8 (util/utf8.ts boundText). */
const ErrorText = z
  .string()
  .max(ERROR_TEXT_BYTES)
  .refine((s) => utf8Bytes(s) <= ERROR_TEXT_BYTES, {
    message: `longer than ${ERROR_TEXT_BYTES} bytes of UTF-8 (error text is kept to 4 KiB)`
  });

/** An HTTP status code: three digits (RFC 9110 §15; 600–999 are invalid codes, read as a server error). */
const HttpStatus = z.number().int().min(100).max(999);

export const RequestRecord = z.strictObject({
  seq: NonNegInt.describe("position in the file, strictly +1 from 0"),
  id: z.string().min(1).describe("request id (also sent as X-Request-ID)"),
  shard: NonNegInt.optional().describe("issue 17: merged bundles: the shard that captured this record"),
  point: Slug.describe("load point id from manifest.loadPoints"),
  repeat: NonNegInt,
  index: NonNegInt.describe("position in the load point's plan for this repeat"),
  phase: Phase,
  timeBase: z
    .enum(["run", "request"])
    .default("run")
    .describe("run: times share the run's origin; request: times are relative to this request's own start (imports)"),
  tSchedNs: RelNs.nullable().describe("scheduled send time (open loop) or the moment a slot freed (closed loop)"),
  tCallNs: RelNs.nullable()
    .optional()
    .describe(
      "v2: the collector began this request (before DNS, connect and TLS); tCallNs − tSchedNs is the client's own lateness"
    ),
  tConnNs: RelNs.nullable().optional().describe("v2: TCP connection established (null on a reused socket)"),
  tTlsNs: RelNs.nullable().optional().describe("v2: TLS handshake finished (null for http or a reused socket)"),
  socketReused: z.boolean().optional().describe("v2: the request went out on a reused keep-alive connection"),
  attempts: z
    .array(
      z.strictObject({
        tCallNs: RelNs,
        tEndNs: RelNs,
        socketReused: z.boolean(),
        transportError: TransportError,
        errorMessage: ErrorText.nullable()
      })
    )
    .optional()
    .describe(
      "v2: earlier attempts of this request, each failed on a reused socket before any byte of the request was written, then sent again once on a fresh connection"
    ),
  tDispNs: RelNs.nullable().describe("request bytes handed to the socket (after connect and TLS)"),
  tHdrNs: RelNs.nullable().describe("response headers received"),
  tByte1Ns: RelNs.nullable().describe("first response body byte received"),
  tEndNs: RelNs.nullable().describe("stream closed or request ended"),
  events: z.array(SseEvent),
  body: JsonBody.optional().describe("v2: the JSON body of a non-streamed request (embeddings); absent for streams"),
  httpStatus: HttpStatus.nullable().describe("HTTP status code, three digits (null when no response arrived)"),
  finishReason: z.string().nullable(),
  usage: Usage.nullable(),
  usageSource: UsageSource,
  serverTimings: ServerTimings.nullable(),
  transportError: TransportError.nullable(),
  errorMessage: ErrorText.nullable().describe(
    "sanitised error text or body excerpt (secrets redacted), at most 4 KiB of UTF-8"
  ),
  promptDigest: Sha256.nullable(),
  responseDigest: Sha256.nullable(),
  promptTokensIntended: NonNegInt.nullable(),
  maxTokens: NonNegInt.nullable(),
  salt: z.string().nullable().describe("the per-request salt put in front of the prompt"),
  promptText: z.string().optional(),
  responseText: z.string().optional().describe("concatenated content deltas, when save_text is on"),
  reasoningText: z.string().optional(),
  workload: WorkloadTag.optional().describe(
    "who the request is within its workload (dataset item, group, session and turn, trace line)"
  ),
  promptSegments: PromptSegments.optional().describe(
    "the chain hashes of the prompt's segments, from which the analyzer bounds the prefix-cache hit rate"
  ),
  caseId: z.string().optional().describe("case suite id when the request belongs to a case"),
  tier: z.string().optional().describe("case tier (context length, difficulty, round…)"),
  nullReasons: z.record(z.string(), z.string()).optional().describe("why a field is null (imports)"),
  eventCoverage: z
    .enum(["all", "token_chunks", "first_last"])
    .optional()
    .describe(
      "which SSE events `events` holds (absent = all): all = every data event (collected); token_chunks = every token-bearing chunk, other events and the terminal marker not recorded (imports); first_last = only the first and last token-bearing events (imports)"
    )
});
export type RequestRecord = z.infer<typeof RequestRecord>;

export const ScheduleRecord = z.strictObject({
  seq: NonNegInt,
  point: Slug,
  repeat: NonNegInt,
  index: NonNegInt,
  phase: Phase,
  offsetNs: RelNs.describe("planned send time relative to the start of this load point's repeat"),
  requestId: z.string(),
  shard: NonNegInt.optional().describe("issue 17: merged bundles: the shard that captured this record")
});
export type ScheduleRecord = z.infer<typeof ScheduleRecord>;

export const ClientSample = z.strictObject({
  seq: NonNegInt,
  kind: z.literal("loop"),
  shard: NonNegInt.optional().describe("issue 17: merged bundles: the shard that captured this record"),
  tNs: RelNs,
  windowNs: NonNegInt.describe("length of the sampling window"),
  loopDelayP50Ms: z.number().nonnegative().nullable(),
  loopDelayP99Ms: z.number().nonnegative().nullable(),
  loopDelayMaxMs: z.number().nonnegative().nullable(),
  elu: z.number().min(0).max(1).nullable().describe("event-loop utilisation over the window, 0..1"),
  inFlight: NonNegInt.nullable(),
  openSockets: NonNegInt.nullable(),
  rssBytes: NonNegInt.nullable(),
  cpuUserUs: NonNegInt.nullable().describe("process user CPU time during the window, µs"),
  cpuSystemUs: NonNegInt.nullable(),
  monitoredNs: NonNegInt.optional().describe(
    "issue 17: how much of the window the 1 ms loop timer ran (it runs while a request is in flight); absent: the whole window"
  ),
  stalls: z
    .array(z.tuple([RelNs, z.number().nonnegative()]))
    .optional()
    .describe(
      "every event-loop stall over 2 ms in the window, as [tNs when the loop resumed, ms late] from a 1 ms timer; absent when not measured"
    )
});
export const ClientNote = z.strictObject({
  seq: NonNegInt,
  kind: z.literal("note"),
  shard: NonNegInt.optional().describe("issue 17: merged bundles: the shard that captured this record"),
  tNs: RelNs,
  event: z
    .string()
    .describe("lifecycle event: point_start, point_end, interrupt, resume, tail_truncated, write_error…"),
  point: Slug.nullable(),
  repeat: NonNegInt.nullable(),
  detail: z.record(z.string(), z.unknown())
});
export const ClientRecord = z.discriminatedUnion("kind", [ClientSample, ClientNote]);
export type ClientRecord = z.infer<typeof ClientRecord>;

/** One Prometheus sample: [metric name, labels or null, value]. */
export const PromSample = z.tuple([z.string(), z.record(z.string(), z.string()).nullable(), z.number().nullable()]);

export const ServerScrape = z.strictObject({
  seq: NonNegInt,
  tNs: RelNs.describe("time the scrape was sent"),
  durationMs: z.number().nonnegative().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  samples: z.array(PromSample).describe("parsed samples of the allowlisted families (raw values, no rates)")
});
export type ServerScrape = z.infer<typeof ServerScrape>;

export const GpuReading = z.strictObject({
  index: NonNegInt,
  uuid: z.string().nullable(),
  utilPct: z.number().nullable(),
  memUsedMiB: z.number().nullable(),
  memTotalMiB: z.number().nullable(),
  powerW: z.number().nullable(),
  tempC: z.number().nullable(),
  smClockMHz: z.number().nullable(),
  memClockMHz: z.number().nullable()
});
export const GpuSample = z.strictObject({
  seq: NonNegInt,
  tNs: RelNs,
  ok: z.boolean(),
  error: z.string().nullable(),
  gpus: z.array(GpuReading)
});
export type GpuSample = z.infer<typeof GpuSample>;

export const QualityVerdict = z.enum(["pass", "fail", "not_evaluated"]);

/** A tool call as assembled from the stream's deltas (arguments: the JSON text as sent, redacted). */
export const AnsweredToolCall = z.strictObject({name: z.string(), arguments: z.string()});

/**
 * One case item's answer as the server gave it, with everything its scorer needs and no verdict: the
 * analyzer scores it at analysis time (quality/answers.ts), so a scorer fix is a re-analysis, not a re-run.
 */
export const CaseAnswer = z
  .strictObject({
    seq: NonNegInt,
    caseId: z.string(),
    itemId: z.string(),
    requestId: z.string().nullable(),
    point: Slug.nullable().describe("load point when the item was sent under load; null: idle"),
    tier: z.string().nullable(),
    repeat: NonNegInt.describe("repeat index of the item (0-based)"),
    round: z.number().int().positive().nullable().describe("turn of a multi-turn item (1-based); null: one turn"),
    promptDigest: Sha256.nullable(),
    scorer: z.string().describe("the scorer the case names (quality/score.ts SCORERS: gsm8k, needle, instructions…)"),
    expected: z.unknown().describe("the expected answer as the case defines it"),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("the scorer's parameters as the case defines them (constraints, tools, reason…)"),
    response: z.string().nullable().describe("content text of the answer (redacted); null: no 2xx response"),
    toolCalls: z
      .array(AnsweredToolCall)
      .describe("tool calls as assembled from the stream (empty: none); they count only with a response"),
    finishReason: z.string().nullable(),
    error: z
      .string()
      .nullable()
      .describe("why the answer is not a complete response (transport, http, in-band error…), or null"),
    details: z
      .record(z.string(), z.unknown())
      .describe("case facts kept beside the verdicts (needle depth, dataset line…)")
  })
  .describe("a case item's raw answer (bundle v2 collectors from QUALITY_VERSION 2 on); the analyzer scores it");
export type CaseAnswer = z.infer<typeof CaseAnswer>;

/**
 * A verdict of one scorer reading on one item: what the analyzer derives from a CaseAnswer, and what
 * older collectors froze into quality.jsonl (read as recorded, labelled frozen with its quality version).
 */
export const QualityRecord = z.strictObject({
  seq: NonNegInt,
  qualityVersion: z.string(),
  caseId: z.string(),
  scorer: z.string(),
  itemId: z.string(),
  requestId: z.string().nullable(),
  point: Slug.nullable().describe("load point when the sample was scored under load"),
  tier: z.string().nullable(),
  promptDigest: Sha256.nullable(),
  response: z.string().nullable(),
  extracted: z.unknown().describe("value the scorer extracted from the response"),
  expected: z.unknown(),
  verdict: QualityVerdict,
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown())
});
export type QualityRecord = z.infer<typeof QualityRecord>;

/** A line of quality.jsonl: a raw answer (no verdict) or a verdict frozen at capture by an older collector. */
export const QualityLine = z.union([CaseAnswer, QualityRecord]);
export type QualityLine = z.infer<typeof QualityLine>;

/** Whether a quality.jsonl line carries a verdict frozen at capture. */
export const isFrozenVerdict = (r: QualityLine): r is QualityRecord => "verdict" in r;

/**
 * QualityLine as read: a line with a `verdict` is checked as a frozen QualityRecord, any other as a
 * CaseAnswer, so a bad line's issues name its own fields (a plain union reports only "invalid input").
 */
export const QualityLineByShape = z.unknown().transform((v, ctx): QualityLine => {
  const frozen = v !== null && typeof v === "object" && "verdict" in v;
  const parsed = (frozen ? QualityRecord : CaseAnswer).safeParse(v);
  if (parsed.success) return parsed.data;
  for (const i of parsed.error.issues) ctx.addIssue({...i} as never);
  return z.NEVER;
});

export {SourceRecord, SourceRequestCounts} from "./source.ts";

/** Which record schema each file role uses. */
export const RECORD_SCHEMAS = {
  requests: RequestRecord,
  schedule: ScheduleRecord,
  client_metrics: ClientRecord,
  server_metrics: ServerScrape,
  gpu_metrics: GpuSample,
  quality: QualityLine,
  source: SourceRecord
} as const;
export type RecordRole = keyof typeof RECORD_SCHEMAS;

/** Conventional file names for each role. */
export const FILE_NAMES: Record<RecordRole | "config" | "manifest", string> = {
  manifest: "manifest.json",
  config: "config.resolved.yaml",
  requests: "requests.jsonl",
  schedule: "schedule.jsonl",
  client_metrics: "client_metrics.jsonl",
  server_metrics: "server_metrics.jsonl",
  gpu_metrics: "gpu_metrics.jsonl",
  quality: "quality.jsonl",
  source: "source.jsonl"
};

/** The role of each conventional file name (the manifest has none: it lists the others). */
export const ROLE_BY_NAME: ReadonlyMap<string, RecordRole | "config"> = new Map(
  (Object.entries(FILE_NAMES) as [RecordRole | "config" | "manifest", string][])
    .filter((e): e is [RecordRole | "config", string] => e[0] !== "manifest")
    .map(([role, name]) => [name, role])
);

/** The detached Ed25519 signature over manifest.json (optional; it cannot be listed in the manifest it signs). */
export const SIGNATURE_FILE = "manifest.sig";
