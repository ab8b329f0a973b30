/**
 * Builders for synthetic (hand-specified) bundles: test fixtures and benchmark inputs.
 * Everything is deterministic; nothing here is measured data.
 */
import {mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {min} from "d3-array";
import {stringify as toYaml} from "yaml";

import {sealBundle} from "../../collector/bundle/seal.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {
  MEASURE_VERSION,
  RunConfigSpec,
  SCHEMA_VERSION,
  type ClientRecord,
  type Environment,
  type GpuSample,
  type QualityRecord,
  type LoadPoint,
  type Manifest,
  type RequestRecord,
  type RunConfigSpec as RunConfigInput,
  type ScheduleRecord,
  type ServerScrape,
  type SseEvent
} from "../../src/analysis/schema/index.ts";

const MS = 1_000_000;

/** How a request behaves, without its identity and schedule. */
export interface SynthShape {
  dispatchLagMs?: number;
  ttftMs: number;
  /** Output tokens the server produces. */
  tokens: number;
  intervalMs: number;
  tokensPerEvent?: number;
  usage?: "final" | "continuous" | "none";
  httpStatus?: number;
  roleChunk?: boolean;
  done?: boolean;
  finishReason?: string | null;
  /** Emit an in-band error event after this many token events (and still send [DONE]). */
  inbandErrorAfter?: number;
  promptTokens?: number;
  maxTokens?: number;
  salt?: string | null;
  cachedTokens?: number;
  transportError?: RequestRecord["transportError"];
  errorMessage?: string | null;
}

export interface SynthRequest extends SynthShape {
  id: string;
  point: string;
  repeat?: number;
  index: number;
  phase?: RequestRecord["phase"];
  /** Scheduled time, ms from the origin. */
  schedMs: number;
}

/**
 * A closed loop with `c` slots: each request is scheduled the moment a slot frees (the previous
 * request's stream end), as the collector does. Returns raw records with seq from `firstSeq`.
 */
export function closedLoop(
  point: string,
  count: number,
  c: number,
  shape: (i: number) => SynthShape,
  opts: {
    phase?: RequestRecord["phase"];
    startMs?: number;
    firstSeq?: number;
    previous?: RequestRecord[];
    /** Put before each id (ids must be unique across the bundle's points). */
    idPrefix?: string;
  } = {}
): RequestRecord[] {
  const phase = opts.phase ?? "measure";
  const free = Array.from({length: c}, () => opts.startMs ?? 0);
  const out: RequestRecord[] = [...(opts.previous ?? [])];
  for (let i = 0; i < count; i++) {
    const slot = free.indexOf(min(free)!);
    const r = synthRequest((opts.firstSeq ?? 0) + i, {
      id: `${opts.idPrefix ?? ""}${phase[0]}${i}`,
      point,
      index: i,
      phase,
      schedMs: free[slot]!,
      ...shape(i)
    });
    free[slot] = (r.tEndNs ?? r.tDispNs!) / 1e6;
    out.push(r);
  }
  return out;
}

const hex = (n: number) => n.toString(16).padStart(64, "0");

/** Builds one raw request record the way the collector would have captured it. */
export function synthRequest(seq: number, s: SynthRequest): RequestRecord {
  const tSched = Math.round(s.schedMs * MS);
  const tDisp = tSched + Math.round((s.dispatchLagMs ?? 0) * MS);
  const status = s.httpStatus ?? 200;
  const events: SseEvent[] = [];
  const usageMode = s.usage ?? "final";
  const k = s.tokensPerEvent ?? 1;
  let t = tDisp + Math.round(s.ttftMs * MS);
  const tHdr = status === 200 ? tDisp + Math.round(Math.min(5, s.ttftMs / 2) * MS) : tDisp + 2 * MS;
  let tEnd = tHdr;
  if (status === 200 && s.transportError !== "conn_refused" && s.transportError !== "timeout_headers") {
    if (s.roleChunk ?? true) events.push([tHdr + MS / 10, 80, "role", usageMode === "continuous" ? 0 : null]);
    let emitted = 0;
    let tokenEvents = 0;
    while (emitted < s.tokens) {
      const n = Math.min(k, s.tokens - emitted);
      events.push([t, 120 + 8 * n, "content", usageMode === "continuous" ? n : null]);
      emitted += n;
      tokenEvents++;
      if (s.inbandErrorAfter !== undefined && tokenEvents === s.inbandErrorAfter) {
        events.push([t + MS / 10, 90, "error", null]);
        break;
      }
      if (emitted < s.tokens) t += Math.round(s.intervalMs * n * MS);
    }
    const fin = s.finishReason === undefined ? "length" : s.finishReason;
    if (fin !== null && s.inbandErrorAfter === undefined)
      events.push([t + MS / 20, 70, "finish", usageMode === "continuous" ? 0 : null]);
    if (usageMode === "final" && s.inbandErrorAfter === undefined) events.push([t + MS / 10, 160, "usage", null]);
    if (s.done ?? true) events.push([t + MS / 5, 14, "done", null]);
    tEnd = t + MS / 4;
  }
  const completion = s.inbandErrorAfter === undefined ? s.tokens : null;
  return {
    seq,
    id: s.id,
    point: s.point,
    repeat: s.repeat ?? 0,
    index: s.index,
    phase: s.phase ?? "measure",
    timeBase: "run",
    tSchedNs: tSched,
    tDispNs: tDisp,
    tHdrNs: s.transportError === "conn_refused" ? null : tHdr,
    tByte1Ns: events.length ? events[0]![0] - MS / 20 : null,
    tEndNs: tEnd,
    events,
    httpStatus: s.transportError === "conn_refused" ? null : status,
    finishReason:
      status === 200 && s.inbandErrorAfter === undefined
        ? s.finishReason === undefined
          ? "length"
          : s.finishReason
        : null,
    usage:
      usageMode === "none" || status !== 200 || completion === null
        ? null
        : {
            promptTokens: s.promptTokens ?? 128,
            completionTokens: completion,
            reasoningTokens: null,
            cachedTokens: s.cachedTokens ?? 0
          },
    usageSource:
      usageMode === "none" || status !== 200 || completion === null
        ? "none"
        : usageMode === "continuous"
          ? "server_continuous"
          : "server_final",
    serverTimings: null,
    transportError: s.transportError ?? null,
    errorMessage: s.errorMessage ?? (status === 200 ? null : `HTTP ${status}: {"error":"overloaded"}`),
    promptDigest: hex(seq + 1),
    responseDigest: status === 200 ? hex(seq + 1_000_000) : null,
    promptTokensIntended: s.promptTokens ?? 128,
    maxTokens: s.maxTokens ?? s.tokens,
    salt: s.salt === undefined ? `salt-${s.id}` : s.salt
  };
}

export const SYNTH_ENVIRONMENT: Environment = {
  host: {
    os: "Linux 6.1 (synthetic)",
    arch: "x64",
    cpuModel: "Synthetic CPU",
    cpuCount: 2,
    memoryBytes: 24 * 2 ** 30,
    hostname: "fixture"
  },
  gpu: {
    available: false,
    reason: "synthetic fixture: no GPU",
    devices: [],
    driverVersion: null,
    cudaVersion: null,
    topology: null
  },
  server: {
    baseUrl: "http://127.0.0.1:8000/v1",
    engine: "synthetic",
    engineVersion: null,
    models: null,
    version: null,
    launchArgs: null,
    imageDigest: null,
    gpus: null,
    capabilities: {}
  },
  runtime: {node: "v24.22.3", platform: "linux"},
  extra: {}
};

export interface SynthBundle {
  dir: string;
  id: string;
  config: RunConfigInput;
  points: LoadPoint[];
  requests: RequestRecord[];
  /** schedule.jsonl of open-loop points (the planned sends). */
  schedule?: ScheduleRecord[];
  client?: ClientRecord[];
  server?: ServerScrape[];
  gpu?: GpuSample[];
  quality?: QualityRecord[];
  /** Overrides the synthetic CPU-only environment (e.g. GPU devices for site benchmarks). */
  environment?: Environment;
  labels?: Record<string, string>;
  startedAt?: string;
  status?: Manifest["status"];
  statusReason?: string | null;
  note: string;
  /** Changes applied to the written files before sealing (e.g. a torn tail). */
  beforeSeal?: (dir: string) => void;
  /** Changes applied after sealing (e.g. a flipped byte). */
  afterSeal?: (dir: string) => void;
}

export const jsonl = (records: readonly unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join("");

export function loadPoint(mode: LoadPoint["mode"], value: number, requests: number, warmup = 0): LoadPoint {
  return {
    id: `${mode}-${value}`,
    mode,
    value,
    repeats: 1,
    requests,
    durationS: null,
    warmup,
    maxConcurrency: null,
    burstiness: mode === "gamma" ? 1 : null
  };
}

/** Writes and seals a synthetic bundle with provenance `synthetic`. */
export async function writeSynthBundle(b: SynthBundle): Promise<Manifest> {
  mkdirSync(b.dir, {recursive: true});
  const resolved = RunConfigSpec.parse(b.config);
  const configText = toYaml(resolved);
  writeFileSync(join(b.dir, "config.resolved.yaml"), configText);
  const files = ["config.resolved.yaml", "requests.jsonl"];
  writeFileSync(join(b.dir, "requests.jsonl"), jsonl(b.requests));
  if (b.schedule) {
    writeFileSync(join(b.dir, "schedule.jsonl"), jsonl(b.schedule));
    files.push("schedule.jsonl");
  }
  if (b.client) {
    writeFileSync(join(b.dir, "client_metrics.jsonl"), jsonl(b.client));
    files.push("client_metrics.jsonl");
  }
  if (b.server) {
    writeFileSync(join(b.dir, "server_metrics.jsonl"), jsonl(b.server));
    files.push("server_metrics.jsonl");
  }
  if (b.gpu) {
    writeFileSync(join(b.dir, "gpu_metrics.jsonl"), jsonl(b.gpu));
    files.push("gpu_metrics.jsonl");
  }
  if (b.quality) {
    writeFileSync(join(b.dir, "quality.jsonl"), jsonl(b.quality));
    files.push("quality.jsonl");
  }
  b.beforeSeal?.(b.dir);
  const manifest = await sealBundle(
    b.dir,
    {
      schemaVersion: SCHEMA_VERSION,
      bundleId: b.id,
      measureVersion: MEASURE_VERSION,
      status: b.status ?? "complete",
      statusReason: b.statusReason ?? null,
      startedAt: b.startedAt ?? "2026-11-01T00:00:00.000Z",
      finishedAt: "2026-11-01T00:01:00.000Z",
      monotonicOriginNs: "1000000000000",
      timeUnit: "ns",
      clockAnchors: [{wall: "2026-11-01T00:00:00.000Z", tNs: 0}],
      collector: {name: "inferscope-synth", version: "0.1.0", lockfileSha256: null, gitCommit: null, node: null},
      configSha256: sha256Hex(configText),
      durability: {fsyncIntervalMs: null},
      prng: null,
      loadPoints: b.points,
      labels: b.labels ?? {},
      environment: b.environment ?? SYNTH_ENVIRONMENT,
      provenance: {kind: "synthetic", note: b.note}
    },
    files
  );
  b.afterSeal?.(b.dir);
  return manifest;
}

/** Client loop samples every 500 ms over [0, endMs] with the given delay p99. */
export function loopSamples(endMs: number, p99Ms: number, startSeq = 0): ClientRecord[] {
  const out: ClientRecord[] = [];
  for (let t = 500, i = startSeq; t <= endMs + 500; t += 500, i++)
    out.push({
      seq: i,
      kind: "loop",
      tNs: t * MS,
      windowNs: 500 * MS,
      loopDelayP50Ms: p99Ms / 4,
      loopDelayP99Ms: p99Ms,
      loopDelayMaxMs: p99Ms * 1.5,
      elu: 0.2,
      inFlight: 2,
      openSockets: 2,
      rssBytes: 80_000_000,
      cpuUserUs: 40_000,
      cpuSystemUs: 10_000
    });
  return out;
}
