import type {Endpoint} from "./url.ts";

/** One message of a chat conversation, as sent (tool calls and their results may ride along). */
export interface ChatMessage {
  role: string;
  content: string | null;
}

export interface BodyOptions {
  model: string;
  endpoint: Endpoint;
  /** The prompt: a string (sent as one user message on chat) or the whole conversation (chat only). */
  prompt: string | readonly ChatMessage[];
  maxTokens: number;
  temperature: number;
  ignoreEos: boolean;
  continuousUsage: boolean;
  /** Further top-level fields (tools, tool_choice…), written after the standard ones. */
  extra?: Record<string, unknown>;
}

/**
 * The JSON body of one request, for every caller (load points, cases, probe). A completion is streamed and
 * always asks for usage in the stream; an embedding sends its one text and asks for float vectors (the
 * OpenAI default, and what the collector counts).
 */
export function requestBody(o: BodyOptions): string {
  const body: Record<string, unknown> = {model: o.model};
  if (o.endpoint === "embeddings") {
    if (typeof o.prompt !== "string") throw new Error("requestBody: embeddings take one text, not a conversation");
    body.input = o.prompt;
    body.encoding_format = "float";
    if (o.extra) Object.assign(body, o.extra);
    return JSON.stringify(body);
  }
  if (o.endpoint === "chat")
    body.messages = typeof o.prompt === "string" ? [{role: "user", content: o.prompt}] : o.prompt;
  else if (typeof o.prompt === "string") body.prompt = o.prompt;
  else throw new Error("requestBody: a conversation needs the chat endpoint");
  body.stream = true;
  body.max_tokens = o.maxTokens;
  body.temperature = o.temperature;
  if (o.ignoreEos) body.ignore_eos = true;
  if (o.extra) Object.assign(body, o.extra);
  body.stream_options = o.continuousUsage ? {include_usage: true, continuous_usage_stats: true} : {include_usage: true};
  return JSON.stringify(body);
}
