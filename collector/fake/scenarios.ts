import {DEFAULT_OPTIONS, mergeOptions, type ScenarioOptions} from "./options.ts";

/**
 * A named, deterministic server behaviour. `fault` names the row of validity-and-faults.md §4 it scripts (null:
 * a behaviour, not a fault — the default stream, the prefix cache).
 */
export interface Scenario {
  name: string;
  fault: string | null;
  description: string;
  options: ScenarioOptions;
}

interface Preset {
  fault: string | null;
  description: string;
  options: Partial<ScenarioOptions>;
}

const PRESETS: Record<string, Preset> = {
  default: {
    fault: null,
    description:
      "role chunk, max_tokens tokens one per event (5 ms apart after a 20 ms TTFT), finish, usage if asked, [DONE]",
    options: {}
  },
  zero: {
    fault: "F24",
    description: "zero-latency, high-rate stream for client-ceiling measurements (TTFT 0, no token interval)",
    options: {ttftMs: 0, tokenIntervalMs: 0}
  },
  "split-utf8": {
    fault: "F1",
    description: "multi-byte UTF-8 text; every event split in two writes at byte offset splitOffset (default 7)",
    options: {text: "unicode", splitOffset: 7}
  },
  "byte-split": {
    fault: "F1",
    description: "multi-byte UTF-8 text; every byte of the stream written separately",
    options: {text: "unicode", splitEveryByte: true, defaultMaxTokens: 8, eosAfter: 8}
  },
  crlf: {fault: "F2", description: "CRLF line endings", options: {lineEnding: "crlf"}},
  cr: {fault: "F2", description: "lone CR line endings", options: {lineEnding: "cr"}},
  merged: {fault: "F2", description: "four events per write", options: {eventsPerWrite: 4}},
  "sse-fields": {
    fault: "F2",
    description: "`:` comments, event:/id:/retry: fields and multi-line data around every event",
    options: {sseExtras: true}
  },
  "malformed-json": {
    fault: "F3",
    description: "one truncated JSON event after 3 tokens, then the stream continues",
    options: {malformedAfter: 3}
  },
  "eof-after-finish": {
    fault: "F4",
    description: "finish_reason and usage, then a clean end without [DONE]",
    options: {terminate: "eof_after_finish"}
  },
  "eof-no-done": {
    fault: "F4",
    description: "3 tokens, then a clean end with neither finish_reason nor [DONE]",
    options: {terminate: "eof", terminateAfter: 3}
  },
  "role-then-delay": {
    fault: "F5",
    description: 'role chunk (content null), content "", content null, then the first token 200 ms later',
    options: {roleThenDelayMs: 200}
  },
  reasoning: {
    fault: "F6",
    description: "8 tokens on delta.reasoning_content, then content",
    options: {reasoning: "reasoning_content"}
  },
  "reasoning-field": {
    fault: "F6",
    description: "8 tokens on delta.reasoning, then content",
    options: {reasoning: "reasoning"}
  },
  "reasoning-only": {
    fault: "F6",
    description: "only delta.reasoning_content tokens, no content",
    options: {reasoning: "reasoning_content", reasoningOnly: true}
  },
  "reasoning-inline-think": {
    fault: "F6",
    description: "reasoning inline in content between <think> and </think>",
    options: {reasoning: "inline_think"}
  },
  "tool-call": {
    fault: "F6",
    description: "tool-call-only stream: delta.tool_calls name then argument fragments, finish_reason tool_calls",
    options: {toolCall: true}
  },
  "usage-final": {
    fault: "F7",
    description: "a final choices:[] usage chunk whatever the request asked",
    options: {usage: "final"}
  },
  "usage-every-chunk": {
    fault: "F7",
    description: "cumulative usage on every chunk (vLLM continuous_usage_stats) whatever the request asked",
    options: {usage: "every_chunk"}
  },
  "usage-none": {fault: "F7", description: "never any usage", options: {usage: "none"}},
  "usage-llamacpp": {
    fault: "F7",
    description: "no usage; llama.cpp `timings` on the finish chunk",
    options: {usage: "llamacpp_timings", finishChunk: "separate"}
  },
  "usage-inconsistent": {
    fault: "F7",
    description: "final usage reports 1.5 × the tokens actually streamed",
    options: {usage: "final", usageFactor: 1.5}
  },
  "multi-token": {
    fault: "F8",
    description: "4 tokens per event, cumulative usage on every chunk",
    options: {tokensPerEvent: 4, usage: "every_chunk"}
  },
  "spec-decode": {
    fault: "F8",
    description: "seeded variable 1–5 tokens per event (speculative-decoding accept lengths), cumulative usage",
    options: {tokensPerEventRange: [1, 5], usage: "every_chunk"}
  },
  "usage-jump": {
    fault: "F9",
    description: "cumulative usage grows on 3 content-less chunks, then one chunk carries the 4 tokens' text",
    options: {usageJump: true, usage: "every_chunk"}
  },
  "huge-event": {
    fault: "F10",
    description: "one 2 MiB content event (hugeEventBytes)",
    options: {hugeEventBytes: 2 * 1024 * 1024}
  },
  "long-line": {
    fault: "F10",
    description: "after 2 tokens a 2 MiB data: line without newline, then a clean end",
    options: {longLineBytes: 2 * 1024 * 1024, terminateAfter: 2}
  },
  "inband-error": {
    fault: "F11",
    description: "an error event after 3 tokens, then [DONE]",
    options: {inbandErrorAfter: 3}
  },
  "error-first": {
    fault: "F11",
    description: "HTTP 200 whose first event is an error, then [DONE]",
    options: {inbandErrorAfter: 0}
  },
  "json-200": {fault: "F12", description: "200 with an application/json completion body", options: {nonSse: "json"}},
  "html-200": {fault: "F12", description: "200 with a text/html proxy page", options: {nonSse: "html"}},
  "slow-headers": {fault: "F14", description: "headers after 300 ms", options: {headersDelayMs: 300}},
  stall: {
    fault: "F15",
    description: "after 3 tokens the stream pauses 300 ms, then continues",
    options: {stallAfter: 3, stallMs: 300}
  },
  fin: {
    fault: "F16",
    description: "after 3 tokens a FIN without the chunked terminator",
    options: {terminate: "fin", terminateAfter: 3}
  },
  reset: {fault: "F16", description: "after 3 tokens a TCP RST", options: {terminate: "reset", terminateAfter: 3}},
  "half-open": {
    fault: "F16",
    description: "after 3 tokens the server stops writing and keeps the socket open",
    options: {terminate: "hang", terminateAfter: 3}
  },
  "close-before-headers": {
    fault: "F17",
    description: "the socket is destroyed before any response byte",
    options: {closeBeforeHeaders: true}
  },
  "http-429": {
    fault: "F18",
    description: "429 with Retry-After: 1",
    options: {httpStatus: 429, retryAfter: "1"}
  },
  "http-429-no-retry-after": {fault: "F18", description: "429 without Retry-After", options: {httpStatus: 429}},
  "http-500": {fault: "F18", description: "500 with a JSON error body", options: {httpStatus: 500}},
  "http-502": {fault: "F18", description: "502 with a JSON error body", options: {httpStatus: 502}},
  "http-503": {fault: "F18", description: "503 with Retry-After: 2", options: {httpStatus: 503, retryAfter: "2"}},
  "http-504": {fault: "F18", description: "504 with a JSON error body", options: {httpStatus: 504}},
  "keepalive-close": {
    fault: "F19",
    description: "server-wide: a request on a reused keep-alive socket finds it closed (the idle-close race)",
    options: {keepAliveRace: true}
  },
  buffered: {
    fault: "F20",
    description: "all events held back and flushed in one write at the end",
    options: {buffered: true}
  },
  trickle: {
    fault: "F21",
    description: "one token every 100 ms (tokenIntervalMs)",
    options: {tokenIntervalMs: 100, defaultMaxTokens: 5, eosAfter: 5}
  },
  "conn-cap": {
    fault: "F22",
    description:
      "server-wide: at most 2 requests served at a time, the others wait for a slot (connCapMode refuse closes them)",
    options: {connCap: 2, connCapMode: "queue"}
  },
  "prompt-truncate": {
    fault: "F23",
    description: "usage.prompt_tokens capped at 4 whatever was sent",
    options: {promptTruncateTo: 4}
  },
  prefix_cache: {
    fault: null,
    description:
      "server-wide LRU prefix cache of 100000 tokens in 16-word blocks: shared prompt prefixes report cached_tokens and a shorter TTFT",
    options: {prefixCacheTokens: 100_000}
  }
};

export const SCENARIO_NAMES: readonly string[] = Object.keys(PRESETS);

/** Resolves a scenario by name, or completes a partial scenario object. */
export function resolveScenario(s: string | Scenario | undefined): Scenario {
  if (s === undefined) return resolveScenario("default");
  if (typeof s !== "string") return {...s, options: mergeOptions(DEFAULT_OPTIONS, s.options, `scenario ${s.name}`)};
  const p = PRESETS[s];
  if (p === undefined)
    throw new Error(`unknown fake-server scenario ${JSON.stringify(s)} (known: ${SCENARIO_NAMES.join(", ")})`);
  return {name: s, fault: p.fault, description: p.description, options: {...DEFAULT_OPTIONS, ...p.options}};
}

/** One line per scenario: name, fault row, description. */
export function listScenarios(): string[] {
  return SCENARIO_NAMES.map((n) => {
    const p = PRESETS[n]!;
    return `${n.padEnd(24)} ${(p.fault ?? "-").padEnd(4)} ${p.description}`;
  });
}
