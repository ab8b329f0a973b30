import {describe, expect, it} from "vitest";

import {analyzeSpec, cleanRun, streamed, type StreamedOptions} from "../../support/bundle.ts";

const hex = (s: string) => s.padEnd(16, "0");
const usage = (promptTokens: number, completionTokens: number, cachedTokens: number | null) => ({
  usage: {promptTokens, completionTokens, reasoningTokens: null, cachedTokens}
});

describe("the workload block of a load point", () => {
  it("sets requested lengths against the server's counts, measured successes only", async () => {
    // five measured successes asked for 10…50 prompt tokens and max_tokens 5…9, the server counted one more
    // prompt token each and exactly the tokens streamed; a warmup and a failure are left out
    const reqs = [0, 1, 2, 3, 4].map((i) =>
      streamed(`m${i}`, i * 100, {
        index: i,
        tokens: 5 + i,
        promptTokensIntended: 10 * (i + 1),
        maxTokens: 5 + i,
        workload: {kind: "synthetic"},
        ...usage(10 * (i + 1) + 1, 5 + i, null)
      })
    );
    const warm = streamed("w0", 600, {
      index: 0,
      phase: "warmup",
      promptTokensIntended: 999,
      maxTokens: 999,
      workload: {kind: "synthetic"}
    });
    const failed = streamed("f0", 700, {
      index: 5,
      httpStatus: 500,
      promptTokensIntended: 999,
      workload: {kind: "synthetic"}
    });
    const r = await analyzeSpec(cleanRun([...reqs, warm, failed], {config: {workload: {ignore_eos: false}}}));
    const l = r.load_points[0]!.workload!.lengths!;
    expect(r.load_points[0]!.workload!.kind).toBe("synthetic");
    expect(l.input_requested).toEqual({n: 5, mean: 30, p50: 30, p95: null});
    expect(l.input_realised).toEqual({n: 5, mean: 31, p50: 31, p95: null});
    expect(l.output_requested).toEqual({n: 5, mean: 7, p50: 7, p95: null});
    expect(l.output_realised).toEqual({n: 5, mean: 7, p50: 7, p95: null});
    expect(r.load_points[0]!.workload!.prefix_cache).toBeNull();
  });

  it("a conversation: TTFT by turn, the ceiling with its answers, room as declared", async () => {
    // 5 conversations of 2 turns, back to back: turn 1 = 50 tokens, answered with 5 (ending 100 ms after its
    // schedule); turn 2 = those 55 + 10; a turn's first token 5 ms after its dispatch (ttft 5 and 15 ms)
    const reqs: ReturnType<typeof streamed>[] = [];
    for (let s = 0; s < 5; s++) {
      const u1 = hex(`c${s}`);
      const a1 = hex(`a${s}`);
      const t1 = s * 400;
      const one: StreamedOptions = {
        index: 2 * s,
        tokens: 5,
        salt: "s",
        workload: {kind: "sessions", session: s, turn: 1},
        promptSegments: {segments: [[u1, 50]], tokens: 50, exact: true, answer: [a1, 5]},
        ...usage(50, 5, 0)
      };
      const two: StreamedOptions = {
        index: 2 * s + 1,
        tokens: 5,
        ttftMs: 15,
        salt: "s",
        workload: {kind: "sessions", session: s, turn: 2},
        promptSegments: {
          segments: [
            [u1, 50],
            [a1, 5],
            [hex(`e${s}`), 10]
          ],
          tokens: 65,
          exact: false
        },
        ...usage(65, 5, 55)
      };
      reqs.push(streamed(`c${s}t1`, t1, one), streamed(`c${s}t2`, t1 + 200, two));
    }
    const config = {
      workload: {
        ignore_eos: false,
        prefix_cache: {capacity_tokens: 4096},
        source: {kind: "sessions" as const, turns: 2}
      }
    };
    const r = await analyzeSpec(cleanRun(reqs, {config}));
    const w = r.load_points[0]!.workload!;
    expect(w.turns).toEqual([
      {turn: 1, ttft_ms: {n: 5, mean: 5, p50: 5, p95: null}},
      {turn: 2, ttft_ms: {n: 5, mean: 15, p50: 15, p95: null}}
    ]);
    const c = w.prefix_cache!;
    // each second turn may reuse 55 of its 65 tokens: 5·55 / 5·(50 + 65)
    expect(c.bound_share).toBeCloseTo(55 / 115, 12);
    expect(c.room_share).toBeCloseTo(55 / 115, 12);
    expect([c.room_tokens, c.room_source, c.exact, c.designed, c.requests, c.cached_known]).toEqual([
      4096,
      "config",
      false,
      true,
      10,
      10
    ]);
    expect(c.measured_share).toBeCloseTo(55 / 115, 12);
    // 55 cached of 65 is beyond a template prefix (max(32, 6.5)): the second turns are the hits
    expect([c.ttft_hit_ms.n, c.ttft_miss_ms.n, c.ttft_hit_ms.mean, c.ttft_miss_ms.mean]).toEqual([5, 5, 15, 5]);
    const g = r.gates.find((x) => x.id === "G13")!;
    expect(g.status).toBe("pass");
    expect(g.reason).toBe(
      "measured 47.8 % over 10/10 requests with counts; bound 47.8 % of prompt tokens with an unbounded cache, 47.8 % with an LRU cache of the declared 4096 tokens; prompt segments ≈ 1 token per filler word"
    );
  });

  it("case requests get their own ceiling per case and tier, and their own room: a load point's is unchanged", async () => {
    // the load point: 5 shared-prefix requests of 100 tokens (80 shared + 20 own), the first two sent together
    // (2 in flight), then one after another
    const load = [0, 1, 2, 3, 4].map((i) =>
      streamed(`p${i}`, Math.max(0, i - 1) * 100, {
        index: i,
        tokens: 5,
        workload: {kind: "shared_prefix", group: 0},
        promptSegments: {
          segments: [
            [hex("aa"), 80],
            [hex(`b${i}`), 20]
          ],
          tokens: 100,
          exact: true
        },
        ...usage(100, 5, 0)
      })
    );
    // the suite after it, one at a time: two needle prompts of 64 tokens sharing header + document (10 + 40)
    // before their needles, with a 128-token prompt of its own between them
    const needle = (id: string, at: number, tier: string, segments: [string, number][]) =>
      streamed(id, at, {
        caseId: "case_10_needle",
        tier,
        point: "suite-c1",
        tokens: 5,
        promptSegments: {segments, tokens: segments.reduce((n, x) => n + x[1], 0), exact: false},
        ...usage(64, 5, null)
      });
    const cases = [
      needle("n1", 600, "64", [
        [hex("c"), 10],
        [hex("d"), 40],
        [hex("e1"), 14]
      ]),
      needle("n2", 800, "64", [
        [hex("c"), 10],
        [hex("d"), 40],
        [hex("e2"), 14]
      ]),
      needle("n3", 700, "128", [[hex("f"), 128]])
    ];
    const r = await analyzeSpec(cleanRun([...load, ...cases]));
    expect(r.issues).toEqual([]);
    const tiers = r.cases!.find((c) => c.caseId === "case_10_needle")!.tiers;
    const of = (tier: string) => tiers.find((t) => t.tier === tier)!.prefix_cache!;
    // tier 64: n1 reuses nothing, n2 the 50 tokens n1 had (its first token came before n2 was sent): 50 / 128
    expect(of("64").bound_share).toBeCloseTo(50 / 128, 12);
    expect([of("64").requests, of("64").room_tokens, of("64").room_source]).toEqual([2, 128, "in_flight"]);
    // an LRU cache of that room (128 tokens) held n3's 128 when n2 came: n1's 50 were evicted
    expect(of("64").room_share).toBe(0);
    expect(of("128").bound_share).toBe(0);
    // the suite's room is 1 in flight × its longest prompt (128), the load point's 2 × 100 (not 2 × 128)
    const c = r.load_points[0]!.workload!.prefix_cache!;
    expect(c.room_tokens).toBe(200);
    // p1 was sent before p0's first token: only p2, p3, p4 may reuse the 80 shared tokens: 240 / 500
    expect(c.bound_share).toBeCloseTo(240 / 500, 12);
    expect(r.load_points[0]!.workload!.lengths!.input_realised.n).toBe(5);
  });
});
