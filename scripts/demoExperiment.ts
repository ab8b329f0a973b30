/**
 * `npm run demo -- --experiment`: a real two-variant experiment on the reference engine. The collector's
 * `experiment` command launches llama-server with speculative decoding off, then on (the model as its own
 * draft), searches each for the highest concurrency that holds the SLO, tears each down, and seals the
 * record; the site is then built with the new bundles and the record next to the shipped evidence.
 */
import {spawn} from "node:child_process";
import {cpSync, existsSync, mkdirSync, rmSync} from "node:fs";
import {dirname, join, resolve} from "node:path";

import {globSync} from "glob";

import type {Engine} from "./engine/engine.ts";
import {searchLoad, writeEngineExperiment} from "./engine/experimentPlan.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** Per preset: the workload and SLO that put the knee inside the search range on 2 CPU cores. */
const SIZING: Record<string, {prompt: number; out: number; ttft: number; itl: number}> = {
  tiny: {prompt: 128, out: 64, ttft: 400, itl: 40},
  small: {prompt: 128, out: 64, ttft: 1000, itl: 100},
  base: {prompt: 128, out: 48, ttft: 3000, itl: 300},
  tinyllama: {prompt: 64, out: 32, ttft: 8000, itl: 1000}
};

function runCli(argv: string[]): Promise<number> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(ROOT, "collector", "cli.ts"), ...argv], {cwd: ROOT, stdio: "inherit"});
    child.on("error", fail);
    child.on("close", (code) => ok(code ?? 1));
  });
}

/** Runs the experiment; returns the record's folder and the experiment command's exit code. */
export async function runDemoExperiment(o: {
  engine: Engine;
  out: string;
  parallel: number;
  threads: number;
  name?: string;
}): Promise<{record: string; code: number}> {
  const preset = o.engine.info.preset;
  const s = SIZING[preset] ?? SIZING.small!;
  const name = o.name ?? `demo-spec-${preset}-p${o.parallel}`;
  const dir = join(ROOT, ".demo", "experiment", name);
  rmSync(join(o.out, "experiments", name), {recursive: true, force: true});
  const plan = writeEngineExperiment({
    engine: o.engine,
    name,
    dir,
    out: o.out,
    parallel: o.parallel,
    threads: o.threads,
    runs: [
      {file: "search.yaml", workload: {prompt_tokens: s.prompt, max_tokens: s.out}, load: searchLoad(o.parallel)},
      // speculative decoding is judged on long outputs (max_tokens ≥ 512) and short prompts, one stream at a time
      {
        file: "decode.yaml",
        // 64 tokens: short, and long enough that the chat template's ~9 tokens stay inside G12's 25 % tolerance
        workload: {prompt_tokens: 64, max_tokens: 512},
        load: {mode: "concurrency", values: [1], requests: 5, warmup: 1},
        // five long requests support medians (the n ≥ 5 floor), not a P95
        extra: {slo: {percentile: "p50", ttft_ms: s.ttft, itl_ms: s.itl, e2e_ms: 120_000}, gates: {min_samples: 5}}
      }
    ],
    slo: {ttft_ms: s.ttft, itl_ms: s.itl}
  });
  console.log(`  plan: ${plan}`);
  const code = await runCli(["experiment", "--plan", plan]);
  return {record: join(o.out, "experiments", name), code};
}

/** Copies the shipped evidence, the new bundles and the experiment records into one folder for the site. */
export function siteEvidence(sources: string[]): string {
  const target = join(ROOT, ".demo", "site-evidence");
  rmSync(target, {recursive: true, force: true});
  mkdirSync(target, {recursive: true});
  for (const src of sources) {
    for (const manifest of globSync("*/manifest.json", {cwd: src}).sort()) {
      const d = dirname(manifest);
      cpSync(join(src, d), join(target, d), {recursive: true});
    }
    if (existsSync(join(src, "experiments")))
      cpSync(join(src, "experiments"), join(target, "experiments"), {recursive: true});
  }
  return target;
}
