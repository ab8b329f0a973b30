import type {EventKind, SseEvent} from "../../schema/records.ts";
import {isObject} from "../shared/parse.ts";
import type {Req} from "./format.ts";

/** GenAI-Perf keeps every response with its raw SSE text: the stream is re-read here as the collector reads it. */

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

export interface Parsed {
  kind: EventKind;
  tokens: number | null;
  usage: {prompt: number | null; completion: number | null; reasoning: number | null} | null;
  finish: string | null;
  error: string | null;
}

/** Classifies one SSE data payload the way the collector does (raw facts, no metrics). */
export function classifyData(data: string): Parsed {
  const base = {tokens: null, usage: null, finish: null, error: null};
  if (data.trim() === "[DONE]") return {...base, kind: "done"};
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return {...base, kind: "parse_error"};
  }
  if (!isObject(v)) return {...base, kind: "other"};
  if (v.error !== undefined && v.error !== null)
    return {
      ...base,
      kind: "error",
      error: typeof v.error === "string" ? v.error : JSON.stringify(v.error).slice(0, 4096)
    };
  const u = isObject(v.usage) ? v.usage : null;
  const usage = u
    ? {
        prompt: typeof u.prompt_tokens === "number" ? u.prompt_tokens : null,
        completion: typeof u.completion_tokens === "number" ? u.completion_tokens : null,
        reasoning:
          isObject(u.completion_tokens_details) && typeof u.completion_tokens_details.reasoning_tokens === "number"
            ? u.completion_tokens_details.reasoning_tokens
            : null
      }
    : null;
  const c = Array.isArray(v.choices) && isObject(v.choices[0]) ? v.choices[0] : null;
  const finish = c && typeof c.finish_reason === "string" ? c.finish_reason : null;
  // a streamed chunk carries `delta`; a non-streaming answer (stream: false) one whole `message`
  const delta = c && isObject(c.delta) ? c.delta : c && isObject(c.message) ? c.message : null;
  const nonEmpty = (x: unknown) => typeof x === "string" && x.length > 0;
  let kind: EventKind;
  if (delta && nonEmpty(delta.content)) kind = "content";
  else if (c && nonEmpty(c.text)) kind = "content";
  else if (delta && (nonEmpty(delta.reasoning_content) || nonEmpty(delta.reasoning))) kind = "reasoning";
  else if (delta && Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) kind = "tool_call";
  else if (finish) kind = "finish";
  else if (usage && !c) kind = "usage";
  else if (c) kind = "role";
  else kind = "other";
  return {kind, tokens: null, usage, finish, error: null};
}

/**
 * Re-joins the SSE stream of one request from its timestamped responses: a response may hold several
 * events (merged reads) or part of one (a split line, completed by a later response, whose time it takes).
 */
export function responseEvents(req: Req, origin: bigint): {events: SseEvent[]; parsed: Parsed[]} {
  const events: SseEvent[] = [];
  const parsed: Parsed[] = [];
  let buffer = "";
  const emit = (block: string, t: bigint) => {
    const lines = block.split(/\r?\n/);
    const dataLines = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
    const data = dataLines.length ? dataLines.join("\n") : lines.every((l) => l.startsWith(":")) ? null : block.trim();
    if (data === null || data === "") return;
    const p = classifyData(data);
    parsed.push(p);
    events.push([Number(t - origin), utf8Bytes(data), p.kind, p.tokens]);
  };
  req.response_outputs.forEach((out, k) => {
    const t = BigInt(req.response_timestamps[k]!);
    buffer +=
      out.response ??
      (out.text_output !== undefined ? `data: ${JSON.stringify({choices: [{text: out.text_output}]})}\n\n` : "");
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    for (const b of blocks) if (b.trim()) emit(b, t);
    // a response that is complete JSON without the blank-line terminator (GenAI-Perf's merged responses)
    if (buffer.trim()) {
      const data = buffer.trim().replace(/^data:\s?/, "");
      try {
        JSON.parse(data);
        emit(buffer, t);
        buffer = "";
      } catch {
        if (data === "[DONE]") {
          emit(buffer, t);
          buffer = "";
        }
      }
    }
  });
  if (buffer.trim()) {
    parsed.push({kind: "parse_error", tokens: null, usage: null, finish: null, error: null});
    events.push([Number(BigInt(req.response_timestamps.at(-1)!) - origin), utf8Bytes(buffer), "parse_error", null]);
  }
  return {events, parsed};
}
