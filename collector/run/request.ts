import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {Phase, RequestRecord} from "../../src/analysis/schema/records.ts";
import type {StreamResult} from "./streamTypes.ts";

export type Endpoint = RunConfig["target"]["endpoint"];

/**
 * `base` with `path` appended to its path; a query string (e.g. a token some gateways want in the URL)
 * stays at the end: http://h/v1?key=x + /models → http://h/v1/models?key=x.
 */
export function joinUrl(base: string, path: string): string {
  const q = base.indexOf("?");
  const head = (q === -1 ? base : base.slice(0, q)).replace(/\/+$/, "");
  return `${head}${path}${q === -1 ? "" : base.slice(q)}`;
}

/** The server root: base_url without a trailing /v1 (where /metrics, /tokenize, /version live); query kept. */
export function serverRoot(baseUrl: string): string {
  const q = baseUrl.indexOf("?");
  const head = (q === -1 ? baseUrl : baseUrl.slice(0, q)).replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${head}${q === -1 ? "" : baseUrl.slice(q)}`;
}

export function endpointUrl(baseUrl: string, endpoint: Endpoint): string {
  return joinUrl(baseUrl, endpoint === "chat" ? "/chat/completions" : "/completions");
}

export interface BodyOptions {
  model: string;
  endpoint: Endpoint;
  prompt: string;
  maxTokens: number;
  temperature: number;
  ignoreEos: boolean;
  continuousUsage: boolean;
}

/** The JSON body of one streamed request. Usage in the stream is always asked for. */
export function requestBody(o: BodyOptions): string {
  const body: Record<string, unknown> = {model: o.model};
  if (o.endpoint === "chat") body.messages = [{role: "user", content: o.prompt}];
  else body.prompt = o.prompt;
  body.stream = true;
  body.max_tokens = o.maxTokens;
  body.temperature = o.temperature;
  if (o.ignoreEos) body.ignore_eos = true;
  body.stream_options = o.continuousUsage ? {include_usage: true, continuous_usage_stats: true} : {include_usage: true};
  return JSON.stringify(body);
}

/** Headers of every request: JSON in, SSE out, the API key as a bearer token, the configured extras. */
export function baseHeaders(apiKey: string | null, extra: Record<string, string>): Record<string, string> {
  const h: Record<string, string> = {"content-type": "application/json", accept: "text/event-stream"};
  if (apiKey) h.authorization = `Bearer ${apiKey}`;
  for (const [k, v] of Object.entries(extra)) h[k.toLowerCase()] = v;
  return h;
}

export interface RequestIdentity {
  id: string;
  point: string;
  repeat: number;
  index: number;
  phase: Phase;
  tSchedNs: number | null;
  promptDigest: string;
  promptTokensIntended: number | null;
  maxTokens: number;
  salt: string | null;
  promptText?: string;
}

/** The raw request record: the transport's observations plus who the request was. No metric is computed here. */
export function toRecord(who: RequestIdentity, r: StreamResult, saveText: boolean): Omit<RequestRecord, "seq"> {
  const rec: Omit<RequestRecord, "seq"> = {
    id: who.id,
    point: who.point,
    repeat: who.repeat,
    index: who.index,
    phase: who.phase,
    timeBase: "run",
    tSchedNs: who.tSchedNs,
    tDispNs: r.tDispNs,
    tHdrNs: r.tHdrNs,
    tByte1Ns: r.tByte1Ns,
    tEndNs: r.tEndNs,
    events: r.events,
    httpStatus: r.httpStatus,
    finishReason: r.finishReason,
    usage: r.usage,
    usageSource: r.usageSource,
    serverTimings: r.serverTimings,
    transportError: r.transportError,
    errorMessage: r.errorMessage,
    promptDigest: who.promptDigest,
    responseDigest: r.responseDigest,
    promptTokensIntended: who.promptTokensIntended,
    maxTokens: who.maxTokens,
    salt: who.salt
  };
  if (saveText) {
    if (who.promptText !== undefined) rec.promptText = who.promptText;
    rec.responseText = r.responseText;
    if (r.reasoningText) rec.reasoningText = r.reasoningText;
  }
  return rec;
}
