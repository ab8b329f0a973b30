import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {Effects} from "../effects.ts";
import {HttpTextError} from "../httpText.ts";
import {authHeaders, baseHeaders} from "../request/headers.ts";
import {parkedSockets} from "../request/pool.ts";
import {PROBE_REQUEST_ID} from "../request/id.ts";
import type {RequestTarget} from "../request/send.ts";
import {sendRequest} from "../request/sendRequest.ts";
import {joinUrl, serverRoot} from "../request/url.ts";
import {engineFromMetrics} from "../telemetry/prometheus.ts";
import type {Redactor} from "../redact.ts";

export interface StreamProbe {
  ok: boolean;
  httpStatus: number | null;
  events: number;
  usageSource: string;
  error: string | null;
}

export interface ServerProbe {
  reachable: boolean;
  unreachableReason: string | null;
  modelsStatus: number | null;
  models: unknown;
  modelIds: string[];
  version: Record<string, unknown>;
  engine: string | null;
  engineVersion: string | null;
  metricsUrl: string;
  metricsOk: boolean;
  metricsError: string | null;
  tokenize: boolean;
  stream: StreamProbe | null;
  /** Whether requests carry stream_options.continuous_usage_stats. */
  continuousUsage: boolean;
  /**
   * Whether the server kept the connection of the probe's streamed request open for reuse (null: not
   * probed, e.g. one connection per request or no stream). llama-server closes every streamed connection
   * although it announces Keep-Alive: reusing one then races its close.
   */
  keepsConnections: boolean | null;
  downgrade: string | null;
  capabilities: Record<string, unknown>;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** Allowlisted facts of llama.cpp's /props (it also carries the chat template and sampling defaults). */
function propsFacts(v: unknown): Record<string, unknown> | null {
  if (v === null || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ["build_info", "model_path", "total_slots", "modalities"]) if (k in o) out[k] = o[k];
  const d = o.default_generation_settings as Record<string, unknown> | undefined;
  if (d && typeof d === "object" && "n_ctx" in d) out.n_ctx = d.n_ctx;
  return Object.keys(out).length ? out : null;
}

/** POST /tokenize (vLLM `{model, prompt}`, llama.cpp `{content}`) → token count, or null. */
export function tokenCounter(fx: Pick<Effects, "http">, config: RunConfig, apiKey: string | null) {
  const url = joinUrl(serverRoot(config.target.base_url), "/tokenize");
  const headers = {...baseHeaders(apiKey, config.target.headers), accept: "application/json"};
  return async (text: string): Promise<number | null> => {
    for (const body of [{model: config.target.model, prompt: text}, {content: text}]) {
      try {
        const r = await fx.http({url, method: "POST", headers, body: JSON.stringify(body), timeoutMs: 10_000});
        if (r.status < 200 || r.status >= 300) continue;
        const v = parseJson(r.body) as {count?: unknown; tokens?: unknown} | null;
        const n = v && typeof v.count === "number" ? v.count : v && Array.isArray(v.tokens) ? v.tokens.length : null;
        // llama.cpp answers {model, prompt} with 200 and no tokens (it reads `content`): try the next form
        if (n !== null && (n > 0 || text.trim() === "")) return n;
      } catch {
        return null;
      }
    }
    return null;
  };
}

/**
 * Probes the target without load: /v1/models (reachability), version endpoints, /metrics, /tokenize, and
 * one tiny streamed request (streaming, usage in the stream, continuous usage with a downgrade on 400).
 */
export async function probeServer(options: {
  fx: Pick<Effects, "http" | "clock" | "sleep">;
  /** Where the probe's streamed request goes (the run's own request builder), or null to skip it. */
  target: RequestTarget | null;
  config: RunConfig;
  apiKey: string | null;
  redact: Redactor;
}): Promise<ServerProbe> {
  const {fx, config, apiKey, redact} = options;
  const base = config.target.base_url;
  const root = serverRoot(base);
  const headers = authHeaders(apiKey, config.target.headers);
  const connectMs = Math.min(config.target.timeouts.connect_ms, 15_000);
  const metricsUrl = config.target.metrics_url ?? joinUrl(root, "/metrics");
  const probe: ServerProbe = {
    reachable: false,
    unreachableReason: null,
    modelsStatus: null,
    models: null,
    modelIds: [],
    version: {},
    engine: config.target.engine ?? null,
    engineVersion: config.target.engine_version ?? null,
    metricsUrl: redact.url(metricsUrl),
    metricsOk: false,
    metricsError: null,
    tokenize: false,
    stream: null,
    continuousUsage: config.workload.continuous_usage === "on",
    keepsConnections: null,
    downgrade: null,
    capabilities: {}
  };
  const unreachable = await probeModels(fx, joinUrl(base, "/models"), {headers, connectMs, redact}, probe);
  if (unreachable) return probe;
  await probeVersions(fx, root, {headers, connectMs, redact}, probe);
  if (config.telemetry.server_metrics !== "off") {
    try {
      const r = await fx.http({url: metricsUrl, headers: {accept: "text/plain"}, timeoutMs: connectMs});
      probe.metricsOk = r.status >= 200 && r.status < 300;
      if (!probe.metricsOk) probe.metricsError = redact(`http ${r.status}`);
      else probe.engine ??= engineFromMetrics(r.body);
    } catch (e) {
      probe.metricsError = redact((e as Error).message);
    }
  }
  probe.tokenize = (await tokenCounter(fx, config, apiKey)("hello world")) !== null;
  if (options.target) await probeStream(fx, options.target, config, probe);
  probe.capabilities = {
    models_endpoint: probe.modelsStatus !== null && probe.modelsStatus >= 200 && probe.modelsStatus < 300,
    model_listed: probe.modelIds.length === 0 ? null : probe.modelIds.includes(config.target.model),
    streaming: probe.stream && config.target.endpoint !== "embeddings" ? probe.stream.ok : null,
    embeddings: probe.stream && config.target.endpoint === "embeddings" ? probe.stream.ok : null,
    usage_in_stream: probe.stream ? probe.stream.usageSource !== "none" : null,
    usage_source: probe.stream?.usageSource ?? null,
    continuous_usage_requested: probe.continuousUsage,
    continuous_usage_sent: probe.stream ? probe.stream.usageSource === "server_continuous" : null,
    continuous_usage_downgrade: probe.downgrade,
    keeps_connections: probe.keepsConnections,
    metrics: probe.metricsOk,
    metrics_url: probe.metricsUrl,
    metrics_error: probe.metricsError,
    tokenize: probe.tokenize,
    version_endpoints: Object.keys(probe.version)
  };
  return probe;
}

interface ProbeGet {
  headers: Record<string, string>;
  connectMs: number;
  redact: Redactor;
}

/** GET /v1/models: reachability, the served models and, unless configured, the engine from `owned_by`. True when unreachable. */
async function probeModels(fx: Pick<Effects, "http">, url: string, o: ProbeGet, probe: ServerProbe): Promise<boolean> {
  try {
    const r = await fx.http({url, headers: o.headers, timeoutMs: o.connectMs});
    probe.reachable = true;
    probe.modelsStatus = r.status;
    const v = parseJson(r.body);
    probe.models = v === null ? null : o.redact.value(v);
    const data = (v as {data?: unknown} | null)?.data;
    if (Array.isArray(data)) probe.modelIds = data.map((m) => String((m as {id?: unknown}).id ?? "")).filter(Boolean);
    if (!probe.engine && Array.isArray(data)) {
      const owner = String((data[0] as {owned_by?: unknown})?.owned_by ?? "");
      if (/vllm/i.test(owner)) probe.engine = "vllm";
      else if (/llama/i.test(owner)) probe.engine = "llama.cpp";
      else if (/sglang/i.test(owner)) probe.engine = "sglang";
    }
  } catch (e) {
    probe.unreachableReason = e instanceof HttpTextError ? `${e.kind}: ${e.message}` : (e as Error).message;
    probe.unreachableReason = o.redact(probe.unreachableReason);
    return true;
  }
  return false;
}

/** The optional version endpoints (/version; llama.cpp's /props, allowlisted), and the engine version they name. */
async function probeVersions(fx: Pick<Effects, "http">, root: string, o: ProbeGet, probe: ServerProbe): Promise<void> {
  for (const path of ["/version", "/props"]) {
    try {
      const r = await fx.http({url: joinUrl(root, path), headers: o.headers, timeoutMs: o.connectMs});
      if (r.status < 200 || r.status >= 300) continue;
      const v = parseJson(r.body);
      const facts = path === "/props" ? propsFacts(v) : v;
      if (facts !== null) probe.version[path] = o.redact.value(facts);
    } catch {
      // optional endpoint
    }
  }
  const ver = probe.version["/version"] as {version?: unknown} | undefined;
  const props = probe.version["/props"] as {build_info?: unknown} | undefined;
  if (!probe.engineVersion && typeof ver?.version === "string") probe.engineVersion = ver.version;
  if (!probe.engineVersion && typeof props?.build_info === "string") probe.engineVersion = props.build_info;
  if (!probe.engine && props) probe.engine = "llama.cpp";
}

/** How long after the probe's stream the pool is checked for its connection. */
const KEEP_ALIVE_PROBE_MS = 100;

async function probeStream(
  fx: Pick<Effects, "sleep">,
  target: RequestTarget,
  config: RunConfig,
  probe: ServerProbe
): Promise<void> {
  const t = {...target, timeouts: {...target.timeouts, totalMs: target.timeouts.totalMs ?? 120_000}};
  const send = (continuous: boolean) =>
    sendRequest(t, config, {
      id: PROBE_REQUEST_ID,
      endpoint: config.target.endpoint,
      prompt: "hello",
      maxTokens: 4,
      ignoreEos: config.workload.ignore_eos,
      continuousUsage: continuous,
      keepText: false
    });
  const mode = config.workload.continuous_usage;
  let r = await send(mode !== "off");
  probe.continuousUsage = mode !== "off";
  if (mode === "auto" && r.httpStatus === 400) {
    probe.downgrade = "server answered 400 to stream_options.continuous_usage_stats; requests are sent without it";
    probe.continuousUsage = false;
    r = await send(false);
  }
  // a completion streams events; an embedding answers with vectors (the analyzer judges them, this only looks)
  const answered = config.target.endpoint === "embeddings" ? (r.body?.vectors?.length ?? 0) > 0 : r.events.length > 0;
  const ok = r.httpStatus !== null && r.httpStatus >= 200 && r.httpStatus < 300 && answered;
  if (ok && config.target.connection === "reuse" && r.transportError === null) {
    // a server that closes a connection does it right after the response: after a moment, is it still parked?
    await fx.sleep(KEEP_ALIVE_PROBE_MS);
    probe.keepsConnections = parkedSockets(target.agent) > 0;
  }
  probe.stream = {
    ok,
    httpStatus: r.httpStatus,
    events: r.events.length,
    usageSource: r.usageSource,
    error: r.errorMessage ?? r.transportError
  };
}
