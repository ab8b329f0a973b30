import {existsSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import {FILE_NAMES, type RequestRecord} from "../../../src/analysis/schema/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {barrierRequired, shardProblem} from "../../../collector/run/shard.ts";
import {RunConfigSpec} from "../../../src/analysis/schema/config.ts";
import {gate, lastLine, manifestOf, readJsonl, runCli as run, tempDir, writeConfig} from "../helpers.ts";

/**
 * Issue 17: a case suite in a sharded experiment. Shard 0 alone sends it, after every shard's load has ended
 * (a barrier), and the merge takes its requests and raw answers from shard 0.
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

/**
 * Constant rate 2 req/s, 4 measured requests: ordinals 0…3 are scheduled at 0, 500, 1000 and 1500 ms, so
 * shard 0 of 2 (ordinals 0, 2) is done with its load ~500 ms before shard 1 (1, 3). Each answer takes ~36 ms
 * (20 ms to the first token, 8 tokens 2 ms apart). The suite: case_07's conversation of 3 rounds.
 */
const config = () => ({
  name: "shard-suite",
  target: {
    base_url: server.url,
    model: "fake-model",
    headers: {"x-fake-options": JSON.stringify({ttftMs: 20, tokenIntervalMs: 2})}
  },
  workload: {prompt_tokens: 16, max_tokens: 8},
  load: {mode: "rate", values: [2], requests: 4, warmup: 0, seed: 3},
  telemetry: {gpu: "off", server_metrics: "auto", interval_ms: 200},
  slo: {percentile: "p50"},
  gates: {min_samples: 5},
  suites: ["case_07_multi_turn"],
  suite_options: {repeats: 1, rounds: 3}
});

const requestsOf = (dir: string) => readJsonl<RequestRecord>(join(dir, FILE_NAMES.requests));

describe("a case suite over shards (issue 17)", () => {
  it("is refused without a barrier folder, as the shard's own check and on the command line", async () => {
    const parsed = RunConfigSpec.parse(config());
    // nothing about the suite makes the config unshardable any more…
    expect(shardProblem(parsed as never, 2)).toBeNull();
    // …but shard 0 can only tell that the others' load has ended through the barrier folder
    expect(barrierRequired(parsed as never, 2, false, "--barrier-dir")).toMatch(
      /^suites: a case suite over shards needs --barrier-dir/
    );
    expect(barrierRequired(parsed as never, 2, true, "--barrier-dir")).toBeNull();
    expect(barrierRequired(parsed as never, 1, false, "--barrier-dir")).toBeNull();
    const cfg = writeConfig(t.dir, "no-barrier.yaml", config());
    const r = await run([
      "collect",
      "--config",
      cfg,
      "--out",
      join(t.dir, "nb"),
      "--shard",
      "0/2",
      "--start-at",
      String(Date.now() + 60_000)
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--shard: suites: a case suite over shards needs --barrier-dir/);
    expect(existsSync(join(t.dir, "nb"))).toBe(false);
  }, 30_000);

  it("runs on shard 0 once every shard's load has ended, and the merged bundle scores it", async () => {
    const cfg = writeConfig(t.dir, "suite.yaml", config());
    const out = join(t.dir, "workers");
    const r = await run([
      "collect",
      "--config",
      cfg,
      "--out",
      out,
      "--workers",
      "2",
      "--start-at",
      String(Date.now() + 6000)
    ]);
    expect([0, 4], r.stderr).toContain(r.code);
    const dir = lastLine(r.stdout);
    const m = manifestOf(dir);
    expect(m.merge!.count).toBe(2);
    const shardDirs = m.merge!.shards.map((s) => join(out, "shards", s.bundleId));

    // shard 0 sent the 3 rounds and wrote their answers; shard 1 sent none and has no answers file
    const own = shardDirs.map((d) => requestsOf(d).filter((q) => q.caseId !== undefined).length);
    expect(own).toEqual([3, 0]);
    expect(manifestOf(shardDirs[1]!).files.map((f) => f.path)).not.toContain(FILE_NAMES.quality);
    expect(m.files.map((f) => f.path)).toContain(FILE_NAMES.quality);
    expect(readJsonl(join(dir, FILE_NAMES.quality))).toHaveLength(3);

    // on the merged timeline the suite's first request starts after the last load request of either shard
    // ended (shard 1's last is scheduled 500 ms after shard 0's: without the wait the suite would overlap it)
    const merged = requestsOf(dir);
    const load = merged.filter((q) => q.caseId === undefined);
    const suite = merged.filter((q) => q.caseId !== undefined);
    expect(load.map((q) => q.shard).sort()).toEqual([0, 0, 1, 1]);
    expect(suite.map((q) => q.shard)).toEqual([0, 0, 0]);
    const lastLoadEnd = Math.max(...load.map((q) => q.tEndNs!));
    const firstSuiteCall = Math.min(...suite.map((q) => q.tCallNs!));
    expect(firstSuiteCall).toBeGreaterThan(lastLoadEnd);
    // both shards met at the suite's barrier
    for (const d of shardDirs) {
      const notes = readJsonl<{event: string; point: string | null}>(join(d, FILE_NAMES.client_metrics));
      expect(notes.filter((n) => n.event === "barrier" && n.point === "suite")).toHaveLength(1);
    }

    const report = await analyzeBundle(fsBundle(dir));
    expect(gate(report, "G30").reason).toBe("4 measured requests planned, 4 recorded");
    const cases = report.cases as {caseId: string; tiers: {n: number}[]}[] | undefined;
    const c7 = cases?.find((c) => c.caseId === "case_07_multi_turn");
    expect(c7).toBeDefined();
    expect(c7!.tiers.reduce((a, x) => a + x.n, 0)).toBe(3);
  }, 60_000);
});
