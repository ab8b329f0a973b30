/**
 * Collects the shipped workload evidence (issue 16) against the reference llama-server: a shared-prefix run
 * and a multi-turn sessions run on the tiny random-weight preset, 2 slots, then /v1/embeddings of the shipped
 * dataset on a second instance started with --embeddings (mean pooling). Writes the bundles to --out
 * (default evidence/). About a minute on 2 cores once the engine is cached.
 *   node scripts/demoWorkloads.ts [--out evidence] [--only NAME]
 */
import {availableParallelism} from "node:os";
import {resolve} from "node:path";
import {parseArgs} from "node:util";

import {collectRun} from "./engine/collectRun.ts";
import {ensureEngine} from "./engine/engine.ts";
import {startLlamaServer} from "./engine/supervisor.ts";

const ROOT = resolve(import.meta.dirname, "..");
const {values: args} = parseArgs({options: {out: {type: "string", default: "evidence"}, only: {type: "string"}}});

/** The two workloads, sized for a CPU engine with 1,024 tokens of context per slot. */
const RUNS = [
  {
    name: "workload-shared-prefix",
    workload: {
      max_tokens: 32,
      source: {kind: "shared_prefix", groups: 4, prefix_tokens: 256, suffix_tokens: {dist: "uniform", min: 16, max: 48}}
    },
    load: [{mode: "concurrency", values: [1, 2], requests: 24, warmup: 4}]
  },
  {
    name: "workload-sessions",
    workload: {
      max_tokens: 24,
      source: {
        kind: "sessions",
        turns: 4,
        think_time_s: 0.2,
        first_tokens: 200,
        turn_tokens: {dist: "normal", mean: 32, std: 8, min: 8}
      }
    },
    load: [{mode: "concurrency", values: [2], requests: 24, warmup: 4}]
  },
  {
    name: "workload-embeddings",
    endpoint: "embeddings" as const,
    serverArgs: ["--embeddings", "--pooling", "mean"],
    workload: {
      max_tokens: 1,
      source: {kind: "dataset", path: "configs/datasets/inferscope-mini.jsonl", format: "jsonl"}
    },
    load: [{mode: "concurrency", values: [1, 2], requests: 48, warmup: 4}]
  }
];

async function main(): Promise<number> {
  const engine = await ensureEngine({preset: "tiny", seed: 1, log: (l) => console.log(`  ${l}`)});
  const threads = Math.max(1, availableParallelism() - 1);
  let failed = 0;
  for (const {serverArgs, ...r} of RUNS.filter((x) => args.only === undefined || x.name === args.only)) {
    // one instance per run: an embeddings server is started with its own flags, as ModelRun serves one
    const server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      parallel: 2,
      ctxPerSlot: 1024,
      threads,
      alias: `random-${engine.info.preset}`,
      niceness: 10,
      ...(serverArgs === undefined ? {} : {extraArgs: serverArgs})
    });
    try {
      const out = await collectRun({
        engine,
        server,
        parallel: 2,
        threads,
        outDir: resolve(ROOT, args.out),
        echo: true,
        ...r
      });
      console.log(out.bundle === null ? `${r.name}: no bundle (exit ${out.code})` : `${r.name}: ${out.bundle}`);
      if (out.bundle === null) failed++;
    } finally {
      await server.stop();
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
