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
}

const SSE_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"};
const JSON_HEADERS = {"content-type": "application/json"};

/** Builds the whole scripted response for one request. Pure and deterministic. */
export function buildPlan(req: FakeRequest, o: ScenarioOptions): ResponsePlan {
  const h = o.headersDelayMs;
  const prompt = o.promptTruncateTo === null ? req.promptTokens : Math.min(req.promptTokens, o.promptTruncateTo);
  const base = {
    headersAtMs: h,
    closeBeforeHeaders: o.closeBeforeHeaders,
    promptTokens: prompt,
    completionTokens: 0,
    spec: null
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
  const usage = usageJson({prompt, completion: Math.round(completion * o.usageFactor), reasoning: reasoningCount(out)});
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
      status: 200,
      headers: {...JSON_HEADERS, ...idHeader},
      frames: [frame(at, body, 0)],
      end: {atMs: at, how: "end"}
    };
  }
  const {events, end} = streamEvents(req, o, out, prompt, spec);
  return {
    ...base,
    completionTokens: completion,
    spec: spec?.counts ?? null,
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
