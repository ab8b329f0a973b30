/**
 * Hand-built bundles in memory, for tests whose expected values are worked out by hand: every request,
 * event and time is written out by the test, sealed with real sha256 digests, and analysed through the
 * same pipeline as a bundle on disk (analyzeBundle over a memory source).
 */
import {createHash} from "node:crypto";

import {stringify as toYaml} from "yaml";

import {
  analyzeBundle,
  formatIssue,
  isSummary,
  memorySource,
  type AnalyzeOptions,
  type Report,
  type RunMetricValue
} from "../../src/analysis/index.ts";
import type {SummaryValue} from "../../src/analysis/report.ts";
import {
  FILE_NAMES,
  MEASURE_VERSION,
  RunConfigSpec,
  SCHEMA_VERSION,
  type ClientRecord,
  type GpuSample,
  type LoadPoint,
  type Manifest,
  type QualityRecord,
  type RequestRecord,
  type RunConfigSpec as RunConfigInput,
  type ScheduleRecord,
  type ServerScrape,
  type SseEvent
} from "../../src/analysis/schema/index.ts";
import {SYNTH_ENVIRONMENT} from "../../scripts/lib/synth.ts";

export const MS = 1_000_000;

type NoSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

export interface BundleSpec {
  /** Merged over a minimal config (a chat target, one closed-loop block); defaults fill the rest. */
  config?: Partial<RunConfigInput>;
  /** Load points declared in the manifest (default: one `concurrency-1` point with 0 warmups). */
  points?: LoadPoint[];
  requests: NoSeq<RequestRecord>[];
  schedule?: NoSeq<ScheduleRecord>[];
  client?: NoSeq<ClientRecord>[];
  server?: NoSeq<ServerScrape>[];
  gpu?: NoSeq<GpuSample>[];
  quality?: NoSeq<QualityRecord>[];
  /** Fields of the manifest to replace (status, provenance, schemaVersion…). */
  manifest?: Partial<Manifest>;
}

export function point(mode: LoadPoint["mode"], value: number, over: Partial<LoadPoint> = {}): LoadPoint {
  return {
    id: `${mode}-${value}`,
    mode,
    value,
    repeats: 1,
    requests: null,
    durationS: null,
    warmup: 0,
    maxConcurrency: null,
    burstiness: mode === "gamma" ? 1 : null,
    ...over
  };
}

/** `n` token events of one kind, the first at `firstMs`, then every `gapMs` (ms from the origin). */
export function tokenEvents(
  n: number,
  firstMs: number,
  gapMs: number,
  o: {kind?: SseEvent[2]; delta?: number | null; bytes?: number} = {}
): SseEvent[] {
  return Array.from({length: n}, (_, i): SseEvent => [
    Math.round((firstMs + i * gapMs) * MS),
    o.bytes ?? 100,
    o.kind ?? "content",
    o.delta === undefined ? null : o.delta
  ]);
}

/** One event at `atMs`. */
export const ev = (atMs: number, kind: SseEvent[2], delta: number | null = null): SseEvent => [
  Math.round(atMs * MS),
  50,
  kind,
  delta
];

/**
 * A measured request of `concurrency-1` scheduled and dispatched at `schedMs`, HTTP 200 with final usage
 * (`out` output tokens, `in` prompt tokens), ended `endMs` (default: 1 ms after the last event). Every
 * field can be replaced.
 */
export function request(
  id: string,
  schedMs: number,
  events: SseEvent[],
  over: Partial<RequestRecord> & {out?: number | null; in?: number | null; endMs?: number} = {}
): NoSeq<RequestRecord> {
  const {out, in: inTokens, endMs, ...rest} = over;
  const last = events.length > 0 ? events[events.length - 1]![0] : Math.round(schedMs * MS);
  const completion = out === undefined ? events.filter((e) => e[2] === "content").length : out;
  return {
    id,
    point: "concurrency-1",
    repeat: 0,
    index: 0,
    phase: "measure",
    timeBase: "run",
    tSchedNs: Math.round(schedMs * MS),
    tDispNs: Math.round(schedMs * MS),
    tHdrNs: Math.round(schedMs * MS) + MS,
    tByte1Ns: events.length > 0 ? events[0]![0] : null,
    tEndNs: endMs === undefined ? last + MS : Math.round(endMs * MS),
    events,
    httpStatus: 200,
    finishReason: "length",
    usage:
      completion === null
        ? null
        : {promptTokens: inTokens ?? 100, completionTokens: completion, reasoningTokens: null, cachedTokens: null},
    usageSource: completion === null ? "none" : "server_final",
    serverTimings: null,
    transportError: null,
    errorMessage: null,
    promptDigest: null,
    responseDigest: null,
    promptTokensIntended: null,
    maxTokens: null,
    salt: `salt-${id}`,
    ...rest
  };
}

/**
 * A measured request that failed with an HTTP error before any event: scheduled and dispatched at `schedMs`,
 * headers 1 ms later, closed 2 ms later, no usage. Every field can be replaced.
 */
export function failedRequest(
  id: string,
  schedMs: number,
  over: Partial<RequestRecord> & {endMs?: number} = {}
): NoSeq<RequestRecord> {
  return request(id, schedMs, [], {httpStatus: 500, finishReason: null, out: null, endMs: schedMs + 2, ...over});
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const jsonl = (records: readonly object[]): string =>
  records.map((r, seq) => `${JSON.stringify({seq, ...r})}\n`).join("");

/** The bundle's files as text (config, JSONL files and a manifest with their real digests). */
export function bundleFiles(spec: BundleSpec): Record<string, string> {
  const config = RunConfigSpec.parse({
    target: {base_url: "http://127.0.0.1:8000/v1", model: "m"},
    load: {mode: "concurrency", values: [1], warmup: 0},
    ...spec.config
  });
  const files: Record<string, string> = {[FILE_NAMES.config]: toYaml(config)};
  files[FILE_NAMES.requests] = jsonl(spec.requests);
  if (spec.schedule) files[FILE_NAMES.schedule] = jsonl(spec.schedule);
  if (spec.client) files[FILE_NAMES.client_metrics] = jsonl(spec.client);
  if (spec.server) files[FILE_NAMES.server_metrics] = jsonl(spec.server);
  if (spec.gpu) files[FILE_NAMES.gpu_metrics] = jsonl(spec.gpu);
  if (spec.quality) files[FILE_NAMES.quality] = jsonl(spec.quality);
  const roleOf = Object.fromEntries(Object.entries(FILE_NAMES).map(([role, name]) => [name, role]));
  const manifest: Manifest = {
    schemaVersion: SCHEMA_VERSION,
    bundleId: "hand-built",
    measureVersion: MEASURE_VERSION,
    status: "complete",
    statusReason: null,
    startedAt: "2026-12-01T00:00:00.000Z",
    finishedAt: "2026-12-01T00:01:00.000Z",
    monotonicOriginNs: "1000000000",
    timeUnit: "ns",
    clockAnchors: [{wall: "2026-12-01T00:00:00.000Z", tNs: 0}],
    collector: {name: "hand-built", version: "0", lockfileSha256: null, gitCommit: null, node: null},
    configSha256: sha256(files[FILE_NAMES.config]!),
    durability: {fsyncIntervalMs: null},
    prng: null,
    loadPoints: spec.points ?? [point("concurrency", 1)],
    labels: {},
    environment: SYNTH_ENVIRONMENT,
    provenance: {kind: "synthetic", note: "hand-built test bundle"},
    files: Object.entries(files).map(([path, text]) => ({
      path,
      role: roleOf[path] as Manifest["files"][number]["role"],
      bytes: Buffer.byteLength(text),
      sha256: sha256(text),
      records: path.endsWith(".jsonl") ? text.split("\n").length - 1 : null
    })),
    ...spec.manifest
  };
  return {...files, [FILE_NAMES.manifest]: `${JSON.stringify(manifest, null, 2)}\n`};
}

/** Analyses a hand-built bundle. */
export function analyzeSpec(spec: BundleSpec, options: AnalyzeOptions = {}): Promise<Report> {
  const files = bundleFiles(spec);
  return analyzeBundle(
    memorySource("hand-built", files, (text) => ({bytes: Buffer.byteLength(text), sha256: sha256(text)})),
    options
  );
}

export const gateOf = (r: Report, id: string) => {
  const g = r.gates.find((x) => x.id === id);
  if (!g) throw new Error(`no gate ${id}`);
  return g;
};

export const metricOf = (r: Report, id: string, pointIndex = 0) => {
  const m = r.load_points[pointIndex]?.metrics[id];
  if (!m) throw new Error(`no metric ${id}`);
  return m;
};

/**
 * Analyses a hand-built bundle and throws on any error-severity issue: a malformed input (a time-order
 * violation, a manifest that does not parse) would otherwise test something other than what it says.
 */
export async function analyzeValid(spec: BundleSpec, options: AnalyzeOptions = {}): Promise<Report> {
  const r = await analyzeSpec(spec, options);
  const errors = r.issues.filter((i) => i.severity === "error");
  if (errors.length > 0) throw new Error(`hand-built bundle has errors:\n${errors.map(formatIssue).join("\n")}`);
  return r;
}

/** A per-request or per-sample metric's distribution. */
export const summaryOf = (r: Report, id: string, pointIndex = 0): SummaryValue => {
  const m = metricOf(r, id, pointIndex);
  if (!isSummary(m)) throw new Error(`metric ${id} is not a distribution`);
  return m;
};

/** A run-level metric's value. */
export const runOf = (r: Report, id: string, pointIndex = 0): RunMetricValue => {
  const m = metricOf(r, id, pointIndex);
  if (isSummary(m)) throw new Error(`metric ${id} is a distribution, not a run value`);
  return m;
};

/** The same events `byMs` later. */
export const shifted = (events: readonly SseEvent[], byMs: number): SseEvent[] =>
  events.map(([t, b, k, d]) => [t + Math.round(byMs * MS), b, k, d]);
