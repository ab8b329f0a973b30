import type {LoadPoint} from "../../schema/manifest.ts";
import type {RequestRecord, SourceRecord} from "../../schema/records.ts";
import type {ComparisonInput, SourceComparisonRow} from "./compare.ts";

/** Peer tools whose results can be imported. */
export const PEER_TOOLS = [
  "vllm",
  "sglang",
  "genai-perf",
  "aiperf",
  "guidellm",
  "llmperf",
  "inferscope-v1",
  "llmd-report"
] as const;
export type PeerTool = (typeof PEER_TOOLS)[number];

export const isPeerTool = (s: string): s is PeerTool => (PEER_TOOLS as readonly string[]).includes(s);

/** How each tool spells its own name (pages, messages). */
export const TOOL_LABELS: Readonly<Record<PeerTool, string>> = {
  vllm: "vLLM",
  sglang: "SGLang",
  "genai-perf": "GenAI-Perf",
  aiperf: "AIPerf",
  guidellm: "GuideLLM",
  llmperf: "LLMPerf",
  "inferscope-v1": "InferScope v1",
  "llmd-report": "llm-d Benchmark Report"
};

export const toolLabel = (tool: string): string => (isPeerTool(tool) ? TOOL_LABELS[tool] : tool);

/**
 * One input file as the edge read it: its name (as given, for messages) and its UTF-8 text — or, for a
 * file too large for one string, the document the edge already parsed while reading it
 * (shared/streamParse.ts), in which case `text` is empty.
 */
export interface PeerFile {
  name: string;
  text: string;
  parsed?: Result<Doc>;
}

/** A problem with an input file: which file, where inside it (JSON path, line), and what was expected. */
export interface PeerError {
  file: string;
  path: string;
  /** What was expected there, phrased to follow the word "expected" (e.g. "a number, received string"). */
  expected: string;
}

/** `file: path: expected …` (the file as named, the JSON path or line inside it, what was expected there). */
export const formatPeerError = (e: PeerError): string => `${e.file}: ${e.path}: expected ${e.expected}`;

export type Result<T> = {ok: true; value: T} | {ok: false; errors: PeerError[]};
export const ok = <T>(value: T): Result<T> => ({ok: true, value});
export const fail = <T>(errors: PeerError[]): Result<T> => ({ok: false, errors});

/** What is known of the source run's workload and target (unknowns stay undefined). */
export interface ImportedWorkload {
  endpoint?: "chat" | "completions";
  baseUrl?: string;
  ignoreEos?: boolean;
  maxTokens?: number;
  promptTokens?: number;
  temperature?: number;
  slo?: {ttft_ms?: number; itl_ms?: number; e2e_ms?: number};
}

export interface ImportedEnvironment {
  engine?: string;
  engineVersion?: string;
  /** GPUs that served the model, where the source states it */
  gpus?: number;
  /** GPUs the source names (its fingerprint or telemetry): not a count of serving GPUs unless `gpus` says so */
  gpuNames?: string[];
  /** their UUIDs, index-aligned with gpuNames (null where not named) */
  gpuUuids?: (string | null)[];
  platform?: string;
  extra: Record<string, unknown>;
}

/**
 * A peer run mapped to InferScope records. Times are integer ns: relative to `originEpochNs` when the
 * source has one shared clock (`clock` wall or monotonic), else relative to each request's own start
 * (`clock` request, records carry timeBase "request").
 */
export interface ImportedRun {
  tool: PeerTool;
  toolVersion: string | null;
  model: string | null;
  /** ISO 8601 with offset, or null when the source does not say. */
  startedAt: string | null;
  finishedAt: string | null;
  clock: "wall" | "monotonic" | "request";
  /** Time 0 of the records as a decimal ns string of the source clock (epoch ns for wall clocks). */
  originNs: string;
  loadPoints: LoadPoint[];
  requests: RequestRecord[];
  sources: SourceRecord[];
  workload: ImportedWorkload;
  environment: ImportedEnvironment;
  labels: Record<string, string>;
  /** One-line facts for the provenance note (sampling, clock, units, what is missing). */
  notes: string[];
  /** Notes the person importing must see now (the command prints them as warnings); each is in `notes` too. */
  warnings?: string[];
  status: "complete" | "interrupted" | "partial";
  statusReason: string | null;
}

/** A parsed input file. JSON numbers that are integers beyond 2^53 are kept exact as bigint. */
export type Doc =
  | {name: string; kind: "json"; value: unknown}
  | {name: string; kind: "jsonl"; lines: {line: number; value: unknown}[]}
  | {name: string; kind: "yaml"; value: unknown};

/** A format's claim on some of the files, found by shape. */
export interface Claim {
  tool: PeerTool;
  /** Names of the files this format recognises. */
  files: string[];
  /** What was recognised, e.g. "vLLM save-result (2024 schema, per-request arrays)". */
  shape: string;
}

/**
 * One peer tool's file format, everything the importer and the source comparison need: how to recognise
 * it, how to import it, and how to recompute its reported numbers (`<tool>/{format,import,parity}.ts`).
 */
export interface PeerFormat {
  tool: PeerTool;
  /** What this format's files look like, for error messages. */
  expected: string;
  /** Recognises files by shape (never by name); null when none of them fit. */
  detect(docs: readonly Doc[]): Claim | null;
  import(docs: readonly Doc[]): Result<ImportedRun>;
  /** The three-column rows (reported, recomputed under the tool's definition, canonical) of one source record. */
  compare(input: ComparisonInput): SourceComparisonRow[];
  /**
   * Caveats the source's way of measuring puts on our own metrics (from its verbatim aggregates): what a
   * reader of `metric` must know. Absent when the tool's numbers need none.
   */
  caveats?(aggregates: Record<string, unknown>): {metric: string; note: string}[];
}
