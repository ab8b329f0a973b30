import {afterAll, describe, expect, it} from "vitest";

import {compareSpec} from "../../../src/analysis/compare/spec.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {parseScrape} from "../../../collector/telemetry/prometheus.ts";
import {collectAndAnalyze, tempDir, testConfig} from "../helpers.ts";

/**
 * The fake server's speculative-decoding emulation through the collector and the analyzer. The emulation's
 * parameters give the expected values by hand: k = 3, per-position rates 0.75 / 0.5 / 0.25 over cycles of 4
 * drafts (levels u = 0.125, 0.375, 0.625, 0.875): position 0 is accepted in 3 drafts, 1 in 2, 2 in 1, so a
 * cycle accepts 6 of 12 draft tokens and yields 4 + 6 = 10 tokens. With max_tokens 41 and ignore_eos every
 * response is the first token plus 40 tokens = 4 whole cycles = 16 drafts, 48 draft tokens, 24 accepted:
 * acceptance rate 24 / 48 = 0.5, mean acceptance length 1 + 24 / 16 = 2.5, per position 12/16, 8/16, 4/16.
 */
const SPEC = {k: 3, acceptRates: [0.75, 0.5, 0.25], cycle: 4, stepMs: 2};
const servers: FakeServer[] = [];
const t = tempDir();
afterAll(async () => {
  for (const s of servers) await s.close();
  t.cleanup();
});
async function server(specDecode: Record<string, unknown> | null): Promise<FakeServer> {
  const s = await startFakeServer({port: 0, host: "127.0.0.1", options: {specDecode}});
  servers.push(s);
  return s;
}
const workload = {prompt_tokens: 16, max_tokens: 41, ignore_eos: true};

describe("speculative decoding on the fake server, through collect() and the analyzer", () => {
  it("vLLM dialect: the counters' acceptance rate, mean length and per-position rates equal the emulation's", async () => {
    const s = await server({...SPEC, dialect: "vllm"});
    const config = testConfig(s.url, {
      workload,
      // two points: the last one's end reading is the scrape the collector takes once the load has ended
      load: {mode: "concurrency", values: [1, 2], requests: 6, warmup: 0},
      telemetry: {gpu: "off", server_metrics: "on", interval_ms: 100}
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    const p = report.load_points.find((x) => x.id === "concurrency-1")!;
    const spec = p.spec_decode!;
    expect(spec.acceptance_rate).toEqual({value: 0.5, source: "server_counters"});
    expect(spec.mean_acceptance_length).toEqual({value: 2.5, source: "server_counters"});
    expect(spec.per_position.value).toEqual([0.75, 0.5, 0.25]);
    expect(spec.counters!.engine).toBe("vllm");
    // every response carries whole cycles, so the counters are multiples of one response's 16 / 48 / 24
    expect(spec.counters!.draft_tokens % 48).toBe(0);
    // multi-token events: the first token, then one event per step (16): 41 / 17 tokens per event
    const tpe = p.metrics.tokens_per_event as {p50: number};
    expect(tpe.p50).toBeCloseTo(41 / 17, 12);
    const last = report.load_points.find((x) => x.id === "concurrency-2")!.spec_decode!;
    expect(last.acceptance_rate).toEqual({value: 0.5, source: "server_counters"});
    expect(last.mean_acceptance_length).toEqual({value: 2.5, source: "server_counters"});
  });

  it("llama.cpp dialect: per-response timings draft_n / draft_n_accepted, one token per event", async () => {
    const s = await server({...SPEC, dialect: "llamacpp"});
    const config = testConfig(s.url, {
      workload,
      target: {
        base_url: s.url,
        model: "fake-model",
        headers: {"x-fake-options": JSON.stringify({ttftMs: 5, usage: "llamacpp_timings"})}
      },
      load: {mode: "concurrency", values: [2], requests: 6, warmup: 0}
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    const spec = report.load_points[0]!.spec_decode!;
    // no scrapes (server_metrics off): the timings of 6 responses, 6 × 48 draft tokens, 6 × 24 accepted
    expect(spec.timings).toEqual({requests: 6, draft_tokens: 288, accepted_tokens: 144});
    expect(spec.acceptance_rate).toEqual({value: 0.5, source: "response_timings"});
    expect(spec.mean_acceptance_length.value).toBeNull();
    expect((report.load_points[0]!.metrics.tokens_per_event as {p50: number}).p50).toBe(1);
  });

  it("SGLang dialect: the accept-length and accept-rate gauges under SGLang's names, kept by the allowlist", async () => {
    const s = await server({...SPEC, dialect: "sglang"});
    const root = s.url.replace(/\/v1$/, "");
    const before = parseScrape(await (await fetch(`${root}/metrics`)).text());
    expect(before.some(([n]) => n.startsWith("sglang:spec"))).toBe(false); // nothing before the first draft
    const res = await fetch(`${s.url}/completions`, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({model: "fake-model", prompt: "hi", max_tokens: 41, ignore_eos: true, stream: true})
    });
    await res.text();
    const samples = parseScrape(await (await fetch(`${root}/metrics`)).text());
    // one response: 1 + 24 / 16 = 2.5 tokens per step, 24 / 48 = 0.5 of draft tokens accepted
    expect(samples.filter(([n]) => n.startsWith("sglang:spec")).map(([n, , v]) => [n, v])).toEqual([
      ["sglang:spec_accept_length", 2.5],
      ["sglang:spec_accept_rate", 0.5]
    ]);
  });

  // The CPU presets of the real engine cannot reach a 32k context, so the long-context collapse rule is
  // exercised here: the emulation slows every step 20-fold from 10 prompt tokens on (the 16-token prompts).
  it("long-context collapse: spec-on decode below half of spec-off's is flagged by compareSpec", async () => {
    const on = await server({...SPEC, dialect: "vllm", stepMs: 1, collapseAtPromptTokens: 10, collapseFactor: 20});
    const off = await server(null);
    const load = {mode: "concurrency" as const, values: [2], requests: 6, warmup: 0};
    const headers = {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2})};
    const a = await collectAndAnalyze(
      testConfig(on.url, {workload, load, target: {base_url: on.url, model: "fake-model", headers}}),
      t.dir
    );
    const b = await collectAndAnalyze(
      testConfig(off.url, {workload, load, target: {base_url: off.url, model: "fake-model", headers}}),
      t.dir
    );
    const c = compareSpec(a.report, b.report);
    expect(c.comparability.comparable, JSON.stringify(c.comparability.reasons)).toBe(true);
    const p = c.points[0]!;
    // spec-off: 40 tokens in 40 × 2 ms → ≈ 1000 tok/s (timers only add); spec-on: 40 tokens in 16 steps × 20 ms
    // → 125 tok/s at most: a ratio near 0.125, well below 0.5
    expect(p.collapse.collapsed).toBe(true);
    expect(p.collapse.ratio!).toBeLessThan(0.5);
    expect(c.collapse).toBe(true);
    // max_tokens 41 < 512: the gain itself is unfit to judge
    expect(p.reading).toBe("unfit_to_judge");
  });
});
