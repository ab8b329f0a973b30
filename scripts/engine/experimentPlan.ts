/**
 * An experiment on the reference engine: llama-server launched by `inferscope experiment` through the
 * process launcher, speculative decoding off and on (the model as its own draft: 100 % acceptance, and on
 * 2 CPU cores *slower*, because the draft costs as much as the target — a real "spec on hurts" case), each
 * searched for the highest concurrency that holds the SLO. Used by `npm run demo -- --experiment` and the
 * real-engine experiment test.
 */
import {mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {stringify as toYaml} from "yaml";

import type {Engine} from "./engine.ts";

export interface EngineExperimentOptions {
  engine: Engine;
  name: string;
  /** Folder the plan and its run config are written to. */
  dir: string;
  /** Parent folder of the bundles and experiments/<name>. */
  out: string;
  parallel: number;
  threads: number;
  /** Run configs collected against each variant: file name, workload and load. */
  runs: {
    file: string;
    workload: {prompt_tokens: number; max_tokens: number};
    load: unknown;
    /** Keys merged into the run config (e.g. gates, slo for a small median-only run). */
    extra?: Record<string, unknown>;
  }[];
  slo?: {ttft_ms: number; itl_ms: number; e2e_ms?: number};
  ctxPerSlot?: number;
  /** Which variants (default both). */
  spec?: ("off" | "on")[];
}

/** The launch command (placeholders filled by the experiment). */
function command(o: EngineExperimentOptions): string[] {
  const ctx = o.parallel * (o.ctxPerSlot ?? 1024);
  return [
    o.engine.binary.path,
    ...["-m", "{model_path}", "--host", "{host}", "--port", "{port}", "-c", String(ctx)],
    ...["--parallel", String(o.parallel), "--cont-batching", "--metrics", "-t", String(o.threads)],
    ...["-a", `random-${o.engine.info.preset}`, "--no-webui"]
  ];
}

/** A concurrency search 1…4×parallel at the SLO, 20 measured requests per probe (the P95 floor). */
export const searchLoad = (parallel: number) => ({
  mode: "search",
  over: "concurrency",
  range: [1, 4 * parallel],
  precision: {step: 1},
  requests: 20,
  warmup: 2
});

/** Writes plan.yaml and each run config into `dir`; returns the plan's path. */
export function writeEngineExperiment(o: EngineExperimentOptions): string {
  mkdirSync(o.dir, {recursive: true});
  for (const r of o.runs)
    writeFileSync(join(o.dir, r.file), `# written by scripts/engine/experimentPlan.ts\n${toYaml(runConfig(o, r))}`);
  const path = join(o.dir, "plan.yaml");
  writeFileSync(path, `# written by scripts/engine/experimentPlan.ts\n${toYaml(plan(o))}`);
  return path;
}

/** One run config against the reference engine (the URL is each variant's). */
function runConfig(o: EngineExperimentOptions, r: EngineExperimentOptions["runs"][number]): Record<string, unknown> {
  const i = o.engine.info;
  return {
    name: `${o.name}-${r.file.replace(/\.yaml$/, "")}`,
    description:
      `llama.cpp llama-server ${i.version} (commit ${i.llamaCppCommit}) on CPU (${i.cpuModel}, ${o.threads} threads, nice 10), ` +
      `--parallel ${o.parallel}; model: InferScope '${i.preset}' preset, ${(i.params / 1e6).toFixed(1)} M parameters, ` +
      `RANDOM WEIGHTS (seeded, untrained, sha256 ${i.modelSha256.slice(0, 12)}…): only speed numbers mean anything.`,
    labels: {preset: i.preset, weights: "random", llama_cpp_commit: i.llamaCppCommit},
    target: {
      base_url: "http://127.0.0.1:1/v1", // replaced by each variant's server
      model: `random-${i.preset}`,
      endpoint: "chat",
      engine: "llama.cpp",
      engine_version: i.version,
      timeouts: {connect_ms: 5000, headers_ms: 120_000, idle_ms: 60_000}
    },
    workload: {ignore_eos: true, salt: true, temperature: 0, ...r.workload},
    load: r.load,
    slo: {percentile: "p95", e2e_ms: 120_000, ...(o.slo ?? {ttft_ms: 1000, itl_ms: 100})},
    telemetry: {server_metrics: "auto", gpu: "off", interval_ms: 500},
    // the start of each llama.cpp chunk and its `choices` (what classification reads) fit in 128 bytes, and
    // keep an experiment's bundles small enough to ship in git
    output: {payload_bytes: 128},
    ...r.extra
  };
}

/** The plan: one llama-server variant per speculative-decoding setting. */
function plan(o: EngineExperimentOptions): Record<string, unknown> {
  const i = o.engine.info;
  const specArgs = {
    off: [],
    on: ["--spec-type", "draft-simple", "-md", "{model_path}", "--spec-draft-n-max", "4"]
  };
  const spec = Object.fromEntries((o.spec ?? ["off", "on"]).map((k) => [k, specArgs[k]]));
  return {
    name: o.name,
    description: `speculative decoding off vs on (the model as its own draft), llama.cpp on ${o.threads} CPU threads, --parallel ${o.parallel}`,
    runs: o.runs.map((r) => r.file),
    out: o.out,
    cooldown_s: 2,
    vars: {model_path: i.modelPath},
    variants: [
      {
        name: "llama",
        engine: "llama.cpp",
        model: `random-${i.preset}`,
        launcher: {kind: "process", command: command(o), niceness: 10, stop_grace_s: 5},
        grid: {spec},
        labels: {parallel: String(o.parallel)},
        health: {path: "/health", timeout_s: 120, interval_ms: 100}
      }
    ]
  };
}
