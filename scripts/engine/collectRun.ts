/**
 * Runs the collector CLI (a child process, so it has its own event loop) against a llama-server this
 * process started, with a config describing the engine honestly. Used by the demo and the real-engine tests.
 */
import {spawn} from "node:child_process";
import {existsSync, mkdirSync, writeFileSync} from "node:fs";
import {join, resolve} from "node:path";

import {stringify as toYaml} from "yaml";

import type {Engine} from "./engine.ts";
import type {LlamaServerHandle} from "./supervisor.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface CollectRunOptions {
  engine: Engine;
  server: LlamaServerHandle;
  parallel: number;
  threads: number;
  name: string;
  outDir: string;
  /** Where to write the config file (default: .demo/<name>.yaml). */
  configPath?: string;
  /** The config's workload block (prompt_tokens, max_tokens, a source…); ignore_eos, salt and temperature 0.8 by default. */
  workload: {prompt_tokens?: number; max_tokens: number; temperature?: number} & Record<string, unknown>;
  /** The target's endpoint (default chat). */
  endpoint?: "chat" | "completions" | "embeddings";
  load: unknown[];
  /** Echo the collector's stdout (progress goes to stderr, inherited). */
  echo?: boolean;
  /** Case suite to run after the load points (config `suites` and `suite_options`). */
  suites?: string[];
  suiteOptions?: Record<string, unknown>;
  /** Bytes of each chunk kept verbatim (config `output.payload_bytes`; default: the config's default). */
  payloadBytes?: number;
  /** The config's gates block (default: the config's defaults). */
  gates?: Record<string, unknown>;
}

export interface CollectRunResult {
  bundle: string | null;
  code: number;
  stdout: string;
  configPath: string;
}

/** The run config for a collection against the reference engine, with honest provenance. */
export function engineRunConfig(o: Omit<CollectRunOptions, "outDir" | "echo" | "configPath">): Record<string, unknown> {
  const i = o.engine.info;
  const params = `${(i.params / 1e6).toFixed(1)} M parameters`;
  const fallback = o.engine.binary.source === "fallback";
  const server = fallback
    ? `FALLBACK ENGINE, NOT llama-server: ${i.engine} behind InferScope's own small OpenAI-compatible server (scripts/engine/fallbackServer.ts; prompt = messages joined as "role: content" lines, not the GGUF chat template; 2–3× slower than llama-server)`
    : `llama.cpp llama-server ${i.version} (commit ${i.llamaCppCommit})`;
  return {
    name: o.name,
    description:
      `${server} on CPU (${i.cpuModel}, ${o.threads} threads, nice 10), ` +
      `--parallel ${o.parallel}; model: InferScope '${i.preset}' preset, Llama architecture, ${params}, ${i.shape.quant}, ` +
      `RANDOM WEIGHTS (seeded, untrained, sha256 ${i.modelSha256.slice(0, 12)}…): generated text is gibberish, so only speed numbers mean anything.`,
    labels: {
      engine: fallback ? "node-llama-cpp (fallback)" : "llama.cpp",
      preset: i.preset,
      parallel: String(o.parallel),
      weights: "random",
      llama_cpp_commit: i.llamaCppCommit,
      ...(fallback ? {engine_note: "prebuilt node-llama-cpp addon, not llama-server"} : {})
    },
    target: {
      base_url: `${o.server.baseUrl}/v1`,
      model: `random-${i.preset}`,
      endpoint: o.endpoint ?? "chat",
      engine: fallback ? "node-llama-cpp (fallback)" : "llama.cpp",
      engine_version: i.version,
      launch_args: o.server.command.map((a) =>
        a === i.binaryPath
          ? fallback
            ? "<engine cache>/node-llama-cpp"
            : "llama-server"
          : a === process.execPath
            ? "node"
            : a.endsWith("/fallbackServer.ts")
              ? "scripts/engine/fallbackServer.ts"
              : a
      ),
      timeouts: {connect_ms: 5000, headers_ms: 120_000, idle_ms: 60_000}
    },
    workload: {ignore_eos: true, salt: true, temperature: 0.8, ...o.workload},
    load: o.load,
    slo: {ttft_ms: 2000, itl_ms: 60, e2e_ms: 30_000},
    telemetry: {server_metrics: "auto", gpu: "auto", interval_ms: 500},
    ...(o.suites ? {suites: o.suites, suite_options: o.suiteOptions ?? {}} : {}),
    ...(o.payloadBytes === undefined ? {} : {output: {payload_bytes: o.payloadBytes}}),
    ...(o.gates === undefined ? {} : {gates: o.gates})
  };
}

/**
 * The whole case suite sized for the CPU reference engine (contexts up to 2,048 tokens: start the server
 * with ctxPerSlot 4096), GSM8K on the 20-item sample shipped in test/fixtures (the full set needs a download).
 */
export const CPU_SUITE = {
  suites: ["all", "gsm8k"],
  suiteOptions: {
    repeats: 5,
    max_tokens_cap: 64,
    long_context_tiers: [256, 512, 1024],
    prefill_tiers: [512, 1024, 2048],
    concurrency_tiers: [1, 2, 4],
    rounds: 3,
    needle: {lengths: [256, 1024], depths: [0, 0.5, 1]},
    gsm8k: {path: join(ROOT, "test", "fixtures", "gsm8k-sample.jsonl"), limit: 20, download: false},
    quality_load: {point: "concurrency-2"}
  }
};

export function collectRun(o: CollectRunOptions): Promise<CollectRunResult> {
  const configPath = o.configPath ?? join(ROOT, ".demo", `${o.name}.yaml`);
  mkdirSync(join(configPath, ".."), {recursive: true});
  mkdirSync(o.outDir, {recursive: true});
  writeFileSync(configPath, `# written by scripts/engine/collectRun.ts\n${toYaml(engineRunConfig(o))}`);
  return new Promise((ok, fail) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "collector", "cli.ts"), "collect", "--config", configPath, "--out", o.outDir],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"]
      }
    );
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (o.echo) process.stdout.write(d);
    });
    child.on("error", fail);
    child.on("close", (code) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      ok({bundle: existsSync(join(last, "manifest.json")) ? last : null, code: code ?? 1, stdout, configPath});
    });
  });
}
