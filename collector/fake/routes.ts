import type {IncomingMessage, ServerResponse} from "node:http";

import {Active, type Env} from "./active.ts";
import {mergeOptions, type ScenarioOptions} from "./options.ts";
import {buildPlan, prefillsPrompt, promptTokensOf, type FakeRequest} from "./plan.ts";
import type {PrefixInsert} from "./prefixCache.ts";
import {serveEmbeddings} from "./embeddings.ts";
import {resolveScenario, type Scenario} from "./scenarios.ts";
import {countWords, promptWords, requestText, tokenIds} from "./tokens.ts";

/** The fake server's routes: /health, /version, /v1/models, /metrics, /tokenize, the two completion endpoints and /v1/embeddings. */

/** The context length the fake model advertises (/v1/models) and enforces. */
export const MAX_MODEL_LEN = 131_072;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {"content-type": "application/json", "content-length": Buffer.byteLength(text)});
  res.end(text);
}

const errorBody = (message: string, code: number): unknown => ({
  error: {object: "error", message, type: code === 404 ? "NotFoundError" : "BadRequestError", param: null, code}
});

export function route(
  req: IncomingMessage,
  res: ServerResponse,
  scenario: Scenario,
  env: Env,
  newId: () => string,
  received: bigint
): void {
  const path = (req.url ?? "/").split("?")[0]!;
  const method = req.method ?? "GET";
  if (method === "GET") return routeGet(path, res, env);
  if (method !== "POST") return sendJson(res, 405, errorBody(`method ${method} not allowed on ${path}`, 405));
  const endpoint =
    path === "/v1/chat/completions"
      ? "chat"
      : path === "/v1/completions"
        ? "completions"
        : path === "/v1/embeddings"
          ? "embeddings"
          : path === "/tokenize"
            ? "tokenize"
            : null;
  if (endpoint === null) return sendJson(res, 404, errorBody(`no route POST ${path}`, 404));
  const parts: Buffer[] = [];
  req.on("data", (b: Buffer) => parts.push(b));
  req.on("end", () => onCompletion(req, res, endpoint, Buffer.concat(parts), {scenario, env, newId, received}));
}

function routeGet(path: string, res: ServerResponse, env: Env): void {
  if (path === "/health") return sendJson(res, 200, {status: "ok"});
  if (path === "/version") return sendJson(res, 200, {version: "inferscope-fake-1"});
  if (path === "/v1/models") {
    return sendJson(res, 200, {
      object: "list",
      data: [
        {
          id: env.model,
          object: "model",
          created: 1_700_000_000,
          owned_by: "inferscope-fake",
          max_model_len: MAX_MODEL_LEN
        }
      ]
    });
  }
  if (path === "/metrics") {
    res.writeHead(200, {"content-type": "text/plain; version=0.0.4; charset=utf-8"});
    return void res.end(env.metrics.render(env.model));
  }
  return sendJson(res, 404, errorBody(`no route GET ${path}`, 404));
}

/** A POST to a completion endpoint or /tokenize, once its body has been read. */
function onCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: "chat" | "completions" | "embeddings" | "tokenize",
  raw: Buffer,
  {scenario, env, newId, received}: {scenario: Scenario; env: Env; newId: () => string; received: bigint}
): void {
  let body: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(raw.toString("utf8"));
    if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("request body is not a JSON object");
    body = v as Record<string, unknown>;
  } catch (e) {
    return sendJson(res, 400, errorBody(`invalid JSON body: ${(e as Error).message}`, 400));
  }
  if (endpoint === "tokenize") {
    const tokens = tokenIds(requestText(body));
    return sendJson(res, 200, {count: tokens.length, max_model_len: MAX_MODEL_LEN, tokens});
  }
  let options: ScenarioOptions;
  try {
    options = requestOptions(req, scenario);
  } catch (e) {
    return sendJson(res, 400, errorBody((e as Error).message, 400));
  }
  if (endpoint === "embeddings")
    return serveEmbeddings(res, body, options, env, (status, message) =>
      sendJson(res, status, errorBody(message, status))
    );
  const fake = parseRequest(endpoint, body, req, options, newId);
  // like a real server: a request beyond the model's context is refused, never generated (one request
  // asking for 10¹² tokens must not take the server down for everyone)
  if ((fake.maxTokens ?? 0) + fake.promptTokens > MAX_MODEL_LEN)
    return sendJson(
      res,
      400,
      errorBody(
        `This model's maximum context length is ${MAX_MODEL_LEN} tokens. However, you requested ${fake.maxTokens ?? 0} output tokens and your prompt contains ${fake.promptTokens} tokens.`,
        400
      )
    );
  const prefix = prefixLookup(env, fake, options);
  const plan = buildPlan(fake, options, prefix?.cached ?? 0);
  env.metrics.promptTokens += plan.promptTokens;
  const a = new Active(env, res, fake.requestId, plan, received, prefix?.insert ?? null);
  if (env.cap !== null && env.capMode === "queue" && env.active.size >= env.cap) {
    env.queue.push(a);
    env.metrics.waiting++;
    res.on("close", () => {
      const i = env.queue.indexOf(a);
      if (i >= 0) {
        env.queue.splice(i, 1);
        env.metrics.waiting--;
      }
    });
  } else a.start();
}

/**
 * The request's prefix-cache lookup, when the cache is on for it (prefixCacheTokens set) and it computes its
 * prompt at all: the tokens served (counted in /metrics) and what it inserts once its first token is due.
 * Looked up when the request has been read, before any connCap queueing.
 */
function prefixLookup(env: Env, fake: FakeRequest, o: ScenarioOptions): {cached: number; insert: PrefixInsert} | null {
  if (o.prefixCacheTokens === null || !prefillsPrompt(o)) return null;
  const words = promptWords(fake.text).slice(0, promptTokensOf(fake, o));
  const block = o.prefixCacheBlock;
  const cached = env.prefixCache.lookup(words, block, Number(env.clock()) / 1e6);
  env.metrics.observePrefixCache(words.length, cached);
  return {cached, insert: {words, block, capacity: o.prefixCacheTokens}};
}

function requestOptions(req: IncomingMessage, scenario: Scenario): ScenarioOptions {
  const name = req.headers["x-fake-scenario"];
  let o = typeof name === "string" && name !== scenario.name ? resolveScenario(name).options : scenario.options;
  const extra = req.headers["x-fake-options"];
  if (typeof extra === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(extra);
    } catch {
      throw new Error(`x-fake-options header: invalid JSON ${JSON.stringify(extra.slice(0, 200))}`);
    }
    o = mergeOptions(o, parsed, "x-fake-options header");
  }
  return o;
}

function parseRequest(
  endpoint: "chat" | "completions",
  body: Record<string, unknown>,
  req: IncomingMessage,
  o: ScenarioOptions,
  newId: () => string
): FakeRequest {
  const so = (body.stream_options ?? {}) as Record<string, unknown>;
  const max = body.max_tokens ?? body.max_completion_tokens;
  const rid = req.headers["x-request-id"];
  const text = requestText(body);
  return {
    endpoint,
    stream: body.stream === true,
    maxTokens: typeof max === "number" && max >= 0 ? Math.floor(max) : null,
    ignoreEos: body.ignore_eos === true,
    includeUsage: so.include_usage === true,
    continuousUsage: so.continuous_usage_stats === true,
    promptTokens: countWords(text),
    text,
    requestId: typeof rid === "string" && rid !== "" ? rid : newId(),
    model: typeof body.model === "string" ? body.model : o.model
  };
}
