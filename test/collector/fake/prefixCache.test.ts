import parsePrometheusTextFormat from "parse-prometheus-text-format";
import {afterEach, describe, expect, it} from "vitest";

import {
  buildPlan,
  cachedTtftMs,
  countWords,
  DEFAULT_OPTIONS,
  PrefixCache,
  promptWords,
  requestText,
  resolveScenario,
  startFakeServer,
  type FakeRequest,
  type FakeServer,
  type ScenarioOptions
} from "../../../collector/fake/index.ts";
import {streamRequest, type StreamResult} from "../../../collector/http/index.ts";

/** n words `${tag}0` … `${tag}{n−1}`. */
const words = (tag: string, n: number): string[] => Array.from({length: n}, (_, i) => `${tag}${i}`);

describe("PrefixCache: lookups by hand (block 16)", () => {
  it("two prompts sharing 40 words: the second is served the 2 whole blocks inside the shared part, 32 tokens", () => {
    const c = new PrefixCache();
    const a = [...words("s", 40), ...words("a", 10)]; // 50 words: blocks 0–15, 16–31, 32–47 (8 shared + 8 own)
    const b = [...words("s", 40), ...words("b", 10)];
    expect(c.lookup(a, 16, 0)).toBe(0);
    c.insertAt(a, 16, 10, 1000);
    expect(c.lookup(b, 16, 20)).toBe(32); // block 2 holds a0…a7 in a, b0…b7 in b: a different key
    expect(c.lookup(a, 16, 20)).toBe(48); // a itself: its 3 whole blocks
    expect(c.heldTokens).toBe(48);
  });

  it("never serves the whole prompt, and nothing below one block", () => {
    const c = new PrefixCache();
    const p = words("p", 32); // exactly 2 blocks
    c.insertAt(p, 16, 0, 1000);
    expect(c.lookup(p, 16, 1)).toBe(31); // both blocks cached, the last token is still computed
    expect(c.lookup([...p, "x"], 16, 1)).toBe(32);
    expect(c.lookup(p.slice(0, 16), 16, 1)).toBe(15); // one block: all but its last token
    expect(c.lookup(p.slice(0, 15), 16, 1)).toBe(0); // shorter than one block
    expect(c.lookup([], 16, 1)).toBe(0);
  });

  it("keys are chain hashes: the same block behind another prefix, or cut at another block size, is a miss", () => {
    const c = new PrefixCache();
    const y = words("y", 16);
    c.insertAt([...words("x", 16), ...y, "end"], 16, 0, 1000);
    expect(c.lookup([...words("z", 16), ...y, "end"], 16, 1)).toBe(0);
    expect(c.lookup([...words("x", 16), ...y, "end"], 8, 1)).toBe(0);
    expect(c.lookup([...words("x", 16), ...y, "end"], 16, 1)).toBe(32);
  });
});

describe("PrefixCache: causality (blocks enter when the first token is due)", () => {
  it("no hit before the first request's TTFT: lookups at or before the due time miss, after it hit", () => {
    const c = new PrefixCache();
    const p = [...words("s", 32), "q1"];
    const q = [...words("s", 32), "q2"];
    expect(c.lookup(p, 16, 0)).toBe(0);
    c.insertAt(p, 16, 20, 1000); // sent at 0 with a 20 ms TTFT
    expect(c.lookup(q, 16, 1)).toBe(0); // sent together: both compute the prefix
    expect(c.lookup(q, 16, 19.9)).toBe(0);
    expect(c.lookup(q, 16, 20)).toBe(0); // at the very moment: the lookup goes first
    expect(c.heldTokens).toBe(0);
    expect(c.lookup(q, 16, 20.001)).toBe(32);
  });

  it("a request gone before its first token was due inserts nothing; cancelling after that changes nothing", () => {
    const c = new PrefixCache();
    const p = [...words("s", 32), "q"];
    c.cancel(c.insertAt(p, 16, 20, 1000), 10);
    expect(c.lookup(p, 16, 30)).toBe(0);
    const kept = c.insertAt(p, 16, 40, 1000);
    c.cancel(kept, 45);
    expect(c.lookup(p, 16, 50)).toBe(32);
    expect(kept.state).toBe("done");
  });

  it("due inserts are applied in due-time order, whatever order they were queued in", () => {
    // capacity 16: only the block inserted last survives
    const c = new PrefixCache();
    const a = [...words("a", 16), "x"];
    const b = [...words("b", 16), "x"];
    c.insertAt(a, 16, 30, 16);
    c.insertAt(b, 16, 20, 16);
    expect(c.lookup(a, 16, 40)).toBe(16);
    expect(c.lookup(b, 16, 40)).toBe(0);
  });
});

describe("PrefixCache: LRU eviction, capacity 48 tokens = 3 blocks of 16", () => {
  // A: a 2-block prefix (pA0…pA31), B and C: 1-block prefixes; every prompt adds one word of its own, and
  // each request's blocks are due 1 ms after its lookup.
  const A = (k: string) => [...words("pA", 32), k];
  const B = (k: string) => [...words("pB", 16), k];
  const C = (k: string) => [...words("pC", 16), k];
  const send = (c: PrefixCache, p: string[], t: number, insert = true): number => {
    const hit = c.lookup(p, 16, t);
    if (insert) c.insertAt(p, 16, t + 1, 48);
    return hit;
  };

  it("a block touched by a hit outlives an older untouched one; a lost first block loses the whole chain", () => {
    const c = new PrefixCache();
    const hits = [
      send(c, A("x1"), 0), //  0: held []                    → miss
      send(c, B("y1"), 10), // 10: held [A0 A1] (32)          → miss
      send(c, A("x2"), 20), // 20: held [A0 A1 B0] (48)       → A0 A1 hit: 32, order now [B0 A0 A1]
      send(c, C("z1"), 30), // 30: A2's insert touches A0 A1  → miss
      send(c, B("y2"), 40), // 40: C0 in: 64 > 48, evict B0 (least recent) → [A0 A1 C0]: miss
      send(c, C("z2"), 50, false), // 50: B0 in, evict A0 → [A1 C0 B0]: C0 hit, 16
      send(c, A("x3"), 60, false) // 60: A1 is held, but A0 is gone: miss
    ];
    expect(hits).toEqual([0, 0, 32, 0, 0, 16, 0]);
    expect(c.heldTokens).toBe(48);
  });

  it("without the hit on A, A's first block is the oldest and goes instead: B then hits", () => {
    const c = new PrefixCache();
    const hits = [
      send(c, A("x1"), 0), //  0: miss
      send(c, B("y1"), 10), // 10: [A0 A1]: miss
      send(c, C("z1"), 30), // 30: [A0 A1 B0]: miss
      send(c, B("y2"), 40, false) // 40: C0 in, evict A0 → [A1 B0 C0]: B0 hit, 16
    ];
    expect(hits).toEqual([0, 0, 0, 16]);
  });

  it("a request larger than the capacity evicts its own first block (as the analyzer's bound does)", () => {
    const c = new PrefixCache();
    const p = [...words("p", 64), "q"]; // 4 blocks = 64 tokens > 48
    c.insertAt(p, 16, 0, 48);
    expect(c.lookup(p, 16, 1)).toBe(0);
    expect(c.heldTokens).toBe(48);
  });
});

describe("the plan with cached tokens", () => {
  const req = (extra: Partial<FakeRequest> = {}): FakeRequest => ({
    endpoint: "chat",
    stream: true,
    maxTokens: 4,
    ignoreEos: true,
    includeUsage: true,
    continuousUsage: false,
    promptTokens: 68,
    text: "",
    requestId: "r1",
    model: "m",
    ...extra
  });
  const opts = (o: Partial<ScenarioOptions> = {}): ScenarioOptions => ({...DEFAULT_OPTIONS, ttftMs: 200, ...o});
  const data = (frames: {data: string | Buffer}[]): string => frames.map((f) => String(f.data)).join("");

  it("TTFT scales with the uncached share: 200 × (1 − 64/68); saving 0.5 halves the cut; 0 cached keeps it", () => {
    expect(cachedTtftMs(opts(), 64, 68)).toBeCloseTo((200 * 4) / 68, 12);
    expect(cachedTtftMs(opts({prefixCacheTtftSaving: 0.5}), 64, 68)).toBeCloseTo(200 * (1 - 32 / 68), 12);
    expect(cachedTtftMs(opts({prefixCacheTtftSaving: 2}), 64, 68)).toBe(0);
    expect(cachedTtftMs(opts(), 0, 68)).toBe(200);
    const plan = buildPlan(req(), opts(), 64);
    expect(plan.frames[0]!.atMs).toBeCloseTo((200 * 4) / 68, 12);
    expect(plan.firstTokenAtMs).toBeCloseTo((200 * 4) / 68, 12);
    expect(plan.cachedTokens).toBe(64);
    expect(data(plan.frames)).toContain('"prompt_tokens":68,"completion_tokens":4,"total_tokens":72');
    expect(data(plan.frames)).toContain('"prompt_tokens_details":{"cached_tokens":64}');
    expect(buildPlan(req(), opts())).toEqual(buildPlan(req(), opts(), 0));
  });

  it("llama.cpp timings: cache_n = cached, prompt_n = the tokens computed, prompt_ms = the shorter TTFT", () => {
    const plan = buildPlan(req(), opts({usage: "llamacpp_timings", finishChunk: "separate"}), 64);
    const t = /"timings":(\{[^}]*\})/.exec(data(plan.frames))![1]!;
    const timings = JSON.parse(t) as {cache_n: number; prompt_n: number; prompt_ms: number};
    expect(timings.cache_n).toBe(64);
    expect(timings.prompt_n).toBe(4);
    expect(timings.prompt_ms).toBeCloseTo((200 * 4) / 68, 12);
  });

  it("the first token is due after headers, TTFT and role delay; never for an error status or a closed socket", () => {
    expect(buildPlan(req(), opts({headersDelayMs: 5, roleThenDelayMs: 30})).firstTokenAtMs).toBe(235);
    expect(buildPlan(req({stream: false}), opts()).firstTokenAtMs).toBe(200);
    expect(buildPlan(req(), opts({httpStatus: 429})).firstTokenAtMs).toBeNull();
    expect(buildPlan(req(), opts({closeBeforeHeaders: true})).firstTokenAtMs).toBeNull();
  });

  it("the prompt's words are its tokens, split on the fake's whitespace", () => {
    const text = requestText({messages: [{content: " a\tb "}, {content: [{type: "text", text: "c\u3000d\u00a0e"}]}]});
    expect(promptWords(text)).toEqual(["a", "b", "c", "d", "e"]);
    expect(promptWords(text)).toHaveLength(countWords(text));
    expect(promptWords("")).toEqual([]);
  });

  it("the prefix_cache preset holds 100000 tokens in blocks of 16", () => {
    const s = resolveScenario("prefix_cache");
    expect(s.fault).toBeNull();
    expect(s.options).toMatchObject({prefixCacheTokens: 100_000, prefixCacheBlock: 16, prefixCacheTtftSaving: 1});
    expect(DEFAULT_OPTIONS.prefixCacheTokens).toBeNull();
  });
});

describe("the fake server's prefix cache, end to end", () => {
  const servers: FakeServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  const start = async (o: Parameters<typeof startFakeServer>[0]): Promise<FakeServer> => {
    const s = await startFakeServer({host: "127.0.0.1", ...o});
    servers.push(s);
    return s;
  };
  // a 64-word system prompt (4 blocks of 16); requestText joins it and a 4-word user message: 68 prompt tokens,
  // of which a later request with the same system prompt is served the 4 whole blocks, 64 (≤ 68 − 1)
  const SYSTEM = words("sys", 64).join(" ");
  const origin = process.hrtime.bigint();
  const chat = (s: FakeServer, user: string, headers: Record<string, string> = {}): Promise<StreamResult> =>
    streamRequest({
      url: s.url + "/chat/completions",
      headers,
      body: JSON.stringify({
        messages: [
          {role: "system", content: SYSTEM},
          {role: "user", content: user}
        ],
        stream: true,
        max_tokens: 3,
        ignore_eos: true,
        stream_options: {include_usage: true}
      }),
      origin,
      timeouts: {connectMs: 2000, headersMs: 2000, idleMs: 2000}
    });
  const ttftMs = (r: StreamResult): number => (r.events.find((e) => e[2] === "content")![0] - r.tDispNs!) / 1e6;
  const counters = async (s: FakeServer): Promise<Map<string, {type: string; value: string | undefined}>> => {
    const text = await (await fetch(s.url.replace(/\/v1$/, "/metrics"))).text();
    const families = parsePrometheusTextFormat(text) as {name: string; type: string; metrics: {value?: string}[]}[];
    return new Map(families.map((f) => [f.name, {type: f.type, value: f.metrics[0]?.value}]));
  };

  it("sequential requests with the same system prompt: the second reports 64 cached tokens and an earlier first token", async () => {
    const s = await start({scenario: "prefix_cache", options: {ttftMs: 200, tokenIntervalMs: 0}});
    const before = await counters(s);
    expect(before.get("vllm:prefix_cache_queries_total")).toEqual({type: "COUNTER", value: "0"});
    const first = await chat(s, "tell me about cats");
    const second = await chat(s, "and now about dogs");
    expect(first.usage).toMatchObject({promptTokens: 68, cachedTokens: 0});
    expect(second.usage).toMatchObject({promptTokens: 68, cachedTokens: 64});
    // expected: 200 ms, then 200 × 4/68 ≈ 11.8 ms; noisy machines: the order and half the saving
    expect(ttftMs(first)).toBeGreaterThanOrEqual(190);
    expect(ttftMs(second)).toBeLessThan(ttftMs(first) - 94);
    const after = await counters(s);
    expect(after.get("vllm:prefix_cache_queries_total")).toEqual({type: "COUNTER", value: "136"});
    expect(after.get("vllm:prefix_cache_hits_total")).toEqual({type: "COUNTER", value: "64"});
  });

  it("two requests sent together both compute the shared prefix; a later one hits it", async () => {
    const s = await start({scenario: "prefix_cache", options: {ttftMs: 200, tokenIntervalMs: 0}});
    const both = await Promise.all([chat(s, "tell me about cats"), chat(s, "and now about dogs")]);
    expect(both.map((r) => r.usage?.cachedTokens)).toEqual([0, 0]);
    expect((await chat(s, "what about birds")).usage?.cachedTokens).toBe(64);
    expect((await counters(s)).get("vllm:prefix_cache_hits_total")?.value).toBe("64");
  });

  it("per request via x-fake-options: a request with the cache off neither hits nor fills it; llama.cpp timings", async () => {
    const s = await start({options: {ttftMs: 20, tokenIntervalMs: 0}});
    expect((await counters(s)).has("vllm:prefix_cache_queries_total")).toBe(false); // no cache: /metrics as before
    const on = {"x-fake-options": JSON.stringify({prefixCacheTokens: 1000})};
    expect((await chat(s, "without the cache")).usage?.cachedTokens).toBe(0);
    expect((await chat(s, "tell me about cats", on)).usage?.cachedTokens).toBe(0); // the first to fill it
    expect((await chat(s, "without the cache")).usage?.cachedTokens).toBe(0);
    const timings = {"x-fake-options": JSON.stringify({prefixCacheTokens: 1000, usage: "llamacpp_timings"})};
    const llama = await chat(s, "and now about dogs", timings);
    expect(llama.usageSource).toBe("server_timings");
    expect(llama.serverTimings).toMatchObject({cacheN: 64, promptN: 4});
    expect(llama.usage).toMatchObject({promptTokens: 68, cachedTokens: 64});
    const c = await counters(s);
    expect(c.get("vllm:prefix_cache_queries_total")?.value).toBe("136");
    expect(c.get("vllm:prefix_cache_hits_total")?.value).toBe("64");
  });

  it("a request the client abandons before its first token leaves nothing in the cache", async () => {
    const s = await start({scenario: "prefix_cache", options: {ttftMs: 200, tokenIntervalMs: 0}});
    const ac = new AbortController();
    const gone = streamRequest({
      url: s.url + "/chat/completions",
      headers: {},
      body: JSON.stringify({
        messages: [
          {role: "system", content: SYSTEM},
          {role: "user", content: "x"}
        ],
        stream: true
      }),
      origin,
      timeouts: {connectMs: 2000, headersMs: 2000, idleMs: 2000},
      signal: ac.signal
    });
    setTimeout(() => ac.abort(), 50);
    await gone;
    await new Promise((r) => setTimeout(r, 250)); // past the abandoned request's first-token time
    expect((await chat(s, "tell me about cats")).usage?.cachedTokens).toBe(0);
  });
});
