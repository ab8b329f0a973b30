import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import type {RequestRecord} from "../../../src/analysis/schema/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {shardArgs} from "../../../collector/commands/workers.ts";
import {lastLine, manifestOf, readJsonl, runCli as run, tempDir, writeConfig} from "../helpers.ts";

/**
 * Issue 17: a multi-turn workload split over shards deals whole conversations — conversation s (requests
 * 3s … 3s + 2) to shard s mod 2 — so that every turn still sends the history its own shard built.
 */

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

/** 4 conversations of 3 turns (12 requests) on 2 users; 64 words first, 16 a later turn, 4-token answers. */
const config = (requests = 12) => ({
  name: "shard-sessions",
  target: {
    base_url: server.url,
    model: "fake-model",
    headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2})}
  },
  workload: {max_tokens: 4, source: {kind: "sessions", turns: 3, first_tokens: 64, turn_tokens: 16}},
  load: {mode: "concurrency", values: [2], requests, warmup: 0},
  telemetry: {gpu: "off", server_metrics: "auto", interval_ms: 200},
  slo: {percentile: "p50"},
  gates: {min_samples: 5}
});

const measured = (dir: string) =>
  readJsonl<RequestRecord>(join(dir, "requests.jsonl")).filter((r) => r.phase === "measure");

describe("a sessions experiment over 2 shards (issue 17)", () => {
  it("deals whole conversations, each turn with its history, and merges to every request once", async () => {
    const cfg = writeConfig(t.dir, "sessions.yaml", config());
    const startAt = String(Date.now() + 6000);
    const shards = await Promise.all(
      [0, 1].map((k) => run(shardArgs({config: cfg, out: join(t.dir, "shards"), k, n: 2, startAt})))
    );
    for (const s of shards) expect([0, 4], s.stderr).toContain(s.code);
    const dirs = shards.map((s) => lastLine(s.stdout));
    for (const [k, dir] of dirs.entries()) {
      expect(manifestOf(dir).shard).toMatchObject({index: k, count: 2, group: 3});
      const recs = measured(dir);
      // shard 0: conversations 0 and 2 (requests 0–2, 6–8); shard 1: conversations 1 and 3 (3–5, 9–11)
      expect(recs.map((r) => r.index).sort((a, b) => a - b)).toEqual(
        k === 0 ? [0, 1, 2, 6, 7, 8] : [3, 4, 5, 9, 10, 11]
      );
      for (const s of k === 0 ? [0, 2] : [1, 3]) {
        const turns = recs
          .filter((r) => r.workload?.session === s)
          .sort((a, b) => a.workload!.turn! - b.workload!.turn!);
        expect(turns.map((r) => r.workload!.turn)).toEqual([1, 2, 3]);
        // the fake counts words: 64; 64 + 4 (the answer) + 16 = 84; 84 + 4 + 16 = 104 — the history came along
        expect(turns.map((r) => r.usage?.promptTokens)).toEqual([64, 84, 104]);
        expect(turns[1]!.tSchedNs!).toBeGreaterThanOrEqual(turns[0]!.tEndNs!);
      }
    }

    const merged = await run(["merge", ...dirs, "--out", join(t.dir, "merged")]);
    expect(merged.code, merged.stderr).not.toBe(2);
    const mergedDir = lastLine(merged.stdout);
    expect(manifestOf(mergedDir).merge).toMatchObject({count: 2, group: 3});
    const recs = measured(mergedDir);
    expect(recs.map((r) => r.index).sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    expect(recs.every((r) => r.shard === Math.floor(r.index / 3) % 2)).toBe(true);
    const report = await analyzeBundle(fsBundle(mergedDir));
    const g30 = report.gates.find((g) => g.id === "G30")!;
    expect(g30.status, g30.reason).toBe("pass");
    expect(g30.reason).toBe("12 measured requests planned, 12 recorded");
    expect(report.load_points[0]!.workload?.turns.map((x) => [x.turn, x.ttft_ms.n])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4]
    ]);
  }, 90_000);

  it("refuses more shards than conversations, naming the numbers", async () => {
    const cfg = writeConfig(t.dir, "few.yaml", config(6));
    const r = await run(["collect", "--config", cfg, "--shard", "0/3", "--start-at", String(Date.now() + 5000)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "load[0]: 2 conversation(s) (requests 6 / turns 3) for 3 shards: a conversation is never split, so a shard would measure nothing"
    );
  }, 30_000);
});
