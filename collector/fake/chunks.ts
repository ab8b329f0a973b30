/**
 * JSON text of OpenAI-style stream chunks, built by concatenating pre-escaped pieces (no
 * JSON.stringify of whole objects per event). Shapes follow vLLM (chat.completion.chunk,
 * text_completion) and llama.cpp (`timings`).
 */

export interface ChunkContext {
  endpoint: "chat" | "completions";
  /** `{"id":…,"object":…,"created":…,"model":…,"choices":` up to the choices array. */
  head: string;
}

/** A fixed `created` value keeps the bytes of a scripted stream identical between runs. */
export const CREATED = 1_700_000_000;

export function chunkContext(endpoint: "chat" | "completions", requestId: string, model: string): ChunkContext {
  const id = JSON.stringify((endpoint === "chat" ? "chatcmpl-" : "cmpl-") + requestId);
  const object = endpoint === "chat" ? '"chat.completion.chunk"' : '"text_completion"';
  return {
    endpoint,
    head: `{"id":${id},"object":${object},"created":${CREATED},"model":${JSON.stringify(model)},"choices":`
  };
}

export interface UsageCounts {
  prompt: number;
  completion: number;
  reasoning: number | null;
  /** Prompt tokens served from the prefix cache (`prompt_tokens_details.cached_tokens`). */
  cached: number;
}

export function usageJson(u: UsageCounts): string {
  const details = u.reasoning === null ? "" : `,"completion_tokens_details":{"reasoning_tokens":${u.reasoning}}`;
  return (
    `{"prompt_tokens":${u.prompt},"completion_tokens":${u.completion},"total_tokens":${u.prompt + u.completion}` +
    `,"prompt_tokens_details":{"cached_tokens":${u.cached}}${details}}`
  );
}

/**
 * llama.cpp `timings` object (server-side counts and durations; draft counts with speculative decoding on).
 * `promptN` is the prompt tokens computed, `cacheN` those reused from the cache (llama.cpp's prompt = both).
 */
export function timingsJson(
  promptN: number,
  predictedN: number,
  promptMs: number,
  predictedMs: number,
  draft: {draftN: number; accepted: number} | null = null,
  cacheN = 0
): string {
  const pps = promptMs > 0 ? (promptN * 1000) / promptMs : 0;
  const dps = predictedMs > 0 ? (predictedN * 1000) / predictedMs : 0;
  return (
    `{"cache_n":${cacheN},"prompt_n":${promptN},"prompt_ms":${promptMs},"prompt_per_token_ms":${promptN > 0 ? promptMs / promptN : 0}` +
    `,"prompt_per_second":${pps},"predicted_n":${predictedN},"predicted_ms":${predictedMs}` +
    `,"predicted_per_token_ms":${predictedN > 0 ? predictedMs / predictedN : 0},"predicted_per_second":${dps}` +
    (draft === null ? "" : `,"draft_n":${draft.draftN},"draft_n_accepted":${draft.accepted}`) +
    "}"
  );
}

/**
 * One stream chunk. `delta` is the JSON of the chat delta object (ignored for completions, which use
 * `text`); `finish` a finish reason or null; `usage`/`timings` JSON or null.
 */
export function streamChunk(
  ctx: ChunkContext,
  delta: string,
  text: string,
  finish: string | null,
  usage: string | null,
  timings: string | null
): string {
  const fin = finish === null ? "null" : `"${finish}"`;
  const choice =
    ctx.endpoint === "chat"
      ? `[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${fin}}]`
      : `[{"index":0,"text":${JSON.stringify(text)},"logprobs":null,"finish_reason":${fin}}]`;
  return (
    ctx.head +
    choice +
    (usage === null ? "" : `,"usage":${usage}`) +
    (timings === null ? "" : `,"timings":${timings}`) +
    "}"
  );
}

/** The final `choices: []` usage chunk. */
export function usageChunk(ctx: ChunkContext, usage: string, timings: string | null): string {
  return ctx.head + `[],"usage":${usage}` + (timings === null ? "" : `,"timings":${timings}`) + "}";
}

export const deltaRole = '{"role":"assistant","content":null}';
export const deltaRoleEmpty = '{"role":"assistant","content":""}';
export const deltaEmptyContent = '{"content":""}';
export const deltaNullContent = '{"content":null}';
export const deltaEmpty = "{}";
export const deltaContent = (text: string): string => `{"content":${JSON.stringify(text)}}`;
export const deltaReasoning = (field: "reasoning_content" | "reasoning", text: string): string =>
  `{"${field}":${JSON.stringify(text)}}`;
export const deltaToolName = (callId: string, name: string, index = 0): string =>
  `{"tool_calls":[{"index":${index},"id":${JSON.stringify(callId)},"type":"function","function":{"name":${JSON.stringify(name)},"arguments":""}}]}`;
export const deltaToolArgs = (args: string, index = 0): string =>
  `{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(args)}}}]}`;

/** In-band error object as vLLM and SGLang send it inside a 200 stream. */
export function errorJson(message: string, type: string, code: number): string {
  return `{"error":{"object":"error","message":${JSON.stringify(message)},"type":${JSON.stringify(type)},"param":null,"code":${code}}}`;
}

/** Non-streaming chat.completion / text_completion body. */
export function completionBody(
  endpoint: "chat" | "completions",
  requestId: string,
  model: string,
  content: string,
  reasoning: string | null,
  finish: string,
  usage: string
): string {
  if (endpoint === "completions") {
    return `{"id":${JSON.stringify("cmpl-" + requestId)},"object":"text_completion","created":${CREATED},"model":${JSON.stringify(model)},"choices":[{"index":0,"text":${JSON.stringify(content)},"logprobs":null,"finish_reason":"${finish}"}],"usage":${usage}}`;
  }
  const r = reasoning === null ? "" : `,"reasoning_content":${JSON.stringify(reasoning)}`;
  return `{"id":${JSON.stringify("chatcmpl-" + requestId)},"object":"chat.completion","created":${CREATED},"model":${JSON.stringify(model)},"choices":[{"index":0,"message":{"role":"assistant","content":${JSON.stringify(content)}${r}},"logprobs":null,"finish_reason":"${finish}"}],"usage":${usage}}`;
}
