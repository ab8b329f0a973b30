import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest, RequestRecord, ScheduleRecord} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {collectAndAnalyze, gate, readJsonl, REPO_ROOT, tempDir, testConfig} from "../helpers.ts";

const requestsOf = (dir: string) => readJsonl<RequestRecord>(join(dir, "requests.jsonl"));

/** The test target with the fake's emulated prefix cache on (16-word blocks, LRU of 100,000 tokens). */
const CACHED_TARGET = (url: string) => ({
  base_url: url,
  model: "fake-model",
  headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2, prefixCacheTokens: 100_000})},
  timeouts: {connect_ms: 2000, headers_ms: 5000, idle_ms: 3000}
});

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

describe("workloads end to end against the fake server (issue 16)", () => {
  it("sessions: each turn sends the whole history, turns in order on one user, TTFT by turn", async () => {
    const config = testConfig(server.url, {
      target: {...CACHED_TARGET(server.url)},
      workload: {max_tokens: 4, source: {kind: "sessions", turns: 3, first_tokens: 64, turn_tokens: 16}},
      load: {mode: "concurrency", values: [2], requests: 12, warmup: 0}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    const recs = requestsOf(outcome.dir).filter((r) => r.phase === "measure");
    expect(recs).toHaveLength(12);
    for (let s = 0; s < 4; s++) {
      const turns = recs.filter((r) => r.workload?.session === s).sort((a, b) => a.workload!.turn! - b.workload!.turn!);
      expect(turns.map((r) => r.workload!.turn)).toEqual([1, 2, 3]);
      expect(turns.map((r) => r.index)).toEqual([3 * s, 3 * s + 1, 3 * s + 2]);
      // a turn starts only after the previous one ended (one user holds the conversation)
      expect(turns[1]!.tSchedNs!).toBeGreaterThanOrEqual(turns[0]!.tEndNs!);
      expect(turns[2]!.tSchedNs!).toBeGreaterThanOrEqual(turns[1]!.tEndNs!);
      // the fake counts words: turn 1 = 64; turn 2 = 64 + 4 (the answer) + 16 = 84; turn 3 = 84 + 4 + 16 = 104
      expect(turns.map((r) => r.usage?.promptTokens)).toEqual([64, 84, 104]);
      // each turn's segments extend the previous turn's and its answer: the history is shared exactly
      const [a, b, c] = turns.map((r) => r.promptSegments!.segments.map((x) => x[0]));
      expect(b!.slice(0, 1)).toEqual(a);
      expect(b![1]).toBe(turns[0]!.promptSegments!.answer![0]);
      expect(c!.slice(0, 3)).toEqual(b);
      expect(turns.map((r) => r.promptSegments!.tokens)).toEqual([64, 84, 104]);
    }
    const p = report.load_points[0]!;
    expect(p.workload?.turns.map((x) => [x.turn, x.ttft_ms.n])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4]
    ]);
    // the ceiling per conversation: turn 2 may reuse turn 1's prompt and answer (64 + 4), turn 3 turn 2's (84 + 4)
    const c = p.workload!.prefix_cache!;
    expect(c.bound_share).toBeCloseTo((68 + 88) / 252, 9);
    // the fake caches whole 16-word blocks of prompts (not answers): 64 of turn 1, 80 of turn 2
    expect(c.measured_share).toBeCloseTo((64 + 80) / 252, 9);
    expect(gate(report, "G13").status, gate(report, "G13").reason).toBe("pass");
  });

  it("shared prefix: G groups of a P-token system prompt; the hits equal the ceiling, and hits are faster", async () => {
    const config = testConfig(server.url, {
      target: {...CACHED_TARGET(server.url)},
      workload: {
        max_tokens: 4,
        prefix_cache: {block_tokens: 16},
        source: {kind: "shared_prefix", groups: 2, prefix_tokens: 64, suffix_tokens: 16, assign: "round_robin"}
      },
      load: {mode: "concurrency", values: [1], requests: 10, warmup: 0}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    const recs = requestsOf(outcome.dir).sort((a, b) => a.index - b.index);
    expect(recs.map((r) => r.workload?.group)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    // system: run salt + "g<k>" + 63 filler words = 65; user: request salt + 15 = 16
    expect(recs.every((r) => r.usage?.promptTokens === 81)).toBe(true);
    // the first request of each group misses; the 8 others share 65 tokens, 64 in whole 16-token blocks
    expect(recs.map((r) => r.usage?.cachedTokens)).toEqual([0, 0, 64, 64, 64, 64, 64, 64, 64, 64]);
    const c = report.load_points[0]!.workload!.prefix_cache!;
    expect(c.bound_share).toBeCloseTo((8 * 64) / 810, 9);
    expect(c.measured_share).toBeCloseTo((8 * 64) / 810, 9);
    expect(c.ttft_hit_ms.n).toBe(8);
    expect(c.ttft_miss_ms.n).toBe(2);
    expect(c.ttft_hit_ms.mean!).toBeLessThan(c.ttft_miss_ms.mean!);
  });

  it("the gate fires when a workload designed for hits gets none (a cache that stopped working)", async () => {
    const config = testConfig(server.url, {
      workload: {max_tokens: 4, source: {kind: "shared_prefix", groups: 1, prefix_tokens: 64, suffix_tokens: 8}},
      load: {mode: "concurrency", values: [1], requests: 6, warmup: 0}
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    const g = gate(report, "G13");
    expect(g.status).toBe("warn");
    expect(g.reason).toContain("far fewer cache hits than the workload allows: measured 0.0 %");
    expect(report.verdict).toBe("INCONCLUSIVE");
  });

  it("trace: sent at the trace's timestamps over the replay speed, with its lengths and shared blocks", async () => {
    const trace = join(t.dir, "trace.jsonl");
    const lines = [
      {timestamp: 0, input_length: 40, output_length: 3, hash_ids: [1, 2]},
      {timestamp: 100, input_length: 50, output_length: 4, hash_ids: [1, 3]},
      {timestamp: 150, input_length: 40, output_length: 5, hash_ids: [1, 2]},
      {timestamp: 400, input_length: 10, output_length: 2, hash_ids: [9]},
      {timestamp: 600, input_length: 45, output_length: 3, hash_ids: [1, 2]}
    ];
    writeFileSync(trace, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const config = testConfig(server.url, {
      workload: {source: {kind: "trace", path: trace, block_tokens: 20}, ignore_eos: true},
      load: {mode: "trace", values: [2], requests: 4, warmup: 1},
      gates: {min_samples: 5}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    const recs = requestsOf(outcome.dir);
    const measured = recs.filter((r) => r.phase === "measure").sort((a, b) => a.index - b.index);
    // the warmup sends line 1, the measured requests lines 2–5
    expect(recs.filter((r) => r.phase === "warmup").map((r) => r.workload?.item)).toEqual([0]);
    expect(measured.map((r) => r.workload?.item)).toEqual([1, 2, 3, 4]);
    expect(measured.map((r) => r.maxTokens)).toEqual([4, 5, 2, 3]);
    expect(measured.map((r) => r.usage?.promptTokens)).toEqual([50, 40, 10, 45]);
    // offsets from line 2 at 2× speed: (100, 150, 400, 600 − 100) / 2 ms
    const sched = readJsonl<ScheduleRecord>(join(outcome.dir, "schedule.jsonl")).filter((s) => s.phase === "measure");
    expect(sched.map((s) => s.offsetNs)).toEqual([0, 25e6, 150e6, 250e6]);
    // lines sharing hash_ids [1, 2] share both blocks (and line 2 shares block 1 only)
    const seg = measured.map((r) => r.promptSegments!.segments.map((x) => x[0]));
    const warm = recs.find((r) => r.phase === "warmup")!.promptSegments!.segments.map((x) => x[0]);
    expect(seg[1]).toEqual(warm);
    expect(seg[3]![0]).toBe(warm[0]);
    expect(seg[0]![0]).toBe(warm[0]);
    expect(seg[0]![1]).not.toBe(warm[1]);
    expect(measured[3]!.promptSegments!.segments.map((x) => x[1])).toEqual([20, 25]);
    const manifest = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as Manifest;
    expect(manifest.workload?.kind).toBe("trace");
    expect(manifest.workload?.file?.items).toBe(5);
    expect(manifest.workload?.file?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(gate(report, "G21").status, gate(report, "G21").reason).toBe("pass");
  });

  it("dataset: the shipped JSONL sampled with a seed; its sha256 and item per request recorded", async () => {
    const config = testConfig(server.url, {
      workload: {
        ignore_eos: true,
        source: {
          kind: "dataset",
          path: join(REPO_ROOT, "configs/datasets/inferscope-mini.jsonl"),
          format: "jsonl",
          output_tokens: 6
        }
      },
      load: {mode: "concurrency", values: [2], requests: 10, warmup: 0}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    const recs = requestsOf(outcome.dir);
    const items = recs.map((r) => r.workload!.item!);
    expect(new Set(items).size).toBe(10); // a permutation: no item twice within one pass of 48
    expect(recs.every((r) => r.maxTokens === 6 && r.salt !== null)).toBe(true);
    const manifest = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as Manifest;
    expect(manifest.workload?.file?.items).toBe(48);
    expect(report.load_points[0]!.workload?.lengths?.output_realised.mean).toBe(6);
  });

  it("reasoning model: time to first reasoning and answer token, the token split, cut-off answers gated", async () => {
    const target = (o: Record<string, unknown>) => ({
      ...CACHED_TARGET(server.url),
      headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2, reasoning: "reasoning_content", ...o})}
    });
    const load = {mode: "concurrency" as const, values: [1], requests: 6, warmup: 0};
    const ok = await collectAndAnalyze(
      testConfig(server.url, {target: target({reasoningTokens: 4}), workload: {max_tokens: 10}, load}),
      t.dir
    );
    const p = ok.report.load_points[0]!.metrics;
    const p50 = (id: string) => (p[id] as {p50: number | null}).p50;
    // the fake streams 4 reasoning tokens, then the answer: 10 in all, 2 ms apart after a 5 ms TTFT
    expect([p50("reasoning_tokens"), p50("answer_tokens")]).toEqual([4, 6]);
    expect(p50("ttft_reasoning_ms")!).toBeLessThan(p50("ttft_content_ms")!);
    expect(p50("ttft_content_ms")! - p50("ttft_reasoning_ms")!).toBeGreaterThanOrEqual(4 * 2 - 1);
    expect(gate(ok.report, "G31").status).toBe("pass");
    const cut = await collectAndAnalyze(
      testConfig(server.url, {target: target({reasoningTokens: 12}), workload: {max_tokens: 8}, load}),
      t.dir
    );
    expect(gate(cut.report, "G31").status).toBe("warn");
    expect(gate(cut.report, "G31").reason).toMatch(
      /^6\/6 reasoning requests stopped at max_tokens before their first answer token/
    );
  });

  it("the case suite's multi-turn case builds its conversation with the sessions machinery (history and segments)", async () => {
    const config = testConfig(server.url, {
      load: {mode: "concurrency", values: [1], requests: 5, warmup: 0},
      suites: ["case_07_multi_turn"],
      suite_options: {repeats: 1, rounds: 3}
    });
    const {outcome} = await collectAndAnalyze(config, t.dir);
    const turns = requestsOf(outcome.dir).filter((r) => r.caseId === "case_07_multi_turn");
    expect(turns.map((r) => r.workload?.turn)).toEqual([1, 2, 3]);
    const seg = turns.map((r) => r.promptSegments!.segments.map((x) => x[0]));
    // each turn sends the history: its segments extend the previous turn's (question, answer, next question)
    expect(seg[1]!.slice(0, seg[0]!.length)).toEqual(seg[0]);
    expect(seg[2]!.slice(0, seg[1]!.length)).toEqual(seg[1]);
    expect(seg.map((x) => x.length)).toEqual([seg[0]!.length, seg[0]!.length + 2, seg[0]!.length + 4]);
  });
});
