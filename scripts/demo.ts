/**
 * npm run demo — the whole product against a real inference engine, on any Linux machine:
 * build (or find) llama.cpp's llama-server, generate a random-weight model, start the server on
 * 127.0.0.1, run a short experiment with the collector (a concurrency sweep and a seeded Poisson point),
 * build the site with the new bundle next to the shipped ones, and say where to open it.
 *
 *   npm run demo [-- --preset tiny|small|base|tinyllama --parallel N --out DIR --serve --suite]
 *
 * --suite also runs the case suite (cases 01–11 and a GSM8K sample) after the load points.
 * --experiment instead runs a real two-variant experiment (`inferscope experiment`): llama-server launched
 * with speculative decoding off and on, each searched for the highest concurrency that holds the SLO
 * (docs/experiments.md), then builds the site with the experiment's page.
 *
 * The new bundle goes to .demo/evidence/ (not tracked); --out evidence writes into the shipped evidence.
 */
import {spawn} from "node:child_process";
import {mkdirSync} from "node:fs";
import {availableParallelism} from "node:os";
import {join, resolve} from "node:path";
import {parseArgs} from "node:util";

import {runDemoExperiment, siteEvidence} from "./demoExperiment.ts";
import {collectRun, CPU_SUITE} from "./engine/collectRun.ts";
import {ensureDemoEngine, RANDOM_WEIGHTS_NOTE} from "./engine/engine.ts";
import {startFallbackServer} from "./engine/fallback.ts";
import type {PresetName} from "./engine/generateModel.ts";
import {startLlamaServer} from "./engine/supervisor.ts";
import {serveStatic} from "./lib/serveStatic.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** Per preset: a workload and an arrival rate that give a meaningful run in about a minute. */
const PLAN: Record<PresetName, {prompt: number; out: number; requests: number; rate: number}> = {
  tiny: {prompt: 256, out: 64, requests: 30, rate: 6},
  small: {prompt: 256, out: 64, requests: 40, rate: 1},
  base: {prompt: 256, out: 64, requests: 24, rate: 1},
  tinyllama: {prompt: 128, out: 48, requests: 20, rate: 0.3}
};

const {values: args} = parseArgs({
  options: {
    preset: {type: "string", default: "small"},
    parallel: {type: "string", default: "2"},
    out: {type: "string", default: ".demo/evidence"},
    serve: {type: "boolean", default: false},
    "no-site": {type: "boolean", default: false},
    "keep-byte-tokens": {type: "boolean", default: false},
    suite: {type: "boolean", default: false},
    experiment: {type: "boolean", default: false},
    requests: {type: "string"},
    name: {type: "string"}
  }
});

const step = (i: number, text: string) => console.log(`\n[${i}/5] ${text}`);

function run(cmd: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{code: number; stdout: string}> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, {cwd: ROOT, env: {...process.env, ...env}, stdio: ["ignore", "pipe", "inherit"]});
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      process.stdout.write(d);
    });
    child.on("error", fail);
    child.on("close", (code) => ok({code: code ?? 1, stdout}));
  });
}

/** The demo, step by step (engine, model, server, collect, site); long because it reads as the numbered steps it prints. */
// eslint-disable-next-line max-lines-per-function -- the numbered steps it prints, in order
async function main(): Promise<number> {
  const t0 = Date.now();
  const preset = args.preset as PresetName;
  if (!(preset in PLAN)) throw new Error(`unknown preset: ${preset} (tiny, small, base, tinyllama)`);
  const parallel = Number(args.parallel);
  if (!Number.isInteger(parallel) || parallel < 1) throw new Error(`invalid --parallel: ${args.parallel}`);
  const plan = PLAN[preset];
  const requests = args.requests ? Number(args.requests) : plan.requests;

  step(
    1,
    "engine: find or build llama.cpp's llama-server (a first build takes 5–12 minutes on 2 cores; cached afterwards)"
  );
  const engine = await ensureDemoEngine({
    preset,
    seed: 1,
    keepByteTokens: args["keep-byte-tokens"],
    log: (l) => console.log(`  ${l}`)
  });
  const fallback = engine.binary.source === "fallback";
  console.log(
    fallback
      ? `  ${engine.info.engine}: its numbers are labelled as such on every page`
      : `  llama-server ${engine.info.version} (${engine.info.binarySource}), llama.cpp ${engine.info.llamaCppCommit}`
  );

  step(2, `model: ${preset} preset, ${(engine.info.params / 1e6).toFixed(1)} M parameters, seed 1`);
  console.log(`  ${engine.info.modelPath}`);
  console.log(`  note: ${RANDOM_WEIGHTS_NOTE}`);

  if (args.experiment && fallback)
    throw new Error("--experiment launches llama-server with speculative decoding: it needs the compiled llama-server");
  if (args.experiment) return experimentSteps(engine, parallel, t0);
  step(
    3,
    `server: starting ${fallback ? "the fallback engine" : "llama-server"} on 127.0.0.1 with --parallel ${parallel}`
  );
  // Leave a core to the load generator: a starved client shows up as dispatch lag (gate G6).
  const threads = Math.max(1, availableParallelism() - 1);
  const serverOptions = {
    model: engine.info.modelPath,
    parallel,
    ctxPerSlot: args.suite ? 4096 : 1024,
    threads,
    alias: `random-${preset}`,
    niceness: 10
  };
  const server = fallback
    ? await startFallbackServer({...serverOptions, addon: engine.binary.path})
    : await startLlamaServer({...serverOptions, binary: engine.binary.path});
  console.log(`  ${server.baseUrl} ready in ${(server.readyMs / 1000).toFixed(1)} s (pid ${server.pid})`);

  let bundle: string | null;
  let collectCode: number;
  try {
    step(4, "collect: concurrency sweep 1/2/4 and a seeded Poisson point (warmup excluded)");
    const outDir = resolve(ROOT, args.out!);
    mkdirSync(outDir, {recursive: true});
    const name = args.name ?? `demo-${preset}-p${parallel}`;
    const collected = await collectRun({
      engine,
      server,
      parallel,
      threads,
      name,
      outDir,
      echo: true,
      workload: {prompt_tokens: plan.prompt, max_tokens: plan.out},
      // The suite adds ~340 requests of ~64 chunks: at the default 512 bytes per chunk its requests.jsonl
      // is ~7 MB. 128 bytes keep the start of each llama.cpp chunk, its `choices` (what classification
      // reads), and the bundle under 5 MB, so it can be shipped in git.
      ...(args.suite ? {...CPU_SUITE, payloadBytes: 128} : {}),
      load: [
        {mode: "concurrency", values: [1, 2, 4], requests, warmup: 3},
        {mode: "poisson", values: [plan.rate], requests, warmup: 2, seed: 42}
      ]
    });
    collectCode = collected.code;
    bundle = collected.bundle;
    if (!bundle) throw new Error(`the collector did not produce a bundle (exit ${collected.code})`);
    console.log(
      `  bundle: ${bundle} (collector exit ${collectCode}${collectCode === 4 ? ": finished, verdict not VALID" : ""})`
    );
  } finally {
    await server.stop();
    console.log(`  server stopped (pid ${server.pid})`);
  }

  if (args["no-site"]) return 0;
  step(5, "site: build with the new bundle next to the shipped evidence");
  const evidence = siteEvidence([join(ROOT, "evidence"), resolve(ROOT, args.out!)]);
  const built = await run("npm", ["run", "build", "--silent"], {INFERSCOPE_EVIDENCE: evidence});
  if (built.code !== 0) throw new Error(`site build failed (exit ${built.code})`);
  const id = bundle.split("/").pop();
  console.log(`\ndone in ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
  console.log(`  report:  dist/runs/${id}/index.html`);
  console.log(`  verify:  npx inferscope verify ${bundle}`);
  if (args.serve) {
    const {url} = await serveStatic(join(ROOT, "dist"));
    console.log(`  serving: ${url}runs/${id}/   (Ctrl-C to stop)`);
    await new Promise(() => undefined);
  } else console.log(`  open it: npm run preview   (or npm run demo -- --serve)`);
  return 0;
}

/** Steps 3–5 of `--experiment`: the plan, the experiment (launch, search, teardown per variant), the site. */
async function experimentSteps(engine: Awaited<ReturnType<typeof ensureDemoEngine>>, parallel: number, t0: number) {
  step(3, "experiment: llama-server with speculative decoding off, then on; a load search on each");
  const outDir = resolve(ROOT, args.out!);
  mkdirSync(outDir, {recursive: true});
  const threads = Math.max(1, availableParallelism() - 1);
  const {record, code} = await runDemoExperiment({
    engine,
    out: outDir,
    parallel,
    threads,
    ...(args.name ? {name: args.name} : {})
  });
  console.log(
    `  record: ${record} (experiment exit ${code}${code === 4 ? ": a verdict not VALID" : code === 6 ? ": a variant failed" : ""})`
  );
  if (code !== 0 && code !== 4) throw new Error(`the experiment failed (exit ${code}); see ${record}/experiment.json`);
  if (args["no-site"]) return 0;
  step(5, "site: build with the experiment's bundles and record next to the shipped evidence");
  const evidence = siteEvidence([join(ROOT, "evidence"), outDir]);
  const built = await run("npm", ["run", "build", "--silent"], {INFERSCOPE_EVIDENCE: evidence});
  if (built.code !== 0) throw new Error(`site build failed (exit ${built.code})`);
  const name = record.split("/").pop();
  console.log(`\ndone in ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
  console.log(`  experiment: dist/experiments/${name}/index.html`);
  if (args.serve) {
    const {url} = await serveStatic(join(ROOT, "dist"));
    console.log(`  serving: ${url}experiments/${name}/   (Ctrl-C to stop)`);
    await new Promise(() => undefined);
  } else console.log(`  open it: npm run preview   (or npm run demo -- --experiment --serve)`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`demo failed: ${(e as Error).message}`);
    process.exit(1);
  }
);
