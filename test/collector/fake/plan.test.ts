import {describe, expect, it} from "vitest";

import {
  buildPlan,
  DEFAULT_OPTIONS,
  listScenarios,
  mergeOptions,
  resolveScenario,
  SCENARIO_NAMES,
  type FakeRequest,
  type ResponsePlan,
  type ScenarioOptions
} from "../../../collector/fake/index.ts";
import {SseReader} from "../../../collector/http/sse.ts";

function request(extra: Partial<FakeRequest> = {}): FakeRequest {
  return {
    endpoint: "chat",
    stream: true,
    maxTokens: 6,
    ignoreEos: true,
    includeUsage: true,
    continuousUsage: false,
    promptTokens: 5,
    text: "what is the answer",
    requestId: "r1",
    model: "m",
    ...extra
  };
}

const opts = (o: Partial<ScenarioOptions> = {}): ScenarioOptions => ({...DEFAULT_OPTIONS, ...o});
const bytesOf = (p: ResponsePlan): Buffer => Buffer.concat(p.frames.map((f) => Buffer.from(f.data)));

/** Data payloads of a plan's bytes, parsed with the collector's SSE reader. */
function payloads(p: ResponsePlan): string[] {
  const out: string[] = [];
  const r = new SseReader(64 * 1024 * 1024, {onEvent: (d) => void out.push(d), onTooLarge: () => {}});
  r.write(bytesOf(p));
  r.end();
  return out;
}

describe("scenarios", () => {
  it("every listed scenario resolves and names its fault row", () => {
    expect(SCENARIO_NAMES.length).toBeGreaterThanOrEqual(45);
    for (const name of SCENARIO_NAMES) {
      const s = resolveScenario(name);
      expect(s.name).toBe(name);
      expect(s.description.length).toBeGreaterThan(5);
      // behaviours rather than faults (the default stream, the prefix cache) name no fault row
      if (name === "default" || name === "prefix_cache") expect(s.fault, name).toBeNull();
      else expect(s.fault, name).toMatch(/^F\d+$/);
    }
    expect(listScenarios()).toHaveLength(SCENARIO_NAMES.length);
    expect(listScenarios()[0]).toMatch(/^default\s+-\s+role chunk/);
  });

  it("the brief's names exist", () => {
    for (const n of ["split-utf8", "crlf", "malformed-json", "eof-no-done", "eof-after-finish", "role-then-delay"]) {
      expect(SCENARIO_NAMES).toContain(n);
    }
    for (const n of [
      "reasoning",
      "reasoning-inline-think",
      "tool-call",
      "usage-every-chunk",
      "usage-none",
      "usage-llamacpp"
    ]) {
      expect(SCENARIO_NAMES).toContain(n);
    }
    for (const n of ["usage-inconsistent", "multi-token", "usage-jump", "huge-event", "inband-error", "error-first"]) {
      expect(SCENARIO_NAMES).toContain(n);
    }
    for (const n of [
      "html-200",
      "slow-headers",
      "stall",
      "fin",
      "reset",
      "close-before-headers",
      "http-429",
      "http-500"
    ]) {
      expect(SCENARIO_NAMES).toContain(n);
    }
    for (const n of ["http-503", "buffered", "trickle", "conn-cap", "prompt-truncate", "byte-split"]) {
      expect(SCENARIO_NAMES).toContain(n);
    }
  });

  it("an unknown name fails with the list of known ones", () => {
    expect(() => resolveScenario("nope")).toThrow(/unknown fake-server scenario "nope" \(known: default, /);
  });

  it("mergeOptions rejects unknown keys and wrong types, accepts lists for tokensPerEvent", () => {
    expect(() => mergeOptions(DEFAULT_OPTIONS, {ttfMs: 1}, "here")).toThrow(/here: unknown scenario option "ttfMs"/);
    expect(() => mergeOptions(DEFAULT_OPTIONS, {ttftMs: "1"}, "here")).toThrow(/ttftMs expects number/);
    expect(() => mergeOptions(DEFAULT_OPTIONS, [1], "here")).toThrow(/expected an object/);
    expect(mergeOptions(DEFAULT_OPTIONS, {tokensPerEvent: [1, 3]}, "x").tokensPerEvent).toEqual([1, 3]);
    expect(mergeOptions(DEFAULT_OPTIONS, {splitOffset: 3}, "x").splitOffset).toBe(3);
  });

  it("a scenario object is completed with defaults", () => {
    const s = resolveScenario({name: "mine", fault: null, description: "d", options: {ttftMs: 1} as ScenarioOptions});
    expect(s.options.ttftMs).toBe(1);
    expect(s.options.tokenIntervalMs).toBe(DEFAULT_OPTIONS.tokenIntervalMs);
  });
});

describe("buildPlan", () => {
  it("is deterministic", () => {
    for (const name of SCENARIO_NAMES) {
      const o = resolveScenario(name).options;
      expect(buildPlan(request(), o), name).toEqual(buildPlan(request(), o));
    }
  });

  it("for every scenario, the `events` counts of the writes equal the SSE events in the bytes", () => {
    for (const name of SCENARIO_NAMES) {
      const plan = buildPlan(request({maxTokens: 12}), resolveScenario(name).options);
      const counted = plan.frames.reduce((a, f) => a + f.events, 0);
      const parsed = plan.headers["content-type"]?.startsWith("text/event-stream") ? payloads(plan).length : 0;
      expect(counted, name).toBe(parsed);
      const times = plan.frames.map((f) => f.atMs);
      expect(
        [...times].sort((a, b) => a - b),
        `${name}: writes in time order`
      ).toEqual(times);
    }
  });

  it("default: role at the TTFT, tokens at TTFT + i × interval, finish on the last token, usage, [DONE]", () => {
    const plan = buildPlan(request(), opts());
    expect(plan.status).toBe(200);
    expect(plan.frames.map((f) => f.atMs)).toEqual([20, 20, 25, 30, 35, 40, 45, 45, 45]);
    const ps = payloads(plan);
    expect(JSON.parse(ps[0]!).choices[0].delta).toEqual({role: "assistant", content: null});
    expect(ps.slice(1, 7).map((p) => JSON.parse(p).choices[0].delta.content)).toEqual([
      " alpha",
      " bravo",
      " charlie",
      " delta",
      " echo",
      " foxtrot"
    ]);
    expect(JSON.parse(ps[6]!).choices[0].finish_reason).toBe("length");
    expect(JSON.parse(ps[7]!)).toMatchObject({
      choices: [],
      usage: {prompt_tokens: 5, completion_tokens: 6, total_tokens: 11, prompt_tokens_details: {cached_tokens: 0}}
    });
    expect(ps[8]).toBe("[DONE]");
    expect(plan.end).toEqual({atMs: 45, how: "end"});
  });

  it("honours ignore_eos, max_tokens and the scripted length", () => {
    const contents = (p: ResponsePlan): number => payloads(p).filter((x) => x.includes('"content":" ')).length;
    expect(contents(buildPlan(request({maxTokens: 30}), opts()))).toBe(30);
    const eos = buildPlan(request({maxTokens: 30, ignoreEos: false}), opts({eosAfter: 4}));
    expect(contents(eos)).toBe(4);
    expect(payloads(eos).some((p) => p.includes('"finish_reason":"stop"'))).toBe(true);
    expect(contents(buildPlan(request({maxTokens: null}), opts({defaultMaxTokens: 9})))).toBe(9);
  });

  it("continuous usage carries cumulative counts on every chunk", () => {
    const ps = payloads(buildPlan(request({continuousUsage: true}), opts()));
    const cum = ps.filter((p) => p !== "[DONE]").map((p) => JSON.parse(p).usage.completion_tokens);
    expect(cum).toEqual([0, 1, 2, 3, 4, 5, 6, 6]);
  });

  it("no include_usage → no usage chunk; usage variants override the request", () => {
    const none = payloads(buildPlan(request({includeUsage: false}), opts()));
    expect(none.some((p) => p.includes('"usage"'))).toBe(false);
    const forced = payloads(buildPlan(request({includeUsage: false}), opts({usage: "final"})));
    expect(forced.filter((p) => p.includes('"usage"'))).toHaveLength(1);
    const llama = payloads(buildPlan(request(), opts({usage: "llamacpp_timings"})));
    expect(llama.some((p) => p.includes('"usage"'))).toBe(false);
    expect(llama.filter((p) => p.includes('"timings"'))).toHaveLength(1);
  });

  it("scripted answers: the first key found in the prompt picks the text; truncation gives finish length", () => {
    const o = opts({answers: {"capital of France": "The capital is Paris.", other: "no"}});
    const ps = payloads(buildPlan(request({text: "what is the capital of France?", maxTokens: 100}), o));
    const text = ps
      .filter((p) => p.includes('"content":"'))
      .map((p) => JSON.parse(p).choices[0].delta.content)
      .join("");
    expect(text).toBe("The capital is Paris.");
    expect(ps.some((p) => p.includes('"finish_reason":"stop"'))).toBe(true);
    const cut = payloads(buildPlan(request({text: "capital of France", maxTokens: 2}), o));
    expect(cut.some((p) => p.includes('"finish_reason":"length"'))).toBe(true);
  });

  it("splitOffset and splitEveryByte cut the same bytes differently; merged/buffered group them", () => {
    const plain = bytesOf(buildPlan(request(), opts({text: "unicode"})));
    const split = buildPlan(request(), opts({text: "unicode", splitOffset: 9}));
    expect(bytesOf(split)).toEqual(plain);
    expect(split.frames.filter((f) => f.events === 0).every((f) => f.data.length === 9)).toBe(true);
    const bytes = buildPlan(request(), opts({text: "unicode", splitEveryByte: true}));
    expect(bytesOf(bytes)).toEqual(plain);
    expect(bytes.frames.every((f) => f.data.length === 1 && f.yieldAfter)).toBe(true);
    const merged = buildPlan(request(), opts({eventsPerWrite: 4}));
    expect(merged.frames.map((f) => f.events)).toEqual([4, 4, 1]);
    const buffered = buildPlan(request(), opts({buffered: true}));
    expect(buffered.frames).toHaveLength(1);
    expect(buffered.frames[0]!.atMs).toBe(45);
  });

  it("line endings and SSE extras", () => {
    expect(bytesOf(buildPlan(request(), opts({lineEnding: "crlf"}))).toString()).toContain("}\r\n\r\ndata: ");
    const cr = bytesOf(buildPlan(request(), opts({lineEnding: "cr"}))).toString();
    expect(cr).toContain("}\r\rdata: ");
    expect(cr).not.toContain("\n");
    const extras = bytesOf(buildPlan(request(), opts({sseExtras: true}))).toString();
    for (const s of [": keep-alive\n", "event: message\n", "id: 1\n", "retry: 1000\n"]) expect(extras).toContain(s);
    const parse = (ps: string[]): unknown[] => ps.map((p) => (p === "[DONE]" ? p : JSON.parse(p)));
    const withExtras = payloads(buildPlan(request(), opts({sseExtras: true})));
    expect(withExtras.some((p) => p.includes("\n"))).toBe(true); // a multi-line data event
    expect(parse(withExtras)).toEqual(parse(payloads(buildPlan(request(), opts()))));
  });

  it("terminations: eof, fin, reset and hang cut after terminateAfter tokens with no finish or [DONE]", () => {
    for (const how of ["eof", "fin", "reset", "hang"] as const) {
      const plan = buildPlan(request(), opts({terminate: how, terminateAfter: 2}));
      const ps = payloads(plan);
      expect(ps, how).toHaveLength(3);
      expect(
        ps.some((p) => p.includes('finish_reason":"')),
        how
      ).toBe(false);
      expect(plan.end.how).toBe(how === "eof" ? "end" : how);
    }
    const noDone = payloads(buildPlan(request(), opts({terminate: "eof_after_finish"})));
    expect(noDone).not.toContain("[DONE]");
    expect(noDone.some((p) => p.includes('"finish_reason":"length"'))).toBe(true);
  });

  it("stall and role-then-delay shift the later tokens", () => {
    const stall = buildPlan(request(), opts({stallAfter: 2, stallMs: 300}));
    expect(stall.frames.map((f) => f.atMs)).toEqual([20, 20, 25, 330, 335, 340, 345, 345, 345]);
    const delayed = buildPlan(request(), opts({roleThenDelayMs: 200}));
    expect(delayed.frames.slice(0, 4).map((f) => f.atMs)).toEqual([20, 20, 20, 220]);
  });

  it("errors: HTTP status with Retry-After, in-band error events, close before headers", () => {
    const e429 = buildPlan(request(), opts({httpStatus: 429, retryAfter: "3"}));
    expect(e429.status).toBe(429);
    expect(e429.headers["retry-after"]).toBe("3");
    expect(JSON.parse(String(e429.frames[0]!.data)).error.code).toBe(429);
    const inband = payloads(buildPlan(request(), opts({inbandErrorAfter: 2})));
    expect(inband).toHaveLength(5);
    expect(JSON.parse(inband[3]!).error.message).toBe("fake in-band error");
    expect(inband[4]).toBe("[DONE]");
    const first = payloads(buildPlan(request(), opts({inbandErrorAfter: 0})));
    expect(first.map((p) => p.slice(0, 9))).toEqual(['{"error":', "[DONE]"]);
    expect(buildPlan(request(), opts({closeBeforeHeaders: true})).closeBeforeHeaders).toBe(true);
  });

  it("non-streaming requests get one JSON completion with usage", () => {
    const plan = buildPlan(request({stream: false}), opts());
    expect(plan.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(String(plan.frames[0]!.data));
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message.content).toBe(" alpha bravo charlie delta echo foxtrot");
    expect(body.usage.completion_tokens).toBe(6);
    const c = JSON.parse(String(buildPlan(request({stream: false, endpoint: "completions"}), opts()).frames[0]!.data));
    expect(c.object).toBe("text_completion");
  });

  it("variable tokens per event are seeded: same seed, same lengths; another seed, other lengths", () => {
    const lens = (seed: number): number[] =>
      payloads(buildPlan(request({maxTokens: 60, continuousUsage: true}), opts({tokensPerEventRange: [1, 5], seed})))
        .filter((p) => p.includes('"content":"'))
        .map((p) => JSON.parse(p).choices[0].delta.content.trim().split(" ").length);
    expect(lens(1)).toEqual(lens(1));
    expect(lens(1)).not.toEqual(lens(2));
    expect(lens(1).reduce((a, b) => a + b, 0)).toBe(60);
  });
});
