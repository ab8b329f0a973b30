import {completionBody, errorJson, usageJson} from "./chunks.ts";
import {streamEvents} from "./events.ts";
import {frame, toFrames, type Frame, type StreamEnd} from "./frames.ts";
import type {ScenarioOptions} from "./options.ts";
import {specPlan, type SpecCounts} from "./spec.ts";
import {generate, reasoningCount, type FakeRequest} from "./output.ts";

export type {FakeRequest} from "./output.ts";
export type {EndHow, Frame} from "./frames.ts";

export interface ResponsePlan {
  status: number;
  headers: Record<string, string>;
  headersAtMs: number;
  closeBeforeHeaders: boolean;
  frames: Frame[];
  end: StreamEnd;
  promptTokens: number;
  /** Tokens actually generated (before any cut), for /metrics. */
  completionTokens: number;
  /** Speculative-decoding counters this response adds to /metrics (null: emulation off). */
  spec: SpecCounts | null;
  /** Prompt tokens served from the prefix cache (reported as cached_tokens; they shortened the TTFT). */
  cachedTokens: number;
  /** When the first token is due (the end of prefill: the prompt's blocks enter the prefix cache), or null: never. */
  firstTokenAtMs: number | null;
}

const SSE_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"};
const JSON_HEADERS = {"content-type": "application/json"};

/** Whether the response computes the prompt at all (not an error status, proxy page or closed socket). */
export function prefillsPrompt(o: ScenarioOptions): boolean {
  return o.httpStatus === null && o.nonSse !== "html" && !o.closeBeforeHeaders;
}

/** Prompt tokens the server processes and reports (promptTruncateTo applied). */
export function promptTokensOf(req: FakeRequest, o: ScenarioOptions): number {
  return o.promptTruncateTo === null ? req.promptTokens : Math.min(req.promptTokens, o.promptTruncateTo);
}

/** TTFT with `cached` of `prompt` tokens served from the prefix cache: ttftMs × (1 − saving × cached / prompt). */
export function cachedTtftMs(o: ScenarioOptions, cached: number, prompt: number): number {
  if (cached <= 0 || prompt <= 0) return o.ttftMs;
  return o.ttftMs * Math.max(0, 1 - (o.prefixCacheTtftSaving * cached) / prompt);
}

/**
 * Builds the whole scripted response for one request, `cached` of its prompt tokens served from the prefix
 * cache (the TTFT shrinks with them, cachedTtftMs). Pure and deterministic.
 */
export function buildPlan(req: FakeRequest, options: ScenarioOptions, cached = 0): ResponsePlan {
  const prompt = promptTokensOf(req, options);
  const o = cached > 0 ? {...options, ttftMs: cachedTtftMs(options, cached, prompt)} : options;
  const h = o.headersDelayMs;
  const base = {
    headersAtMs: h,
    closeBeforeHeaders: o.closeBeforeHeaders,
    promptTokens: prompt,
    completionTokens: 0,
    spec: null,
    cachedTokens: cached,
    firstTokenAtMs: null
  };
  const idHeader = {"x-request-id": req.requestId};
  if (o.httpStatus !== null) {
    const headers: Record<string, string> = {...JSON_HEADERS, ...idHeader};
    if (o.retryAfter !== null) headers["retry-after"] = o.retryAfter;
    const body = errorJson(`fake server error ${o.httpStatus}`, statusType(o.httpStatus), o.httpStatus);
    return {...base, status: o.httpStatus, headers, frames: [frame(h, body, 0)], end: {atMs: h, how: "end"}};
  }
  if (o.nonSse === "html") {
    const body = `<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream ${req.requestId}</p></body></html>`;
    const headers = {"content-type": "text/html; charset=utf-8", ...idHeader};
    return {...base, status: 200, headers, frames: [frame(h, body, 0)], end: {atMs: h, how: "end"}};
  }
  const out = generate(req, o);
  const completion = out.tokens.length;
  const spec = o.specDecode === null ? null : specPlan(o.specDecode, completion, prompt, o.seed, req.requestId);
  const usage = usageJson({
    prompt,
    completion: Math.round(completion * o.usageFactor),
    reasoning: reasoningCount(out),
    cached
  });
  if (!req.stream || o.nonSse === "json") {
    const content = out.tokens
      .filter((t) => t.ch !== "reasoning")
      .map((t) => t.text)
      .join("");
    const reasoning = out.tokens.some((t) => t.ch === "reasoning")
      ? out.tokens
          .filter((t) => t.ch === "reasoning")
          .map((t) => t.text)
          .join("")
      : null;
    const at = h + o.ttftMs + Math.max(0, completion - 1) * o.tokenIntervalMs;
    const body = completionBody(req.endpoint, req.requestId, req.model, content, reasoning, out.finish, usage);
    return {
      ...base,
      completionTokens: completion,
      spec: spec?.counts ?? null,
      firstTokenAtMs: o.closeBeforeHeaders ? null : h + o.ttftMs,
      status: 200,
      headers: {...JSON_HEADERS, ...idHeader},
      frames: [frame(at, body, 0)],
      end: {atMs: at, how: "end"}
    };
  }
  const {events, end} = streamEvents(req, o, out, prompt, spec, cached);
  const firstToken = h + o.ttftMs + (spec?.emulation.ttftExtraMs ?? 0) + (o.roleThenDelayMs ?? 0);
  return {
    ...base,
    completionTokens: completion,
    spec: spec?.counts ?? null,
    firstTokenAtMs: o.closeBeforeHeaders ? null : firstToken,
    status: 200,
    headers: {...SSE_HEADERS, ...idHeader},
    frames: toFrames(events, o),
    end
  };
}

function statusType(status: number): string {
  if (status === 429) return "RateLimitError";
  if (status >= 500) return "InternalServerError";
  return "BadRequestError";
}
