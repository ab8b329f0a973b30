import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {collectRun, type CollectRunOptions} from "../../scripts/engine/collectRun.ts";
import {ensureEngine, type Engine} from "../../scripts/engine/engine.ts";
import {startLlamaServer, type LlamaServerHandle} from "../../scripts/engine/supervisor.ts";
import {analyzeBundle, type Report} from "../../src/analysis/index.ts";
import type {RequestRecord} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";

/**
 * Issue 16's workloads against the real llama.cpp server (tiny random-weight model, 2 slots, each keeping
 * its prompt cache): shared prefixes and conversations hit the slots' caches within the ceiling the
 * analyzer computes, and an honest finite cache is not flagged; /v1/completions with a length
 * distribution; a Mooncake-style trace scaled to the engine's short context. Runs when llama-server is on
 * PATH or cached, or builds it with INFERSCOPE_BUILD_ENGINE=1 (.ci/run sets it).
 */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const skip = (await findLlamaServer()) === undefined && !build;
if (skip)
  console.warn(
    "skipping test/engine/realWorkloads.serial.test.ts: no llama-server on PATH or in the cache; set INFERSCOPE_BUILD_ENGINE=1 to build it"
  );

const threads = Math.max(1, availableParallelism() - 1);
const out = mkdtempSync(join(tmpdir(), "inferscope-real-wl-"));
const ROOT = new URL("../../", import.meta.url).pathname;

interface Run {
  report: Report;
  records: RequestRecord[];
}

const readRecords = (dir: string): RequestRecord[] =>
  readFileSync(join(dir, "requests.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RequestRecord);

describe.skipIf(skip)("workloads against the real llama-server (issue 16)", () => {
  let engine: Engine;
  let server: LlamaServerHandle;
  const runs = new Map<string, Run>();
  const run = async (name: string, o: Pick<CollectRunOptions, "workload" | "load" | "endpoint">): Promise<Run> => {
    const r = await collectRun({
      engine,
      server,
      parallel: 2,
      threads,
      name,
      outDir: out,
      configPath: join(out, `${name}.yaml`),
      ...o
    });
    expect(r.bundle, `collector exit ${r.code}:\n${r.stdout}`).not.toBeNull();
    const res = {report: await analyzeBundle(fsBundle(r.bundle!)), records: readRecords(r.bundle!)};
    runs.set(name, res);
    return res;
  };
  const gate = (r: Report, id: string) => r.gates.find((g) => g.id === id)!;

  beforeAll(async () => {
    engine = await ensureEngine({preset: "tiny", seed: 1, build});
    server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      parallel: 2,
      ctxPerSlot: 1024,
      threads,
      alias: `random-${engine.info.preset}`,
      niceness: 10
    });
    await run("wl-shared-prefix", {
      workload: {
        max_tokens: 8,
        temperature: 0,
        source: {kind: "shared_prefix", groups: 2, prefix_tokens: 200, suffix_tokens: 24, assign: "round_robin"}
      },
      load: [{mode: "concurrency", values: [1], requests: 12, warmup: 0}]
    });
    await run("wl-sessions", {
      workload: {
        max_tokens: 8,
        temperature: 0,
        source: {kind: "sessions", turns: 3, first_tokens: 128, turn_tokens: 24}
      },
      load: [{mode: "concurrency", values: [2], requests: 12, warmup: 0}]
    });
    await run("wl-completions", {
      endpoint: "completions",
      workload: {max_tokens: 16, input_tokens: {dist: "uniform", min: 64, max: 160}},
      load: [{mode: "concurrency", values: [2], requests: 10, warmup: 0}]
    });
    await run("wl-dataset", {
      workload: {
        max_tokens: 12,
        source: {
          kind: "dataset",
          path: join(ROOT, "configs/datasets/inferscope-mini.jsonl"),
          format: "jsonl",
          output_tokens: 12
        }
      },
      load: [{mode: "concurrency", values: [2], requests: 12, warmup: 0}]
    });
    await run("wl-trace", {
      workload: {
        max_tokens: 16,
        source: {kind: "trace", path: join(ROOT, "configs/traces/inferscope-mini-trace.jsonl"), length_scale: 1 / 16}
      },
      load: [{mode: "trace", values: [4], requests: 16, warmup: 0}]
    });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(out, {recursive: true, force: true});
  });

  it("shared prefix: the slots' prompt cache serves the shared system prompt, within the ceiling, not flagged", () => {
    const {report, records} = runs.get("wl-shared-prefix")!;
    const c = report.load_points[0]!.workload!.prefix_cache!;
    // 2 groups in turn: the first request of each misses, the other 10 may reuse the ~201-token prefix
    expect(c.bound_share!).toBeGreaterThan(0.5);
    const hits = records.filter((r) => (r.usage?.cachedTokens ?? 0) > 100);
    expect(hits.length).toBeGreaterThanOrEqual(8);
    expect(c.measured_share!).toBeGreaterThan(0.5 * c.room_share!);
    expect(gate(report, "G13").status, gate(report, "G13").reason).toBe("pass");
    expect(c.ttft_hit_ms.n).toBeGreaterThanOrEqual(8);
  });

  it("sessions: turns in order with the whole history; later turns hit the cache; TTFT by turn", () => {
    const {report, records} = runs.get("wl-sessions")!;
    for (let s = 0; s < 4; s++) {
      const turns = records
        .filter((r) => r.workload?.session === s)
        .sort((a, b) => a.workload!.turn! - b.workload!.turn!);
      expect(turns.map((r) => r.workload!.turn)).toEqual([1, 2, 3]);
      expect(turns[1]!.tSchedNs!).toBeGreaterThanOrEqual(turns[0]!.tEndNs!);
      // the prompt grows by the answer and the next message each turn
      expect(turns[1]!.usage!.promptTokens!).toBeGreaterThan(turns[0]!.usage!.promptTokens!);
      expect(turns[2]!.usage!.promptTokens!).toBeGreaterThan(turns[1]!.usage!.promptTokens!);
    }
    expect(report.load_points[0]!.workload!.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(gate(report, "G13").status, gate(report, "G13").reason).toBe("pass");
    expect(report.load_points[0]!.workload!.prefix_cache!.measured_share!).toBeGreaterThan(0);
  });

  it("completions endpoint with a length distribution: realised prompt lengths follow the requested ones", () => {
    const {report, records} = runs.get("wl-completions")!;
    expect(records.every((r) => r.httpStatus === 200 && r.maxTokens === 16)).toBe(true);
    const asked = records.map((r) => r.promptTokensIntended!);
    expect(Math.min(...asked)).toBeGreaterThanOrEqual(64);
    expect(Math.max(...asked)).toBeLessThanOrEqual(160);
    expect(new Set(asked).size).toBeGreaterThan(3);
    expect(gate(report, "G12").status, gate(report, "G12").reason).toBe("pass");
    const l = report.load_points[0]!.workload!.lengths!;
    expect(Math.abs(l.input_realised.mean! / l.input_requested.mean! - 1)).toBeLessThan(0.1);
  });

  it("trace: replayed on its timestamps at 4× with scaled lengths; requests sharing hash_ids share blocks", () => {
    const {report, records} = runs.get("wl-trace")!;
    expect(records).toHaveLength(16);
    const c = report.load_points[0]!.workload!.prefix_cache!;
    expect(c.bound_share!).toBeGreaterThan(0);
    expect(gate(report, "G13").status, gate(report, "G13").reason).not.toBe("not_evaluable");
    expect(c.measured_share!).toBeLessThanOrEqual(c.bound_share! + 0.1);
    expect(report.load_points[0]!.mode).toBe("trace");
  });

  it("dataset: the shipped prompts, each behind its own salt: a cold workload with no hits beyond a template prefix", () => {
    const {report, records} = runs.get("wl-dataset")!;
    expect(records).toHaveLength(12);
    expect(new Set(records.map((r) => r.workload!.item)).size).toBe(12);
    expect(records.every((r) => r.httpStatus === 200 && r.salt !== null && r.maxTokens === 12)).toBe(true);
    const c = report.load_points[0]!.workload!.prefix_cache!;
    expect(c.bound_share).toBe(0);
    expect(gate(report, "G13").status, gate(report, "G13").reason).toBe("pass");
  });
});
