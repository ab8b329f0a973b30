import {describe, expect, it} from "vitest";

import {analyzeSpec, cleanRun, gateOf, streamed, type StreamedOptions} from "../../support/bundle.ts";

/**
 * G13 against the prefix-cache ceiling, on hand-built bundles: 20 requests 100 ms apart, each a 100-token
 * prompt of an 80-token group prefix and a unique 20-token suffix, first token 5 ms after dispatch.
 */
const hex = (s: string) => s.padEnd(16, "0");
const SHARED = {
  config: {
    workload: {ignore_eos: false, salt: true, source: {kind: "shared_prefix" as const, groups: 2, prefix_tokens: 80}}
  }
};

function run(group: (i: number) => number, each: (i: number) => StreamedOptions, server?: [number, number][]) {
  const scrapes = (server ?? []).map(([queries, hits], k) => ({
    tNs: k === 0 ? 0 : 2_100_000_000,
    durationMs: 1,
    ok: true,
    error: null,
    samples: [
      ["vllm:prefix_cache_queries_total", {model_name: "m"}, queries] as [string, Record<string, string>, number],
      ["vllm:prefix_cache_hits_total", {model_name: "m"}, hits] as [string, Record<string, string>, number]
    ]
  }));
  return cleanRun(
    Array.from({length: 20}, (_, i) =>
      streamed(`r${i}`, i * 100, {
        index: i,
        salt: `s${i}`,
        workload: {kind: "shared_prefix", group: group(i)},
        promptSegments: {
          segments: [
            [hex(`a${group(i)}`), 80],
            [hex(`b${String(i).padStart(2, "0")}`), 20]
          ],
          tokens: 100,
          exact: true
        },
        ...each(i)
      })
    ),
    {...SHARED, ...(server === undefined ? {} : {server: scrapes})}
  );
}
const usage = (promptTokens: number, cachedTokens: number) => ({
  usage: {promptTokens, completionTokens: 10, reasoningTokens: null, cachedTokens}
});

describe("G13 against the prefix-cache ceiling", () => {
  it("passes a server that served exactly what two alternating groups allow", async () => {
    // requests 0 and 1 open their groups; the other 18 may reuse 80 tokens each: 18·80 / 2000 = 72 %
    const r = await analyzeSpec(
      run(
        (i) => i % 2,
        (i) => usage(100, i < 2 ? 0 : 80)
      )
    );
    const g = gateOf(r, "G13");
    expect(g.status).toBe("pass");
    // one request in flight at a time × the longest prompt (100) holds one prompt: the other group's is
    // evicted by then, so the room ceiling is 0 — and a server that did better is not flagged
    expect(g.reason).toBe(
      "measured 72.0 % over 20/20 requests with counts; bound 72.0 % of prompt tokens with an unbounded cache, 0.0 % with an LRU cache holding the run's most in-flight prompts (100 tokens)"
    );
    const c = r.load_points[0]!.workload!.prefix_cache!;
    expect([c.bound_share, c.room_share, c.measured_share, c.ttft_hit_ms.n, c.ttft_miss_ms.n]).toEqual([
      0.72, 0, 0.72, 18, 2
    ]);
  });

  it("warns on hits the workload cannot explain (the first request of a group served from a cache)", async () => {
    const r = await analyzeSpec(
      run(
        (i) => i % 2,
        (i) => usage(100, i === 0 ? 80 : i === 1 ? 0 : 80)
      )
    );
    const g = gateOf(r, "G13");
    expect(g.status).toBe("warn");
    expect(g.reason).toMatch(/^1\/20 requests reused more cached prompt tokens than the workload allows .*e\.g\. r0\)/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("scales the ceiling to the server's count of the prompt (template tokens) before comparing", async () => {
    // the server counts 120 tokens for our 100: the ceiling 80 becomes 96, plus a template prefix of 32
    const at = await analyzeSpec(
      run(
        () => 0,
        (i) => usage(120, i === 0 ? 0 : 128)
      )
    );
    expect(gateOf(at, "G13").status).toBe("pass");
    const above = await analyzeSpec(
      run(
        () => 0,
        (i) => usage(120, i === 0 ? 0 : i === 5 ? 129 : 128)
      )
    );
    expect(gateOf(above, "G13").status).toBe("warn");
  });

  it("warns when a workload designed for hits gets far fewer than a cache with room could serve", async () => {
    // one group: every request after the first may reuse the previous one's 80 tokens (within room)
    const none = await analyzeSpec(
      run(
        () => 0,
        () => usage(100, 0)
      )
    );
    expect(gateOf(none, "G13").status).toBe("warn");
    expect(gateOf(none, "G13").reason).toMatch(
      /^far fewer cache hits than the workload allows: measured 0\.0 % over 20\/20 requests with counts, under 50 % of the 76\.0 % that/
    );
    // 38 % is half of 76 %: at the line, not under it
    const half = await analyzeSpec(
      run(
        () => 0,
        (i) => usage(100, i % 2 === 1 ? 76 : 0)
      )
    );
    expect(gateOf(half, "G13").status, gateOf(half, "G13").reason).toBe("pass");
    const unknown = await analyzeSpec(
      run(
        () => 0,
        () => ({usage: {promptTokens: 100, completionTokens: 10, reasoningTokens: null, cachedTokens: null}})
      )
    );
    expect(gateOf(unknown, "G13").status).toBe("not_evaluable");
  });

  it("without cached-token counts, the server's prefix-cache counters over the point's window are the measure", async () => {
    // counters at 0 before the point (t = 0) and after it (2.1 s): 1,440 of 2,000 prompt tokens hit
    const r = await analyzeSpec(
      run(
        (i) => i % 2,
        () => ({usage: {promptTokens: 100, completionTokens: 10, reasoningTokens: null, cachedTokens: null}}),
        [
          [0, 0],
          [2000, 1440]
        ]
      )
    );
    const g = gateOf(r, "G13");
    expect(g.status).toBe("pass");
    expect(g.reason).toMatch(
      /^measured by the server's counters: 72\.0 % \(1440 of 2000 prompt tokens looked up, 0\.0–2\.1 s\); the responses carry no cached-token counts; bound 72\.0 %/
    );
    expect(r.load_points[0]!.workload!.prefix_cache!.server_share).toBe(0.72);
    // one group: a 76 % ceiling within room, but the counters saw no hit → the gate fires on them too
    const none = await analyzeSpec(
      run(
        () => 0,
        () => ({usage: {promptTokens: 100, completionTokens: 10, reasoningTokens: null, cachedTokens: null}}),
        [
          [0, 0],
          [2000, 0]
        ]
      )
    );
    expect(gateOf(none, "G13").status).toBe("warn");
    expect(gateOf(none, "G13").reason).toMatch(
      /^far fewer cache hits than the workload allows: measured by the server's counters: 0\.0 %/
    );
    // a counter that went down (a restart) is no measure
    const restart = await analyzeSpec(
      run(
        () => 0,
        () => ({usage: {promptTokens: 100, completionTokens: 10, reasoningTokens: null, cachedTokens: null}}),
        [
          [5000, 10],
          [2000, 0]
        ]
      )
    );
    expect(gateOf(restart, "G13").status).toBe("not_evaluable");
    expect(gateOf(restart, "G13").reason).toMatch(/a counter went down across the load point \(server restart\)/);
  });
});
