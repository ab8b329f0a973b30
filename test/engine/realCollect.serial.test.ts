import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {collectRun} from "../../scripts/engine/collectRun.ts";
import {ensureEngine, type Engine} from "../../scripts/engine/engine.ts";
import {startLlamaServer} from "../../scripts/engine/supervisor.ts";
import {analyzeBundle, deriveRequest, isSummary, metricById, type Report} from "../../src/analysis/index.ts";
import type {RequestMetric, RequestRecord} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";

/**
 * The collector and analyzer against the real llama.cpp server (tiny random-weight model): runs when
 * llama-server is on PATH or cached, or builds it with INFERSCOPE_BUILD_ENGINE=1 (.ci/run sets it).
 */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const skip = (await findLlamaServer()) === undefined && !build;
if (skip)
  console.warn(
    "skipping test/engine/realCollect.serial.test.ts: no llama-server on PATH or in the cache; set INFERSCOPE_BUILD_ENGINE=1 to build it"
  );

const threads = Math.max(1, availableParallelism() - 1);
/** Verdict reasons about the client itself (client health, dispatches behind schedule). */
const clientOnly = (reason: string): boolean => reason.startsWith("G6 ") || reason.startsWith("G21 ");
const out = mkdtempSync(join(tmpdir(), "inferscope-real-"));

async function collect(engine: Engine, name: string): Promise<{report: Report; code: number; dir: string}> {
  const server = await startLlamaServer({
    binary: engine.binary.path,
    model: engine.model.path,
    parallel: 2,
    ctxPerSlot: 1024,
    threads,
    alias: `random-${engine.info.preset}`,
    niceness: 10
  });
  try {
    const run = await collectRun({
      engine,
      server,
      parallel: 2,
      threads,
      name,
      outDir: out,
      configPath: join(out, `${name}.yaml`),
      workload: {prompt_tokens: 128, max_tokens: 48},
      load: [
        {mode: "concurrency", values: [1, 2], requests: 24, warmup: 2},
        {mode: "poisson", values: [4], requests: 24, warmup: 2, seed: 7}
      ],
      // the engine shares this machine's 2 cores with the collector: a closed loop's gap between one request's
      // end and the next one's start (client time) took 5 % of concurrency-1 once in the fresh-clone CI (mean
      // 0.95 of 1 in flight, G5's default floor); the achieved-load gate has its own tests
      gates: {min_achieved_load: 0.85}
    });
    expect(run.bundle, `collector exit ${run.code}:\n${run.stdout}`).not.toBeNull();
    return {report: await analyzeBundle(fsBundle(run.bundle!)), code: run.code, dir: run.bundle!};
  } finally {
    await server.stop();
  }
}

describe.skipIf(skip)("collector against the real llama-server (tiny preset)", () => {
  let healthy: {report: Report; code: number; dir: string};
  let dropping: {report: Report; code: number; dir: string};

  beforeAll(async () => {
    const engine = await ensureEngine({preset: "tiny", seed: 1, build});
    healthy = await collect(engine, "real-healthy");
    // Client health (G6) measures this machine, not the product: when a shared CI box starves the
    // collector, the run is honestly INCONCLUSIVE. Collect once more before judging the product.
    if (healthy.report.verdict_reasons.length > 0 && healthy.report.verdict_reasons.every(clientOnly)) {
      console.warn(
        `real-engine run was INCONCLUSIVE on client health only, collecting again: ${healthy.report.verdict_reasons.join("; ")}`
      );
      healthy = await collect(engine, "real-healthy-2");
    }
    // The fault is random: a lone byte token is sampled in ~4 % of requests (temperature 0.8, salted
    // prompts), so a run of 78 requests has none ~5 % of the time. Collect again (at most 3 more times:
    // all four clean ≈ 6·10⁻⁶) rather than judge a run in which the fault never happened.
    const faulty = await ensureEngine({preset: "tiny", seed: 1, build, keepByteTokens: true});
    dropping = await collect(faulty, "real-bytetokens");
    for (let k = 2; k <= 4 && dropping.report.load_points.every((p) => p.n_success === p.n); k++) {
      console.warn(
        `no byte token was sampled in ${dropping.report.load_points.length} load points: collecting again (${k} of 4)`
      );
      dropping = await collect(faulty, `real-bytetokens-${k}`);
    }
  }, 45 * 60_000);

  afterAll(() => rmSync(out, {recursive: true, force: true}));

  it("classifies every request and counts tokens from the server's usage", () => {
    const requests = readFileSync(join(healthy.dir, "requests.jsonl"), "utf8").trim().split("\n");
    // 3 points × (24 measured + 2 warmup)
    expect(requests).toHaveLength(78);
    for (const p of healthy.report.load_points) {
      expect(p.n).toBe(24);
      expect(Object.values(p.outcomes).reduce((a, b) => a + b, 0)).toBe(24);
      expect(p.usage_sources).toEqual({server_final: p.n_success});
    }
  });

  it("reports TTFT, decode and prefill speed for every load point", () => {
    for (const p of healthy.report.load_points)
      for (const id of ["ttft_ms", "decode_tok_s", "prefill_tok_s", "tpot_ms"]) {
        const m = p.metrics[id]!;
        if (!isSummary(m)) throw new Error(`${id} should be a distribution`);
        expect(m.p50, `${p.id} ${id}`).toBeGreaterThan(0);
      }
  });

  it("agrees with llama-server's own timings for the same requests, within stated tolerances", () => {
    const records = readFileSync(join(healthy.dir, "requests.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RequestRecord)
      .filter((r) => r.phase === "measure" && r.point === "concurrency-1");
    const value = (id: string, r: RequestRecord) => (metricById(id) as RequestMetric).value(deriveRequest(r));
    const median = (xs: number[]) => {
      const a = [...xs].sort((x, y) => x - y);
      return a.length % 2 ? a[(a.length - 1) / 2]! : (a[a.length / 2 - 1]! + a[a.length / 2]!) / 2;
    };
    const decode: number[] = [];
    const prefill: number[] = [];
    for (const r of records) {
      const t = r.serverTimings;
      expect(t, r.id).not.toBeNull();
      const n = r.usage!.completionTokens!;
      expect(t!.predictedN, r.id).toBe(n); // the same token count on both sides
      // decode: the server's predicted_per_second counts n tokens over the n − 1 steps after the first, ours
      // (n − 1) over the client's first-to-last token span, so ours reads (n − 1)/n of it (reference-engine.md
      // §9). The spans differ only by how late the first and last chunks reach the client: ±15 % on the
      // median at concurrency 1 allows a few ms of delivery jitter on a busy 2-core machine.
      decode.push(value("decode_tok_s", r)! / (((n - 1) / n) * value("server_decode_tok_s", r)!));
      // prefill: our span (request written → first token) contains the server's prompt time plus its HTTP
      // handling, tokenization, the first sampling step and the network, so ours can never be faster.
      prefill.push(value("prefill_tok_s", r)! / value("server_prefill_tok_s", r)!);
      // TTFT from dispatch covers the server's prompt processing (1 ms of clock granularity allowed)
      expect(value("ttft_dispatch_ms", r)!, r.id).toBeGreaterThanOrEqual(t!.promptMs! - 1);
    }
    expect(median(decode)).toBeGreaterThan(0.85);
    expect(median(decode)).toBeLessThan(1.15);
    expect(Math.max(...prefill)).toBeLessThan(1.05);
    expect(median(prefill)).toBeGreaterThan(0.05); // not wildly off: the same prompt, on the same clock
    console.info(
      `real engine vs its own timings (concurrency 1): decode ratio median ${median(decode).toFixed(3)} of (n−1)/n × server; prefill ratio median ${median(prefill).toFixed(3)}, max ${Math.max(...prefill).toFixed(3)}`
    );
  });

  it("gives a healthy run a VALID verdict, unless this machine's own load made the client late", () => {
    // What holds on a busy machine: every gate about the server and the evidence passes; only the gates
    // that judge the client (G6 client health, G21 arrival fidelity: dispatches behind schedule) may say the
    // collector was starved, and then the run is honestly INCONCLUSIVE (exit 4), never INVALID.
    const reasons = healthy.report.verdict_reasons;
    expect(
      reasons.filter((r) => !clientOnly(r)),
      reasons.join("\n")
    ).toEqual([]);
    if (reasons.length === 0) {
      expect(healthy.report.verdict).toBe("VALID");
      expect(healthy.code).toBe(0);
    } else {
      console.warn(`real-engine run INCONCLUSIVE on client health only (a busy machine): ${reasons.join("; ")}`);
      expect(healthy.report.verdict).toBe("INCONCLUSIVE");
      expect(healthy.code).toBe(4);
    }
  });

  it("is not VALID when byte tokens make the server drop streams, and says why", () => {
    expect(dropping.report.verdict).toBe("INVALID");
    expect(dropping.code).toBe(4);
    const g3 = dropping.report.gates.find((g) => g.id === "G3")!;
    expect(g3.status).toBe("fail");
    // This llama.cpp build reports the invalid UTF-8 as an error event inside the 200 stream and ends it
    // without [DONE]; older builds just closed the stream (truncated_stream). Either is a failure.
    const failures = dropping.report.load_points.flatMap((p) => p.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) {
      expect(["inband_error", "truncated_stream"]).toContain(f.outcome);
      // the server's own error text is kept as evidence
      if (f.outcome === "inband_error") expect(f.message).toMatch(/in-band error event: /);
    }
    expect(g3.reason).toMatch(/failed/);
  });
});
