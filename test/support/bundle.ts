/**
 * Hand-built bundles in memory, for tests whose expected values are worked out by hand: every request,
 * event and time is written out by the test, sealed with real sha256 digests, and analysed through the
 * same pipeline as a bundle on disk (analyzeBundle over a memory source).
 */
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
import type {SummaryValue} from "../../src/analysis/report/types.ts";
import {
  FILE_NAMES,
  MEASURE_VERSION,
  RunConfigSpec,
  SCHEMA_VERSION,
  type ClientRecord,
  type GpuSample,
  type LoadPoint,
  type Manifest,
  type QualityLine,
  type RequestRecord,
  type RunConfigSpec as RunConfigInput,
  type ScheduleRecord,
  type ServerScrape,
  type SseEvent
} from "../../src/analysis/schema/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";
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
  /** quality.jsonl lines: raw answers (CaseAnswer) or verdicts frozen at capture (QualityRecord). */
  quality?: NoSeq<QualityLine>[];
  /** Fields of the manifest to replace (status, provenance, schemaVersion…). */
  manifest?: Partial<Manifest>;
  /** Edits the files as written, before the manifest seals them (a torn tail, an edited record). */
  beforeSeal?: (files: Record<string, string>) => void;
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
  spec.beforeSeal?.(files);
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
    configSha256: sha256Hex(files[FILE_NAMES.config]!),
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
      sha256: sha256Hex(text),
      records: path.endsWith(".jsonl") ? text.split("\n").length - 1 : null
    })),
    ...spec.manifest
  };
  return {...files, [FILE_NAMES.manifest]: `${JSON.stringify(manifest, null, 2)}\n`};
}

/** Analyses a hand-built bundle. */
export function analyzeSpec(spec: BundleSpec, options: AnalyzeOptions = {}): Promise<Report> {
  return analyzeFiles(bundleFiles(spec), options);
}

/** Analyses bundle files as given (e.g. `bundleFiles` output edited after sealing). */
export function analyzeFiles(files: Record<string, string>, options: AnalyzeOptions = {}): Promise<Report> {
  return analyzeBundle(
    memorySource("hand-built", files, (text) => ({bytes: Buffer.byteLength(text), sha256: sha256Hex(text)})),
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

export interface StreamedOptions extends Partial<RequestRecord> {
  /** Dispatch this long after the schedule (default 0). */
  lagMs?: number;
  /** One-token content events (default 10), `gapMs` apart (default 5), the first `ttftMs` after dispatch (default 5). */
  tokens?: number;
  gapMs?: number;
  ttftMs?: number;
  /** Server token delta on each content event (continuous usage), default null. */
  delta?: number | null;
  /** End this long after the schedule (default 100), unless `endMs` is given. */
  durMs?: number;
  endMs?: number;
  out?: number | null;
  in?: number | null;
}

/**
 * A successful streamed request scheduled at `schedMs` and dispatched `lagMs` later: `tokens` content events,
 * a finish event 1 ms after the last and [DONE] 0.5 ms after that; it ends at `schedMs + durMs`.
 */
export function streamed(id: string, schedMs: number, o: StreamedOptions = {}): NoSeq<RequestRecord> {
  const {lagMs = 0, tokens = 10, gapMs = 5, ttftMs = 5, durMs = 100, delta = null, ...over} = o;
  const disp = schedMs + lagMs;
  const lastMs = disp + ttftMs + (tokens - 1) * gapMs;
  const text = tokenEvents(tokens, disp + ttftMs, gapMs, {delta});
  const events = [...text, ev(lastMs + 1, "finish"), ev(lastMs + 1.5, "done")];
  const endMs = over.endMs ?? schedMs + durMs;
  if (endMs < lastMs + 1.5) throw new Error(`streamed ${id}: ends at ${endMs} ms, before its last event`);
  return request(id, disp, events, {tSchedNs: Math.round(schedMs * MS), ...over, endMs});
}

/** `n` requests back to back on one closed-loop slot: request i is scheduled at `startMs + i · durMs` and ends when the next starts. */
export function lane(prefix: string, n: number, o: StreamedOptions & {startMs?: number} = {}): NoSeq<RequestRecord>[] {
  const {startMs = 0, durMs = 100, ...rest} = o;
  return Array.from({length: n}, (_, i) => streamed(`${prefix}${i}`, startMs + i * durMs, {durMs, index: i, ...rest}));
}

/** Event-loop samples of `windowMs` (default 500) covering [fromMs, toMs], delay p99 `p99Ms` (default 1); `stalls` as [at ms, ms late]. */
export function loopSamples(
  fromMs: number,
  toMs: number,
  o: {p99Ms?: number; windowMs?: number; stalls?: [number, number][]} = {}
): NoSeq<ClientRecord>[] {
  const {p99Ms = 1, windowMs = 500, stalls} = o;
  const n = Math.max(1, Math.ceil((toMs - fromMs) / windowMs));
  return Array.from({length: n}, (_, k) => {
    const end = fromMs + (k + 1) * windowMs;
    const mine = stalls?.filter(([at]) => at > end - windowMs && at <= end);
    return {
      kind: "loop",
      tNs: Math.round(end * MS),
      windowNs: Math.round(windowMs * MS),
      loopDelayP50Ms: Math.min(p99Ms, 0.5),
      loopDelayP99Ms: p99Ms,
      loopDelayMaxMs: Math.max(p99Ms, ...(mine ?? []).map(([, ms]) => ms)),
      elu: 0.2,
      inFlight: null,
      openSockets: null,
      rssBytes: null,
      cpuUserUs: null,
      cpuSystemUs: null,
      ...(mine === undefined ? {} : {stalls: mine.map(([at, ms]): [number, number] => [Math.round(at * MS), ms])})
    };
  });
}

/**
 * A run that every gate accepts unless the test changes it: the requests, healthy event-loop samples (delay
 * p99 1 ms) from 0 to the last end, and ignore_eos off; `over` replaces fields, `over.config` is merged over that.
 */
export function cleanRun(requests: NoSeq<RequestRecord>[], over: Partial<BundleSpec> = {}): BundleSpec {
  const from = Math.min(...requests.map((r) => r.tSchedNs ?? r.tDispNs ?? 0)) / MS;
  const to = Math.max(...requests.map((r) => r.tEndNs ?? 0)) / MS;
  const planned = asPlanned(requests, over.points ?? [point("concurrency", 1)]);
  return {
    ...planned,
    ...(over.schedule === undefined ? {} : {schedule: over.schedule}),
    client: loopSamples(Math.min(0, from), to),
    ...over,
    requests: planned.requests,
    config: {workload: {ignore_eos: false}, ...over.config}
  };
}

/**
 * The requests as a collector plans them (G30): numbered 0, 1, 2… per point, repeat and phase in order of
 * their scheduled time, and for open-loop points the schedule.jsonl entries they were sent against (offsets
 * from the phase's first scheduled time). Request ids, times and order in the file are kept.
 */
export function asPlanned(
  requests: NoSeq<RequestRecord>[],
  points: readonly LoadPoint[]
): {requests: NoSeq<RequestRecord>[]; schedule?: NoSeq<ScheduleRecord>[]} {
  const groups = new Map<string, number[]>();
  requests.forEach((r, i) => {
    if (r.caseId !== undefined) return;
    const key = `${r.point}|${r.repeat}|${r.phase}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = [...requests];
  const schedule: NoSeq<ScheduleRecord>[] = [];
  const open = new Set(points.filter((p) => p.mode !== "concurrency").map((p) => p.id));
  for (const members of groups.values()) {
    const byTime = [...members].sort((a, b) => (requests[a]!.tSchedNs ?? 0) - (requests[b]!.tSchedNs ?? 0) || a - b);
    const start = requests[byTime[0]!]!.tSchedNs ?? 0;
    byTime.forEach((at, index) => {
      const r = {...requests[at]!, index};
      out[at] = r;
      if (open.has(r.point) && r.tSchedNs !== null)
        schedule.push({
          point: r.point,
          repeat: r.repeat,
          index,
          phase: r.phase,
          offsetNs: r.tSchedNs - start,
          requestId: r.id
        });
    });
  }
  return schedule.length > 0 ? {requests: out, schedule} : {requests: out};
}
