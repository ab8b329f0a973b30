import {describe, expect, it} from "vitest";

import {classifyPayload, StreamAccumulator} from "../../../collector/http/events.ts";
import type {SseEvent} from "../../../src/analysis/schema/records.ts";

const chat = (delta: unknown, extra: Record<string, unknown> = {}, finish: string | null = null): string =>
  JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    choices: [{index: 0, delta, logprobs: null, finish_reason: finish}],
    ...extra
  });
const usage = (p: number, c: number, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  prompt_tokens: p,
  completion_tokens: c,
  total_tokens: p + c,
  ...more
});

describe("classifyPayload", () => {
  it("[DONE] is done, with or without surrounding spaces", () => {
    expect(classifyPayload("[DONE]").kind).toBe("done");
    expect(classifyPayload(" [DONE] ").kind).toBe("done");
  });

  it("invalid JSON is parse_error, non-object JSON is other", () => {
    expect(classifyPayload('{"choices":[{"delta":{"content":"x"').kind).toBe("parse_error");
    expect(classifyPayload("").kind).toBe("parse_error");
    expect(classifyPayload("42").kind).toBe("other");
    expect(classifyPayload("[1,2]").kind).toBe("other");
    expect(classifyPayload("null").kind).toBe("other");
  });

  it("error objects are error: {error: …}, object 'error', and SSE event: error", () => {
    expect(classifyPayload('{"error":{"message":"boom","code":500}}').kind).toBe("error");
    expect(classifyPayload('{"error":"boom"}').kind).toBe("error");
    expect(classifyPayload('{"object":"error","message":"boom"}').kind).toBe("error");
    expect(classifyPayload('{"message":"boom"}', "error").kind).toBe("error");
    expect(classifyPayload("not json", "error").kind).toBe("error");
    // error: null is not an error
    expect(classifyPayload(chat({content: "a"}, {error: null})).kind).toBe("content");
  });

  it("non-empty delta.content is content, with its text", () => {
    const i = classifyPayload(chat({content: " hello"}));
    expect(i.kind).toBe("content");
    expect(i.content).toBe(" hello");
    expect(i.finishReason).toBeNull();
  });

  it("completions `text` is content; empty text is `empty` (bundle v2: a token whose text may be held back)", () => {
    const c = (text: string, finish: string | null = null): string =>
      JSON.stringify({object: "text_completion", choices: [{index: 0, text, finish_reason: finish}]});
    expect(classifyPayload(c(" a")).kind).toBe("content");
    expect(classifyPayload(c(" a")).content).toBe(" a");
    expect(classifyPayload(c("")).kind).toBe("empty");
    expect(classifyPayload(c("", "length")).kind).toBe("finish");
  });

  it("reasoning_content and reasoning deltas are reasoning", () => {
    expect(classifyPayload(chat({reasoning_content: "think"})).kind).toBe("reasoning");
    expect(classifyPayload(chat({reasoning: "think"})).reasoning).toBe("think");
    expect(classifyPayload(chat({reasoning_content: "", content: null})).kind).toBe("empty");
  });

  it("tool_calls with a name or an arguments fragment are tool_call; empty ones are not", () => {
    const name = {tool_calls: [{index: 0, id: "x", type: "function", function: {name: "f", arguments: ""}}]};
    const args = {tool_calls: [{index: 0, function: {arguments: '{"a'}}]};
    const empty = {tool_calls: [{index: 0, function: {arguments: ""}}]};
    expect(classifyPayload(chat(name)).kind).toBe("tool_call");
    expect(classifyPayload(chat(args)).kind).toBe("tool_call");
    expect(classifyPayload(chat(empty)).kind).toBe("role");
  });

  it("a token delta with finish_reason and usage is still a token event", () => {
    const i = classifyPayload(chat({content: "x"}, {usage: usage(3, 4)}, "length"));
    expect(i.kind).toBe("content");
    expect(i.finishReason).toBe("length");
    expect(i.usage).toEqual({promptTokens: 3, completionTokens: 4, reasoningTokens: null, cachedTokens: null});
    expect(classifyPayload(chat({reasoning_content: "r"}, {}, "stop")).kind).toBe("reasoning");
  });

  it("content wins over reasoning and tool calls in the same chunk", () => {
    expect(classifyPayload(chat({content: "c", reasoning_content: "r"})).kind).toBe("content");
    const tool = {content: null, reasoning: "r", tool_calls: [{index: 0, function: {name: "f"}}]};
    expect(classifyPayload(chat(tool)).kind).toBe("tool_call");
  });

  it("a delta with a role, an empty delta object and a null delta are role (usage on them does not change that)", () => {
    expect(classifyPayload(chat({role: "assistant", content: null})).kind).toBe("role");
    expect(classifyPayload(chat({role: "assistant", content: ""}, {usage: usage(3, 0)})).kind).toBe("role");
    expect(classifyPayload(chat({})).kind).toBe("role");
    expect(classifyPayload(chat(null)).kind).toBe("role");
    expect(classifyPayload(chat({}, {usage: usage(3, 5)})).kind).toBe("role");
  });

  it("an empty or null content without a role is `empty`, with or without usage", () => {
    expect(classifyPayload(chat({content: ""})).kind).toBe("empty");
    expect(classifyPayload(chat({content: null})).kind).toBe("empty");
    expect(classifyPayload(chat({content: ""}, {usage: usage(3, 2)})).kind).toBe("empty");
  });

  it("finish_reason without a token delta is finish", () => {
    const i = classifyPayload(chat({}, {}, "stop"));
    expect(i.kind).toBe("finish");
    expect(i.finishReason).toBe("stop");
  });

  it("usage on a chunk without any delta is usage, with reasoning and cached tokens", () => {
    const u = usage(10, 20, {
      completion_tokens_details: {reasoning_tokens: 7},
      prompt_tokens_details: {cached_tokens: 4}
    });
    const i = classifyPayload(JSON.stringify({choices: [], usage: u}));
    expect(i.kind).toBe("usage");
    expect(i.usage).toEqual({promptTokens: 10, completionTokens: 20, reasoningTokens: 7, cachedTokens: 4});
    expect(classifyPayload(JSON.stringify({usage: u})).kind).toBe("usage");
  });

  it("invalid usage numbers become null, never 0", () => {
    const i = classifyPayload(JSON.stringify({choices: [], usage: {prompt_tokens: -1, completion_tokens: 2.5}}));
    expect(i.usage).toEqual({promptTokens: null, completionTokens: null, reasoningTokens: null, cachedTokens: null});
  });

  it("llama.cpp timings are read; timings alone make a usage event", () => {
    const timings = {
      prompt_n: 5,
      prompt_ms: 12.5,
      predicted_n: 9,
      predicted_ms: 80,
      cache_n: 2,
      predicted_per_second: 100
    };
    const i = classifyPayload(JSON.stringify({choices: [], timings}));
    expect(i.kind).toBe("usage");
    expect(i.timings).toEqual({promptN: 5, promptMs: 12.5, predictedN: 9, predictedMs: 80, cacheN: 2});
    expect(classifyPayload(chat({}, {timings}, "stop")).kind).toBe("finish");
  });

  it("unknown JSON objects are other", () => {
    expect(classifyPayload('{"object":"ping"}').kind).toBe("other");
    expect(classifyPayload('{"choices":[]}').kind).toBe("other");
  });

  it("looks at every choice (n > 1)", () => {
    const two = JSON.stringify({
      choices: [
        {index: 0, delta: {content: ""}, finish_reason: null},
        {index: 1, delta: {content: "b"}, finish_reason: "stop"}
      ]
    });
    const i = classifyPayload(two);
    expect(i.kind).toBe("content");
    expect(i.content).toBe("b");
    expect(i.finishReason).toBe("stop");
  });

  it("reuses the object it is given", () => {
    const out = classifyPayload("[DONE]");
    const again = classifyPayload(chat({content: "x"}), undefined, out);
    expect(again).toBe(out);
    expect(out.kind).toBe("content");
    expect(classifyPayload("[DONE]", undefined, out).content).toBe("");
  });
});

/** Feeds payloads through an accumulator the way the transport does. */
function fold(payloads: string[], keepText = true): {acc: StreamAccumulator; events: SseEvent[]} {
  const acc = new StreamAccumulator(keepText);
  const events: SseEvent[] = [];
  payloads.forEach((p, i) => {
    const kind = acc.push(p, undefined);
    events.push([i, p.length, kind, acc.delta]);
  });
  return {acc, events};
}

describe("StreamAccumulator", () => {
  it("continuous usage (vLLM continuous_usage_stats): deltas from cumulative completion_tokens", () => {
    const {acc, events} = fold([
      chat({role: "assistant", content: ""}, {usage: usage(3, 0)}),
      chat({content: "a"}, {usage: usage(3, 1)}),
      chat({content: "bc"}, {usage: usage(3, 3)}),
      chat({content: "d"}, {usage: usage(3, 4)}, "length"),
      JSON.stringify({choices: [], usage: usage(3, 4)}),
      "[DONE]"
    ]);
    const fin = acc.finish(events);
    expect(fin.usageSource).toBe("server_continuous");
    expect(events.map((e) => e[3])).toEqual([0, 1, 2, 1, 0, null]);
    expect(events.map((e) => e[2])).toEqual(["role", "content", "content", "content", "usage", "done"]);
    expect(fin.usage?.completionTokens).toBe(4);
    expect(acc.finishReason).toBe("length");
    expect(acc.content).toBe("abcd");
  });

  it("a final usage chunk only: server_final, and the deltas are nulled (a total is not a delta)", () => {
    const {acc, events} = fold([
      chat({role: "assistant", content: null}),
      chat({content: "a"}),
      chat({content: "b"}, {}, "stop"),
      JSON.stringify({choices: [], usage: usage(5, 2, {prompt_tokens_details: {cached_tokens: 1}})}),
      "[DONE]"
    ]);
    const fin = acc.finish(events);
    expect(fin.usageSource).toBe("server_final");
    expect(events.every((e) => e[3] === null)).toBe(true);
    expect(fin.usage).toEqual({promptTokens: 5, completionTokens: 2, reasoningTokens: null, cachedTokens: 1});
  });

  it("usage riding on the final token chunk only (llama.cpp completions) is server_final", () => {
    const c = (text: string, more: Record<string, unknown> = {}, finish: string | null = null): string =>
      JSON.stringify({choices: [{index: 0, text, finish_reason: finish}], ...more});
    const {acc, events} = fold([c("a"), c("b", {usage: usage(2, 2)}, "length"), "[DONE]"]);
    expect(acc.finish(events).usageSource).toBe("server_final");
  });

  it("one token with continuous usage is still continuous (usage on two chunks, one token-bearing)", () => {
    const {acc, events} = fold([
      chat({role: "assistant", content: ""}, {usage: usage(3, 0)}),
      chat({content: "a"}, {usage: usage(3, 1)}, "length"),
      "[DONE]"
    ]);
    expect(acc.finish(events).usageSource).toBe("server_continuous");
    expect(events[1]![3]).toBe(1);
  });

  it("only llama.cpp timings: server_timings, usage built from them (prompt = prompt_n + cache_n)", () => {
    const timings = {prompt_n: 5, prompt_ms: 10, predicted_n: 3, predicted_ms: 30, cache_n: 2};
    const {acc, events} = fold([chat({content: "a"}), chat({}, {timings}, "stop"), "[DONE]"]);
    const fin = acc.finish(events);
    expect(fin.usageSource).toBe("server_timings");
    expect(fin.usage).toEqual({promptTokens: 7, completionTokens: 3, reasoningTokens: null, cachedTokens: 2});
    expect(fin.serverTimings?.predictedMs).toBe(30);
  });

  it("no usage at all: none, usage null", () => {
    const {acc, events} = fold([chat({content: "a"}, {}, "stop"), "[DONE]"]);
    const fin = acc.finish(events);
    expect(fin.usageSource).toBe("none");
    expect(fin.usage).toBeNull();
  });

  it("usage jumps on content-less chunks keep their deltas (attributed later by the analyzer)", () => {
    const {acc, events} = fold([
      chat({role: "assistant", content: ""}, {usage: usage(1, 0)}),
      chat({}, {usage: usage(1, 1)}),
      chat({}, {usage: usage(1, 2)}),
      chat({content: "abc"}, {usage: usage(1, 3)}),
      "[DONE]"
    ]);
    acc.finish(events);
    expect(events.map((e) => [e[2], e[3]])).toEqual([
      ["role", 0],
      ["role", 1],
      ["role", 1],
      ["content", 1],
      ["done", null]
    ]);
  });

  it("a decreasing cumulative count gives a null delta", () => {
    const {acc, events} = fold([
      chat({content: "a"}, {usage: usage(1, 2)}),
      chat({content: "b"}, {usage: usage(1, 1)}),
      chat({content: "c"}, {usage: usage(1, 3)})
    ]);
    acc.finish(events);
    expect(events.map((e) => e[3])).toEqual([2, null, 2]);
  });

  it("keeps reasoning text only when asked; content is always accumulated for the digest", () => {
    const payloads = [chat({reasoning_content: "hm"}), chat({content: "ok"})];
    expect(fold(payloads, false).acc.reasoning).toBe("");
    expect(fold(payloads, false).acc.content).toBe("ok");
    expect(fold(payloads, true).acc.reasoning).toBe("hm");
  });
});
