import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {stringify as toYaml} from "yaml";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {CPU_SUITE, engineRunConfig} from "../../scripts/engine/collectRun.ts";
import {ensureEngine} from "../../scripts/engine/engine.ts";
import {startLlamaServer, type LlamaServerHandle} from "../../scripts/engine/supervisor.ts";
import {analyzeBundle, CASE_IDS, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {spawnCli} from "../collector/helpers.ts";

/**
 * The whole case suite (case_01 … case_11 and GSM8K, quality under load too) against the real llama.cpp
 * server with the tiny random-weight model: runs when llama-server is on PATH or cached, or builds it with
 * INFERSCOPE_BUILD_ENGINE=1 (.ci/run sets it). Random weights: quality is near zero by construction.
 */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const skip = (await findLlamaServer()) === undefined && !build;
if (skip)
  console.warn(
    "skipping test/cases/realSuite.serial.test.ts: no llama-server on PATH or in the cache; set INFERSCOPE_BUILD_ENGINE=1 to build it"
  );

const threads = Math.max(1, availableParallelism() - 1);
const out = mkdtempSync(join(tmpdir(), "inferscope-real-suite-"));

describe.skipIf(skip)("the case suite against the real llama-server (tiny preset, random weights)", () => {
  let server: LlamaServerHandle;
  let report: Report;
  let code: number | null;
  let stderr: string;
  let html: string;
  let seconds: number;

  beforeAll(async () => {
    const engine = await ensureEngine({preset: "tiny", seed: 1, build});
    server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      parallel: 2,
      ctxPerSlot: 4096,
      threads,
      alias: `random-${engine.info.preset}`,
      niceness: 10
    });
    const config = {
      ...engineRunConfig({
        engine,
        server,
        parallel: 2,
        threads,
        name: "real-suite",
        workload: {prompt_tokens: 128, max_tokens: 32},
        load: [{mode: "concurrency", values: [2], requests: 20, warmup: 2}]
      }),
      // the suite sized for the CPU engine, as `npm run demo -- --suite` runs it, on 10 GSM8K items
      suites: CPU_SUITE.suites,
      suite_options: {...CPU_SUITE.suiteOptions, gsm8k: {...CPU_SUITE.suiteOptions.gsm8k, limit: 10}}
    };
    const path = join(out, "real-suite.yaml");
    writeFileSync(path, toYaml(config));
    const t0 = performance.now();
    const c = spawnCli(["collect", "--config", path, "--out", out, "--no-progress"]);
    code = (await c.exit).code;
    seconds = (performance.now() - t0) / 1000;
    stderr = c.stderr();
    const bundle = c.stdout().trim().split("\n").at(-1)!;
    report = await analyzeBundle(fsBundle(bundle));
    const r = spawnCli(["report", bundle, "--out", join(out, "report.html")]);
    expect((await r.exit).code, r.stderr()).toBe(0);
    html = readFileSync(join(out, "report.html"), "utf8");
  }, 45 * 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(out, {recursive: true, force: true});
  });

  it("completes without errors: every case request got a complete answer", () => {
    expect([0, 4], stderr).toContain(code);
    expect(report.status).toBe("complete");
    expect(report.issues.filter((i) => i.severity === "error")).toEqual([]);
    console.info(`real-engine suite: ${seconds.toFixed(0)} s, load verdict ${report.verdict}`);
    const ids = report.cases!.map((c) => c.caseId);
    expect(ids).toEqual([...CASE_IDS].sort());
    for (const c of report.cases!)
      for (const t of c.tiers)
        expect([c.caseId, t.tier, t.point, t.n_success], JSON.stringify(t.finish_reasons)).toEqual([
          c.caseId,
          t.tier,
          t.point,
          t.n
        ]);
  });

  it("shows every tier with the stated tier, and the server-side token counts", () => {
    const c = (id: string) => report.cases!.find((x) => x.caseId === id)!;
    expect(c("case_05_long_context").tiers.map((t) => t.tier)).toEqual(["256", "512", "1024"]);
    expect(c("case_09_prefill_injection").headlineTier).toBe("2048");
    expect(c("case_08_concurrency").tiers.map((t) => [t.tier, t.point, t.n])).toEqual([
      ["1", "suite-c1", 5],
      ["2", "suite-c2", 10],
      ["4", "suite-c4", 20]
    ]);
    expect(c("case_07_multi_turn").headlineTier).toBe("3");
    // the prefill tiers' prompts were sized with the server's tokenizer: usage agrees within the chat template
    for (const t of c("case_09_prefill_injection").tiers) {
      const tokens = t.metrics.input_tokens!.mean!;
      expect(Math.abs(tokens - Number(t.tier)) / Number(t.tier), `${t.tier}: ${tokens}`).toBeLessThan(0.1);
    }
    for (const t of c("case_01_generation").tiers) expect(t.metrics.decode_tok_s!.p50).toBeGreaterThan(0);
  });

  it("scores every quality case idle and under load; random weights score near zero", () => {
    const g = report.quality_summary!.groups[0]!;
    expect(g.current).toBe(true);
    const q = (id: string) => g.cases.find((c) => c.caseId === id)!;
    expect(q("case_10_needle").needle.map((t) => [t.point, t.overall.n])).toEqual([
      [null, 6],
      ["concurrency-2", 6]
    ]);
    expect(q("case_11_instruction").constraints.length).toBeGreaterThanOrEqual(12);
    const gsm = q("gsm8k").gsm8k;
    expect(gsm.map((t) => [t.point, t.n])).toEqual([
      [null, 10],
      ["concurrency-2", 10]
    ]);
    for (const t of gsm) expect(t.strict.accuracy!).toBeLessThanOrEqual(0.2);
    for (const t of q("case_10_needle").needle) expect(t.overall.rate!).toBeLessThanOrEqual(0.2);
    expect(q("case_02_tool_call").tools[0]!.valid).toBeLessThanOrEqual(1);
    console.info(
      "real-engine quality:",
      JSON.stringify(
        g.cases.map((c) => [
          c.caseId,
          c.scorers.filter((s) => s.point === null).map((s) => [s.scorer, s.rate.pass, s.rate.n, s.rate.not_evaluated])
        ])
      )
    );
  });

  it("the report page shows every section and says quality is near zero by construction", () => {
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(report.meta.labels.weights).toBe("random");
    expect(text).toContain("quality score is near zero by construction");
    for (const s of [
      "Case performance by tier",
      "Per constraint",
      "GSM8K",
      "Needle retrieval by context length × depth",
      "tool calls:"
    ])
      expect(text, s).toContain(s);
    for (const id of CASE_IDS) expect(text, id).toContain(id);
  });
});
