import {mulberry32} from "../../src/analysis/stats/prng.ts";
import {
  chunkContext,
  completionBody,
  deltaContent,
  deltaEmpty,
  deltaEmptyContent,
  deltaNullContent,
  deltaReasoning,
  deltaRole,
  deltaToolArgs,
  deltaToolName,
  errorJson,
  streamChunk,
  timingsJson,
  usageChunk,
  usageJson,
  type ChunkContext
} from "./chunks.ts";
import type {ScenarioOptions} from "./options.ts";
import {ASCII_VOCAB, UNICODE_VOCAB, splitAnswer} from "./tokens.ts";

/** What the server understood from one completion request. */
export interface FakeRequest {
  endpoint: "chat" | "completions";
  stream: boolean;
  maxTokens: number | null;
  ignoreEos: boolean;
  includeUsage: boolean;
  continuousUsage: boolean;
  promptTokens: number;
  /** The request's text (messages or prompt), for scripted answers. */
  text: string;
  requestId: string;
  model: string;
}

/** One socket write, due `atMs` after the request was read; `events` = SSE data events it completes. */
export interface Frame {
  atMs: number;
  data: string | Buffer;
  events: number;
  /** Yield to the event loop after this write (so byte-sized writes leave as separate segments). */
  yieldAfter: boolean;
}

export type EndHow = "end" | "fin" | "reset" | "hang";

export interface ResponsePlan {
  status: number;
  headers: Record<string, string>;
  headersAtMs: number;
  closeBeforeHeaders: boolean;
  frames: Frame[];
  end: {atMs: number; how: EndHow};
  promptTokens: number;
  /** Tokens actually generated (before any cut), for /metrics. */
  completionTokens: number;
}

type Channel = "content" | "reasoning" | "tool_name" | "tool_args";
interface Token {
  text: string;
  ch: Channel;
  /** Tool call index (tool channels). */
  call?: number;
}

interface Output {
  tokens: Token[];
  finish: string;
}

const SSE_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"};
const JSON_HEADERS = {"content-type": "application/json"};

/** Builds the whole scripted response for one request. Pure and deterministic. */
export function buildPlan(req: FakeRequest, o: ScenarioOptions): ResponsePlan {
  const h = o.headersDelayMs;
  const prompt = o.promptTruncateTo === null ? req.promptTokens : Math.min(req.promptTokens, o.promptTruncateTo);
  const base = {headersAtMs: h, closeBeforeHeaders: o.closeBeforeHeaders, promptTokens: prompt, completionTokens: 0};
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
      status: 200,
      headers: {...JSON_HEADERS, ...idHeader},
      frames: [frame(at, body, 0)],
      end: {atMs: at, how: "end"}
    };
  }
  const {events, end} = streamEvents(req, o, out, prompt);
  return {
    ...base,
    completionTokens: completion,
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

function frame(atMs: number, data: string | Buffer, events: number, yieldAfter = false): Frame {
  return {atMs, data, events, yieldAfter};
}

function reasoningCount(out: Output): number | null {
  let n = 0;
  for (const t of out.tokens) if (t.ch === "reasoning") n++;
  return n > 0 ? n : null;
}

/** The token sequence: scripted answer or vocabulary words, split into channels. */
function generate(req: FakeRequest, o: ScenarioOptions): Output {
  const max = req.maxTokens ?? o.defaultMaxTokens;
  let words: string[];
  let finish: string;
  const toolKey = Object.keys(o.toolAnswers).find((k) => req.text.includes(k));
  if (toolKey !== undefined) {
    const tokens: Token[] = [];
    o.toolAnswers[toolKey]!.forEach((c, call) => {
      tokens.push({text: c.name, ch: "tool_name", call});
      for (let i = 0; i < c.arguments.length; i += 8)
        tokens.push({text: c.arguments.slice(i, i + 8), ch: "tool_args", call});
    });
    return tokens.length > max ? {tokens: tokens.slice(0, max), finish: "length"} : {tokens, finish: "tool_calls"};
  }
  const key = Object.keys(o.answers).find((k) => req.text.includes(k));
  if (key !== undefined) {
    const all = splitAnswer(o.answers[key]!);
    words = all.slice(0, max);
    finish = all.length > max ? "length" : "stop";
  } else {
    const n = req.ignoreEos ? max : Math.min(max, o.eosAfter);
    const vocab = o.text === "unicode" ? UNICODE_VOCAB : ASCII_VOCAB;
    words = Array.from({length: n}, (_, i) => vocab[i % vocab.length]!);
    finish = n < max ? "stop" : "length";
  }
  if (o.toolCall) {
    if (words.length === 0) return {tokens: [], finish};
    const tokens: Token[] = [{text: "get_weather", ch: "tool_name"}];
    const args = words
      .slice(1)
      .map((w, i) => ({text: (i === 0 ? '{"q":"' : "") + w.trim() + " ", ch: "tool_args" as const}));
    if (args.length > 0) args[args.length - 1]!.text += '"}';
    return {tokens: tokens.concat(args), finish: "tool_calls"};
  }
  if (o.reasoning === "none") return {tokens: words.map((text) => ({text, ch: "content"})), finish};
  const r = o.reasoningOnly ? words.length : Math.min(o.reasoningTokens, words.length);
  if (o.reasoning === "inline_think") {
    const tokens: Token[] = words.map((text) => ({text, ch: "content"}));
    if (r > 0) {
      tokens[0] = {text: "<think>", ch: "content"};
      if (r < tokens.length) tokens[r] = {text: "</think>", ch: "content"};
    }
    return {tokens, finish};
  }
  return {tokens: words.map((text, i) => ({text, ch: i < r ? "reasoning" : "content"})), finish};
}

interface LogicalEvent {
  atMs: number;
  /** The data payload, or the raw bytes to write when `raw`. */
  data: string;
  raw: boolean;
}

type Step = {kind: "tokens"; ch: Channel; text: string; n: number; call: number} | {kind: "usage_only"; n: number};

/** Groups tokens into events (tokens per event, never across channels) and usage-jump steps. */
function steps(out: Output, o: ScenarioOptions): Step[] {
  const rng = mulberry32(o.seed);
  const list = Array.isArray(o.tokensPerEvent) ? o.tokensPerEvent : [o.tokensPerEvent];
  let li = 0;
  const nextK = (): number => {
    if (o.usageJump) return 4;
    if (o.tokensPerEventRange !== null) {
      const [lo, hi] = o.tokensPerEventRange;
      return lo + Math.floor(rng() * (hi - lo + 1));
    }
    return Math.max(1, list[li++ % list.length]!);
  };
  const res: Step[] = [];
  let i = 0;
  const toks = out.tokens;
  while (i < toks.length) {
    const ch = toks[i]!.ch;
    const call = toks[i]!.call ?? 0;
    const k = ch === "tool_name" ? 1 : nextK();
    let text = "";
    let n = 0;
    while (n < k && i < toks.length && toks[i]!.ch === ch && (toks[i]!.call ?? 0) === call) {
      text += toks[i++]!.text;
      n++;
    }
    if (o.usageJump && n > 1) for (let j = 0; j < n - 1; j++) res.push({kind: "usage_only", n: 1});
    res.push({kind: "tokens", ch, text, n: o.usageJump ? 1 : n, call});
  }
  if (o.hugeEventBytes !== null) {
    const idx = res.findIndex((s, j) => s.kind === "tokens" && j >= Math.min(1, res.length - 1));
    const s = res[idx];
    if (s !== undefined && s.kind === "tokens") res[idx] = {...s, ch: "content", text: "x".repeat(o.hugeEventBytes)};
  }
  return res;
}

function deltaFor(ctx: ChunkContext, o: ScenarioOptions, s: Step, index: number): {delta: string; text: string} {
  if (s.kind === "usage_only") return {delta: deltaEmpty, text: ""};
  const empty = o.emptyText === "all" || (typeof o.emptyText === "number" && (index + 1) % o.emptyText === 0);
  if (empty && s.ch === "content")
    return ctx.endpoint === "completions" ? {delta: "", text: ""} : {delta: deltaEmptyContent, text: ""};
  if (ctx.endpoint === "completions") return {delta: "", text: s.text};
  switch (s.ch) {
    case "content":
      return {delta: deltaContent(s.text), text: s.text};
    case "reasoning":
      return {delta: deltaReasoning(o.reasoning === "reasoning" ? "reasoning" : "reasoning_content", s.text), text: ""};
    case "tool_name":
      return {delta: deltaToolName(`call_${s.call}`, s.text, s.call), text: ""};
    case "tool_args":
      return {delta: deltaToolArgs(s.text, s.call), text: ""};
  }
}

/** The logical SSE events with their due times, and how the stream ends. */
function streamEvents(
  req: FakeRequest,
  o: ScenarioOptions,
  out: Output,
  prompt: number
): {events: LogicalEvent[]; end: ResponsePlan["end"]} {
  const ctx = chunkContext(req.endpoint, req.requestId, req.model);
  const continuous = o.usage === "every_chunk" || (o.usage === "request" && req.includeUsage && req.continuousUsage);
  const finalUsage = continuous || o.usage === "final" || (o.usage === "request" && req.includeUsage);
  const timings = o.usage === "llamacpp_timings";
  const reasoningN = reasoningCount(out);
  // a natural stop's end-of-sequence token: generated, counted, never shown
  const eos = o.eosToken && out.finish === "stop" ? 1 : 0;
  const reported = (n: number): number => Math.round(n * o.usageFactor);
  const usageAt = (n: number): string => usageJson({prompt, completion: reported(n), reasoning: reasoningN});
  const events: LogicalEvent[] = [];
  const push = (atMs: number, data: string, raw = false): void => void events.push({atMs, data, raw});
  const first = o.headersDelayMs + o.ttftMs;
  const all = steps(out, o);
  const cut = o.terminate === "eof" || o.terminate === "fin" || o.terminate === "reset" || o.terminate === "hang";
  let limit = all.length;
  if (cut) limit = Math.min(limit, o.terminateAfter);
  if (o.longLineBytes !== null) limit = Math.min(limit, o.terminateAfter);
  if (o.inbandErrorAfter !== null) limit = Math.min(limit, o.inbandErrorAfter);
  const shift = o.roleThenDelayMs ?? 0;
  const slot = (j: number): number =>
    first + shift + j * o.tokenIntervalMs + (o.stallAfter !== null && j >= o.stallAfter ? o.stallMs : 0);

  if (req.endpoint === "chat" && o.inbandErrorAfter !== 0) {
    push(first, streamChunk(ctx, deltaRole, "", null, continuous ? usageAt(0) : null, null));
    if (o.roleThenDelayMs !== null) {
      push(first, streamChunk(ctx, deltaEmptyContent, "", null, continuous ? usageAt(0) : null, null));
      push(first, streamChunk(ctx, deltaNullContent, "", null, continuous ? usageAt(0) : null, null));
    }
  }
  let cum = 0;
  let tokenSteps = 0;
  let j = 0;
  let last = first;
  for (; j < all.length && tokenSteps < limit; j++) {
    const s = all[j]!;
    cum += s.n;
    if (s.kind === "tokens") tokenSteps++;
    last = slot(j);
    const isLast = j === all.length - 1 && !cut && o.inbandErrorAfter === null && o.longLineBytes === null;
    const finishHere = isLast && o.finishChunk === "last_token" && !timings && eos === 0;
    const {delta, text} = deltaFor(ctx, o, s, tokenSteps - 1);
    push(last, streamChunk(ctx, delta, text, finishHere ? out.finish : null, continuous ? usageAt(cum) : null, null));
    if (o.malformedAfter !== null && tokenSteps === o.malformedAfter && s.kind === "tokens") {
      push(last, ctx.head + '[{"index":0,"delta":{"content":"broken');
    }
  }
  const next = all.length === 0 ? first : slot(j);
  if (o.inbandErrorAfter !== null) {
    push(o.inbandErrorAfter === 0 ? first : next, errorJson("fake in-band error", "InternalServerError", 500));
    push(o.inbandErrorAfter === 0 ? first : next, "[DONE]");
    return {events, end: {atMs: o.inbandErrorAfter === 0 ? first : next, how: "end"}};
  }
  if (o.longLineBytes !== null) {
    push(next, "data: " + ctx.head + '[{"index":0,"delta":{"content":"' + "x".repeat(o.longLineBytes), true);
    return {events, end: {atMs: next, how: "end"}};
  }
  if (cut) {
    const how: EndHow = o.terminate === "eof" ? "end" : (o.terminate as EndHow);
    return {events, end: {atMs: last + o.tokenIntervalMs, how}};
  }
  const separate = o.finishChunk === "separate" || timings || all.length === 0 || eos > 0;
  if (eos > 0) {
    last += o.tokenIntervalMs;
    cum += eos;
  }
  if (separate) {
    const t = timings
      ? timingsJson(prompt, reported(cum), o.ttftMs, Math.max(0, all.length - 1 + eos) * o.tokenIntervalMs)
      : null;
    const delta = ctx.endpoint === "chat" ? deltaEmpty : "";
    push(last, streamChunk(ctx, delta, "", out.finish, continuous ? usageAt(cum) : null, t));
  }
  if (finalUsage) push(last, usageChunk(ctx, usageAt(cum), null));
  if (o.terminate !== "eof_after_finish" && o.terminate !== "hang_after_finish") push(last, "[DONE]");
  const hang = o.terminate === "hang_after_finish" || o.terminate === "hang_after_done";
  return {events, end: {atMs: last, how: hang ? "hang" : "end"}};
}

/** Renders logical events as SSE text and cuts them into writes. */
function toFrames(events: LogicalEvent[], o: ScenarioOptions): Frame[] {
  const eol = o.lineEnding === "crlf" ? "\r\n" : o.lineEnding === "cr" ? "\r" : "\n";
  const texts: {atMs: number; text: string; events: number}[] = [];
  if (o.sseExtras)
    texts.push({atMs: events[0]?.atMs ?? 0, text: `: stream opened${eol}retry: 1000${eol}${eol}`, events: 0});
  events.forEach((e, i) => {
    if (e.raw) return void texts.push({atMs: e.atMs, text: e.data, events: 0});
    let body = `data: ${e.data}${eol}`;
    if (o.sseExtras) {
      const comma = e.data.indexOf(",");
      if (i % 4 === 1 && comma > 0)
        body = `data: ${e.data.slice(0, comma + 1)}${eol}data: ${e.data.slice(comma + 1)}${eol}`;
      body =
        (i % 2 === 0 ? `: keep-alive${eol}` : "") +
        (i % 3 === 0 ? `event: message${eol}` : "") +
        `id: ${i}${eol}` +
        body;
    }
    texts.push({atMs: e.atMs, text: body + eol, events: 1});
  });
  const frames: Frame[] = [];
  let t = 0;
  const add = (atMs: number, data: string | Buffer, n: number, y = false): void => {
    t = Math.max(t, atMs);
    frames.push(frame(t, data, n, y));
  };
  if (o.buffered) {
    const last = texts[texts.length - 1];
    if (last !== undefined)
      add(
        last.atMs,
        texts.map((x) => x.text).join(""),
        texts.reduce((a, x) => a + x.events, 0)
      );
    return frames;
  }
  if (o.splitEveryByte) {
    for (const x of texts) {
      const b = Buffer.from(x.text);
      for (let i = 0; i < b.length; i++) add(x.atMs, b.subarray(i, i + 1), i === b.length - 1 ? x.events : 0, true);
    }
    return frames;
  }
  if (o.splitOffset !== null) {
    for (const x of texts) {
      const b = Buffer.from(x.text);
      const k = Math.min(Math.max(1, o.splitOffset), b.length - 1);
      if (k < 1) add(x.atMs, b, x.events);
      else {
        add(x.atMs, b.subarray(0, k), 0);
        add(x.atMs + o.splitGapMs, b.subarray(k), x.events);
      }
    }
    return frames;
  }
  const per = Math.max(1, o.eventsPerWrite);
  for (let i = 0; i < texts.length; i += per) {
    const group = texts.slice(i, i + per);
    add(
      group[group.length - 1]!.atMs,
      group.map((x) => x.text).join(""),
      group.reduce((a, x) => a + x.events, 0)
    );
  }
  return frames;
}
