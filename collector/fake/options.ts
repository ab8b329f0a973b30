import type {SpecEmulation} from "./spec.ts";

/**
 * Knobs of the fake OpenAI-compatible server. A scenario is a named preset of these options; every
 * option can also be overridden per request with the `x-fake-options` header (a JSON object).
 * Times are milliseconds relative to the moment the request body was read; fractions are allowed.
 */
export interface ScenarioOptions {
  /** Delay from request arrival to the first token event (after the headers). */
  ttftMs: number;
  /** Gap between token events (drift-free: event i is due at ttft + i × interval). */
  tokenIntervalMs: number;
  /** Tokens per event: a fixed k, or a list cycled in order (spec-decode accept lengths). */
  tokensPerEvent: number | number[];
  /** Seeded variable tokens per event in [min, max] (overrides tokensPerEvent when set). */
  tokensPerEventRange: [number, number] | null;
  /** Output length when the request does not set ignore_eos (the scripted "EOS"). */
  eosAfter: number;
  /** max_tokens when the request sets none. */
  defaultMaxTokens: number;
  /** request: follow stream_options; final: always a final usage chunk; every_chunk: cumulative usage on every chunk; none: never; llamacpp_timings: no usage, a `timings` object on the finish chunk. */
  usage: "request" | "final" | "every_chunk" | "none" | "llamacpp_timings";
  /** Multiplies the completion_tokens the server reports (1.5 = usage inconsistent with the text). */
  usageFactor: number;
  /** Report at most this many prompt tokens (prompt truncation), or null. */
  promptTruncateTo: number | null;
  /** Reasoning channel for the first `reasoningTokens` tokens. */
  reasoning: "none" | "reasoning_content" | "reasoning" | "inline_think";
  reasoningTokens: number;
  /** Only reasoning tokens, no content. */
  reasoningOnly: boolean;
  /** Tool-call-only stream (delta.tool_calls, finish_reason tool_calls). */
  toolCall: boolean;
  /** Scripted answers: the first key found in the prompt text selects the answer text. */
  answers: Record<string, string>;
  /**
   * Scripted tool calls, checked before `answers`: the first key found in the prompt text selects the calls
   * streamed (each call's name, then its arguments string in 8-character fragments; finish_reason tool_calls).
   */
  toolAnswers: Record<string, {name: string; arguments: string}[]>;
  /** Vocabulary of generated tokens: ascii words, or words with multi-byte UTF-8 (CJK, emoji, accents). */
  text: "ascii" | "unicode";
  /** Line ending of the SSE framing. */
  lineEnding: "lf" | "crlf" | "cr";
  /** Comments, event:/id:/retry: fields and multi-line data in the stream. */
  sseExtras: boolean;
  /** Write this many consecutive events in one write. */
  eventsPerWrite: number;
  /** Split every event into two writes at this byte offset (clamped), `splitGapMs` apart. */
  splitOffset: number | null;
  splitGapMs: number;
  /** Write every byte of the stream separately (yielding between writes). */
  splitEveryByte: boolean;
  /** Insert one malformed JSON event after this many token events. */
  malformedAfter: number | null;
  /** How the stream ends: done = finish, usage, [DONE]; eof_after_finish = no [DONE]; eof = clean end after `terminateAfter` token events, neither finish nor [DONE]; fin = FIN without the chunked terminator; reset = RST; hang = stop writing, keep the socket open; hang_after_finish = the whole answer with its finish chunk and usage, no [DONE], then the socket stays open; hang_after_done = the whole answer and [DONE], then the socket stays open. */
  terminate: "done" | "eof_after_finish" | "eof" | "fin" | "reset" | "hang" | "hang_after_finish" | "hang_after_done";
  terminateAfter: number;
  /** Send role, empty and null content chunks, then wait this long before the first token (F5). */
  roleThenDelayMs: number | null;
  /** Usage grows on chunks without content (tool-parser buffering): every group of 4 tokens is 3 usage-only chunks then one content chunk. */
  usageJump: boolean;
  /** One content event of this many bytes (as the second token event). */
  hugeEventBytes: number | null;
  /** After a few tokens, a `data:` line of this many bytes without a newline, then a clean end. */
  longLineBytes: number | null;
  /** An in-band error event after this many token events (0 = first event), then [DONE]. */
  inbandErrorAfter: number | null;
  /** Answer with this HTTP status and a JSON error body instead of a stream. */
  httpStatus: number | null;
  /** Retry-After header value for httpStatus responses. */
  retryAfter: string | null;
  /** 200 with a non-SSE body: a chat.completion JSON object or an HTML proxy page. */
  nonSse: "json" | "html" | null;
  /** Delay of the response headers. */
  headersDelayMs: number;
  /** After this many token events, pause for `stallMs` before continuing. */
  stallAfter: number | null;
  stallMs: number;
  /** Destroy the socket before sending headers. */
  closeBeforeHeaders: boolean;
  /** All events buffered and flushed in one write at the end. */
  buffered: boolean;
  /** Server-wide: serve at most this many requests at a time (refuse: close extra sockets; queue: hold their headers until a slot frees). */
  connCap: number | null;
  connCapMode: "refuse" | "queue";
  /** Server-wide: a request that arrives on a reused keep-alive socket gets the socket destroyed (keep-alive race). */
  keepAliveRace: boolean;
  /**
   * Emulated prefix cache (fake/prefixCache.ts), or null (none: cached_tokens stays 0). The cache is server-wide
   * state: an LRU cache of whole blocks of prompt words, keyed by chain hashes, that a request's blocks enter
   * when its first token is due. Set per request (header), the value is that request's part only: null = it
   * neither looks up nor inserts; a number = it looks up, and its insert evicts down to this many tokens.
   */
  prefixCacheTokens: number | null;
  /** Block size of the prefix cache, in tokens (words): only whole blocks are cached and served. */
  prefixCacheBlock: number;
  /** Fraction of the TTFT that scales with the uncached share of the prompt: ttft × (1 − saving × cached / prompt). */
  prefixCacheTtftSaving: number;
  /** finish_reason on the last token chunk (vLLM) or on a separate empty-delta chunk (llama.cpp). */
  finishChunk: "last_token" | "separate";
  /**
   * A natural stop (finish "stop") also generates the end-of-sequence token: usage counts it, and the finish
   * chunk (separate, empty delta) is sent one token interval after the last text, as vLLM and llama.cpp do.
   */
  eosToken: boolean;
  /**
   * Token events whose text is streamed empty (a server holding back partial UTF-8): "none", "all", or every
   * n-th token event (n ≥ 1). Usage still counts their tokens.
   */
  emptyText: "none" | "all" | number;
  /**
   * Speculative-decoding emulation (fake/spec.ts: draft length, per-position acceptance, step time, dialect of
   * /metrics, long-context collapse), or null. Replaces tokenIntervalMs and tokensPerEvent for the response;
   * llama.cpp's dialect also puts draft_n/draft_n_accepted in `timings` when usage is llamacpp_timings.
   */
  specDecode: Partial<SpecEmulation> | null;
  /** Entries of each vector POST /v1/embeddings answers with (fake/embeddings.ts). */
  embeddingDims: number;
  /**
   * How an embeddings answer is broken: none; nan = the first vector's first entry is not a number; missing_vector
   * = one vector fewer than the inputs; truncated_json = the body cut in half (invalid JSON, complete transfer).
   */
  embeddingFault: "none" | "nan" | "missing_vector" | "truncated_json";
  /** Seed of every random choice (variable tokens per event, speculative acceptance order). */
  seed: number;
  /** Model name reported by /v1/models and in chunks. */
  model: string;
}

export const DEFAULT_OPTIONS: Readonly<ScenarioOptions> = Object.freeze({
  ttftMs: 20,
  tokenIntervalMs: 5,
  tokensPerEvent: 1,
  tokensPerEventRange: null,
  eosAfter: 16,
  defaultMaxTokens: 16,
  usage: "request",
  usageFactor: 1,
  promptTruncateTo: null,
  reasoning: "none",
  reasoningTokens: 8,
  reasoningOnly: false,
  toolCall: false,
  answers: {},
  toolAnswers: {},
  text: "ascii",
  lineEnding: "lf",
  sseExtras: false,
  eventsPerWrite: 1,
  splitOffset: null,
  splitGapMs: 2,
  splitEveryByte: false,
  malformedAfter: null,
  terminate: "done",
  terminateAfter: 3,
  roleThenDelayMs: null,
  usageJump: false,
  hugeEventBytes: null,
  longLineBytes: null,
  inbandErrorAfter: null,
  httpStatus: null,
  retryAfter: null,
  nonSse: null,
  headersDelayMs: 0,
  stallAfter: null,
  stallMs: 300,
  closeBeforeHeaders: false,
  buffered: false,
  connCap: null,
  connCapMode: "queue",
  keepAliveRace: false,
  prefixCacheTokens: null,
  prefixCacheBlock: 16,
  prefixCacheTtftSaving: 1,
  finishChunk: "last_token",
  eosToken: false,
  emptyText: "none",
  specDecode: null,
  embeddingDims: 32,
  embeddingFault: "none",
  seed: 42,
  model: "fake-model"
}) as Readonly<ScenarioOptions>;

const KEYS = new Set(Object.keys(DEFAULT_OPTIONS));

/** Merges a partial override (e.g. parsed from a header) onto options, rejecting unknown keys and wrong types. */
export function mergeOptions(base: Readonly<ScenarioOptions>, override: unknown, where: string): ScenarioOptions {
  if (override === null || typeof override !== "object" || Array.isArray(override)) {
    throw new Error(`${where}: expected an object of scenario options, got ${JSON.stringify(override)}`);
  }
  const out = {...base} as Record<string, unknown>;
  for (const [k, v] of Object.entries(override)) {
    if (!KEYS.has(k)) throw new Error(`${where}: unknown scenario option ${JSON.stringify(k)}`);
    const d = (DEFAULT_OPTIONS as unknown as Record<string, unknown>)[k];
    const okType =
      v === null ||
      d === null ||
      typeof v === typeof d ||
      (Array.isArray(v) && typeof d === "number") ||
      (typeof v === "number" && Array.isArray(d));
    if (!okType) throw new Error(`${where}: option ${k} expects ${typeof d}, got ${JSON.stringify(v)}`);
    out[k] = v;
  }
  return out as unknown as ScenarioOptions;
}
