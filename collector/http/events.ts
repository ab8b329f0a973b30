import type {z} from "zod";

import type {EventKind, ServerTimings, SseEvent, Usage, UsageSource} from "../../src/analysis/schema/records.ts";

export type ServerTimingsValue = z.infer<typeof ServerTimings>;

/**
 * What one SSE `data:` payload of an OpenAI chat or completions stream says. Raw facts only.
 *
 * kind, in this order of precedence:
 * - `done`: the `[DONE]` sentinel; `parse_error`: data that is not JSON;
 * - `error`: `{"error": …}` (non-null), `{"object": "error", …}`, or an SSE `event: error`;
 * - `content`: a non-empty `delta.content` (chat) or `text` (completions) on any choice;
 * - `tool_call`: `delta.tool_calls` with a non-empty function name or arguments fragment;
 * - `reasoning`: a non-empty `delta.reasoning_content` or `delta.reasoning`;
 *   (a chunk with a token delta AND finish_reason or usage is still content/tool_call/reasoning)
 * - `finish`: a finish_reason without a token delta;
 * - `empty`: a choice whose text is present but empty — completions `text: ""`, or a chat delta without `role`
 *   whose `content` is "" or null — with or without usage (a server can stream a token whose text it holds
 *   back, e.g. partial UTF-8; the analyzer decides from the server's counts whether it carried a token);
 * - `role`: a choice with a role delta, an empty delta object or a null delta, with or without usage;
 * - `usage`: usage (or llama.cpp timings) on a chunk without any delta (e.g. `choices: []`);
 * - `other`: JSON we do not recognise (including non-object JSON).
 */
export interface PayloadInfo {
  kind: EventKind;
  finishReason: string | null;
  /** Content text delta ("" when none). */
  content: string;
  /** Reasoning text delta ("" when none). */
  reasoning: string;
  /** Usage object carried by this chunk, or null. */
  usage: Usage | null;
  /** llama.cpp `timings` carried by this chunk, or null. */
  timings: ServerTimingsValue | null;
  /** The raw `delta.tool_calls` fragments of this chunk (not copied), or null. */
  toolCalls: unknown[] | null;
}

export function emptyInfo(): PayloadInfo {
  return {kind: "other", finishReason: null, content: "", reasoning: "", usage: null, timings: null, toolCalls: null};
}

/** One tool call assembled from its streamed fragments: the name, and the arguments string as concatenated. */
export interface StreamedToolCall {
  index: number;
  id: string | null;
  name: string;
  arguments: string;
}

const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function parseUsage(u: Record<string, unknown>): Usage {
  const cd = u.completion_tokens_details;
  const pd = u.prompt_tokens_details;
  return {
    promptTokens: int(u.prompt_tokens),
    completionTokens: int(u.completion_tokens),
    reasoningTokens: isObj(cd) ? int(cd.reasoning_tokens) : null,
    cachedTokens: isObj(pd) ? int(pd.cached_tokens) : null
  };
}

function parseTimings(t: Record<string, unknown>): ServerTimingsValue {
  return {
    promptN: num(t.prompt_n),
    promptMs: num(t.prompt_ms),
    predictedN: num(t.predicted_n),
    predictedMs: num(t.predicted_ms),
    cacheN: num(t.cache_n),
    // speculative decoding (llama.cpp): kept only when sent, so responses without them keep their old shape
    ...("draft_n" in t ? {draftN: num(t.draft_n)} : {}),
    ...("draft_n_accepted" in t ? {draftNAccepted: num(t.draft_n_accepted)} : {})
  };
}

function hasToolCall(tc: unknown): boolean {
  if (!Array.isArray(tc)) return false;
  for (const c of tc) {
    const f = isObj(c) ? c.function : undefined;
    if (!isObj(f)) continue;
    if ((typeof f.name === "string" && f.name !== "") || (typeof f.arguments === "string" && f.arguments !== ""))
      return true;
  }
  return false;
}

/**
 * Classifies one `data:` payload. `eventType` is the SSE `event:` field, if any. Fills and returns
 * `out` (pass a reused object to avoid one allocation per event).
 */
export function classifyPayload(data: string, eventType?: string, out: PayloadInfo = emptyInfo()): PayloadInfo {
  out.kind = "other";
  out.finishReason = null;
  out.content = "";
  out.reasoning = "";
  out.usage = null;
  out.timings = null;
  out.toolCalls = null;
  if (data === "[DONE]" || (data.length < 16 && data.trim() === "[DONE]")) {
    out.kind = "done";
    return out;
  }
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    out.kind = eventType === "error" ? "error" : "parse_error";
    return out;
  }
  if (!isObj(v)) {
    out.kind = eventType === "error" ? "error" : "other";
    return out;
  }
  if (isObj(v.usage)) out.usage = parseUsage(v.usage);
  if (isObj(v.timings)) out.timings = parseTimings(v.timings);
  if ((v.error !== undefined && v.error !== null) || v.object === "error" || eventType === "error") {
    out.kind = "error";
    return out;
  }
  const choices = v.choices;
  let content = false;
  let reasoning = false;
  let tool = false;
  let delta = false;
  let emptyText = false;
  if (Array.isArray(choices)) {
    for (const c of choices) {
      if (!isObj(c)) continue;
      if (typeof c.finish_reason === "string") out.finishReason = c.finish_reason;
      const d = c.delta;
      if (d === null) delta = true;
      else if (isObj(d)) {
        delta = true;
        if (typeof d.content === "string" && d.content !== "") {
          content = true;
          out.content += d.content;
        } else if ((d.content === "" || d.content === null) && d.role === undefined) emptyText = true;
        const r = typeof d.reasoning_content === "string" ? d.reasoning_content : d.reasoning;
        if (typeof r === "string" && r !== "") {
          reasoning = true;
          out.reasoning += r;
        }
        if (Array.isArray(d.tool_calls)) {
          out.toolCalls = out.toolCalls === null ? d.tool_calls : out.toolCalls.concat(d.tool_calls);
          if (hasToolCall(d.tool_calls)) tool = true;
        }
      } else if (typeof c.text === "string") {
        delta = true;
        if (c.text !== "") {
          content = true;
          out.content += c.text;
        } else emptyText = true;
      }
    }
  }
  if (content) out.kind = "content";
  else if (tool) out.kind = "tool_call";
  else if (reasoning) out.kind = "reasoning";
  else if (out.finishReason !== null) out.kind = "finish";
  else if (emptyText) out.kind = "empty";
  else if (delta) out.kind = "role";
  else if (out.usage !== null || out.timings !== null) out.kind = "usage";
  return out;
}

const TOKEN_BEARING: ReadonlySet<EventKind> = new Set(["content", "reasoning", "tool_call"]);

/**
 * Folds the payloads of one stream into the request-level raw fields. Usage source:
 * - server_continuous: usage appeared on a token-bearing chunk without finish_reason, or on two or
 *   more chunks of which one was token-bearing (vLLM `continuous_usage_stats`);
 * - server_final: usage only on a final chunk;
 * - server_timings: no usage, but llama.cpp `timings` gave counts (prompt = prompt_n + cache_n);
 * - none otherwise.
 * Token deltas (the 4th tuple element) are differences of cumulative `usage.completion_tokens`; they are
 * kept only when the source is server_continuous and set to null otherwise (a lone final usage chunk is
 * a total, not a delta). A decreasing cumulative count gives a null delta.
 */
export class StreamAccumulator {
  readonly keepText: boolean;
  readonly info: PayloadInfo = emptyInfo();
  content = "";
  reasoning = "";
  finishReason: string | null = null;
  usage: Usage | null = null;
  timings: ServerTimingsValue | null = null;
  /** Tool calls assembled from `delta.tool_calls` fragments by index (only when keepText). */
  toolCalls: StreamedToolCall[] = [];
  /** The data of the first in-band error event (≤ 1 KiB), kept as the request's error text. */
  inbandError: string | null = null;
  private prevCum = 0;
  private usageChunks = 0;
  private usageOnToken = false;
  private usageOnTokenBeforeFinish = false;

  constructor(keepText: boolean) {
    this.keepText = keepText;
  }

  /** Classifies one payload and returns [kind, token delta or null]; updates the request-level fields. */
  push(data: string, eventType: string | undefined): EventKind {
    const i = classifyPayload(data, eventType, this.info);
    if (i.kind === "error" && this.inbandError === null)
      this.inbandError = data.length > 1024 ? `${data.slice(0, 1024)}…` : data;
    if (i.content !== "") this.content += i.content;
    if (i.reasoning !== "" && this.keepText) this.reasoning += i.reasoning;
    if (i.toolCalls !== null && this.keepText) this.mergeToolCalls(i.toolCalls);
    if (i.finishReason !== null) this.finishReason = i.finishReason;
    if (i.timings !== null) this.timings = i.timings;
    this.delta = null;
    if (i.usage !== null) {
      this.usage = i.usage;
      this.usageChunks++;
      const token = TOKEN_BEARING.has(i.kind);
      if (token) {
        this.usageOnToken = true;
        if (i.finishReason === null) this.usageOnTokenBeforeFinish = true;
      }
      const cum = i.usage.completionTokens;
      if (cum !== null) {
        const d = cum - this.prevCum;
        this.delta = d >= 0 ? d : null;
        this.prevCum = cum;
      }
    }
    return i.kind;
  }

  /** Appends streamed tool-call fragments: a fragment with a new index (or a new id) starts a call. */
  private mergeToolCalls(fragments: unknown[]): void {
    for (const f of fragments) {
      if (!isObj(f)) continue;
      const fn = isObj(f.function) ? f.function : {};
      const index = typeof f.index === "number" ? f.index : this.toolCalls.length;
      const id = typeof f.id === "string" && f.id !== "" ? f.id : null;
      let call = this.toolCalls.find((c) => c.index === index);
      if (call === undefined || (id !== null && call.id !== null && call.id !== id)) {
        call = {index, id, name: "", arguments: ""};
        this.toolCalls.push(call);
      }
      if (call.id === null) call.id = id;
      if (typeof fn.name === "string") call.name += fn.name;
      if (typeof fn.arguments === "string") call.arguments += fn.arguments;
    }
  }

  /** Token delta of the last pushed payload (before `finish` decides whether deltas are kept). */
  delta: number | null = null;

  get usageSource(): UsageSource {
    if (this.usageOnTokenBeforeFinish || (this.usageChunks >= 2 && this.usageOnToken)) return "server_continuous";
    if (this.usage !== null && (this.usage.completionTokens !== null || this.usage.promptTokens !== null)) {
      return "server_final";
    }
    if (this.timings !== null && this.timings.predictedN !== null) return "server_timings";
    return "none";
  }

  /** Final request-level fields; nulls the per-event deltas unless usage was continuous. */
  finish(events: SseEvent[]): {
    usage: Usage | null;
    usageSource: UsageSource;
    serverTimings: ServerTimingsValue | null;
  } {
    const usageSource = this.usageSource;
    if (usageSource !== "server_continuous") for (const e of events) e[3] = null;
    let usage = this.usage;
    if (usageSource === "server_timings" && this.timings !== null) {
      const t = this.timings;
      const cache = t.cacheN !== null && Number.isInteger(t.cacheN) && t.cacheN >= 0 ? t.cacheN : null;
      const p = t.promptN !== null && Number.isInteger(t.promptN) && t.promptN >= 0 ? t.promptN + (cache ?? 0) : null;
      const c = t.predictedN !== null && Number.isInteger(t.predictedN) && t.predictedN >= 0 ? t.predictedN : null;
      usage = {promptTokens: p, completionTokens: c, reasoningTokens: null, cachedTokens: cache};
    }
    return {usage, usageSource, serverTimings: this.timings};
  }
}
