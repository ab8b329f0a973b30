import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {collectRun} from "../../scripts/engine/collectRun.ts";
import {ensureEngine, type Engine} from "../../scripts/engine/engine.ts";
import {startLlamaServer, type LlamaServerHandle} from "../../scripts/engine/supervisor.ts";
import {analyzeBundle, type Report} from "../../src/analysis/index.ts";
import type {RequestRecord} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";

/**
 * /v1/embeddings against the real llama.cpp server, started as its own instance with `--embeddings`
 * (mean pooling: the tiny random-weight preset is a decoder and declares none), as ModelRun serves an
 * embedding model beside the LLM. Runs when llama-server is on PATH or cached, or builds it with
 * INFERSCOPE_BUILD_ENGINE=1 (.ci/run sets it).
 */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const skip = (await findLlamaServer()) === undefined && !build;
if (skip)
  console.warn(
    "skipping test/engine/realEmbeddings.serial.test.ts: no llama-server on PATH or in the cache; set INFERSCOPE_BUILD_ENGINE=1 to build it"
  );

const threads = Math.max(1, availableParallelism() - 1);
const out = mkdtempSync(join(tmpdir(), "inferscope-real-emb-"));

describe.skipIf(skip)("embeddings against the real llama-server (issue 16)", () => {
  let engine: Engine;
  let server: LlamaServerHandle;
  let report: Report;
  let records: RequestRecord[];

  beforeAll(async () => {
    engine = await ensureEngine({preset: "tiny", seed: 1, build});
    server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      parallel: 2,
      ctxPerSlot: 512,
      threads,
      alias: `random-${engine.info.preset}`,
      niceness: 10,
      extraArgs: ["--embeddings", "--pooling", "mean"]
    });
    const r = await collectRun({
      engine,
      server,
      parallel: 2,
      threads,
      name: "real-embeddings",
      outDir: out,
      configPath: join(out, "real-embeddings.yaml"),
      endpoint: "embeddings",
      workload: {prompt_tokens: 192, max_tokens: 1, save_text: true},
      load: [{mode: "concurrency", values: [2], requests: 24, warmup: 2}]
    });
    expect(r.bundle, `collector exit ${r.code}:\n${r.stdout}`).not.toBeNull();
    report = await analyzeBundle(fsBundle(r.bundle!));
    records = readFileSync(join(r.bundle!, "requests.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RequestRecord)
      .filter((x) => x.phase === "measure");
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(out, {recursive: true, force: true});
  });

  it("every request gets one vector of the model's width (256 for the tiny preset) and the run is VALID", () => {
    // client health (G6), dispatch lateness (G21) and the load the closed loop kept (G5: an answer takes a
    // few ms here, so a busy client's turnaround between requests is a visible share of it) judge this
    // machine, not the product: on a busy box they may make the run INCONCLUSIVE; nothing else may
    const clientOnly = (reason: string): boolean => /^G(5|6|21) /.test(reason);
    expect(report.verdict_reasons.filter((r) => !clientOnly(r))).toEqual([]);
    expect(report.verdict).toBe(report.verdict_reasons.length === 0 ? "VALID" : "INCONCLUSIVE");
    expect(records).toHaveLength(24);
    for (const r of records) {
      expect(r.httpStatus).toBe(200);
      expect(r.body).toMatchObject({json: true, inputs: 1, vectors: [engine.info.shape.embd], nonFinite: 0});
    }
    expect(engine.info.shape.embd).toBe(256);
  });

  it("the server's prompt count is what its own /tokenize counts for the text sent, special tokens included", async () => {
    for (const r of records) {
      const res = await fetch(`${server.baseUrl}/tokenize`, {
        method: "POST",
        headers: {"content-type": "application/json"},
        body: JSON.stringify({content: r.promptText, add_special: true})
      });
      const tokens = ((await res.json()) as {tokens: unknown[]}).tokens;
      expect(r.usage!.promptTokens).toBe(tokens.length);
    }
  });

  it("E2E and input throughput are what the raw records say", () => {
    const m = report.load_points[0]!.metrics as Record<
      string,
      {n?: number; max?: number | null; value?: number | null}
    >;
    const e2e = records.map((r) => (r.tEndNs! - r.tSchedNs!) / 1e6);
    expect(m.e2e_ms!.n).toBe(24);
    expect(m.e2e_ms!.max).toBeCloseTo(Math.max(...e2e), 9);
    const windowS = (Math.max(...records.map((r) => r.tEndNs!)) - Math.min(...records.map((r) => r.tSchedNs!))) / 1e9;
    const tokens = records.reduce((s, r) => s + r.usage!.promptTokens!, 0);
    expect(m.input_throughput_tok_s!.value).toBeCloseTo(tokens / windowS, 6);
    expect(m.ttft_ms!.n).toBe(0); // an embedding has no first token
  });
});
