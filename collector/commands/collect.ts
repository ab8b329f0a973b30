import {resolve} from "node:path";

import type {Command} from "commander";

import {analyzeBundle} from "../../src/analysis/analyze.ts";
import {adviceFor} from "../../src/analysis/gates/advice.ts";
import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {judgeRecords, type PointSummary} from "../../src/analysis/search/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {readHardwareData} from "../../src/io/hardware.ts";
import {unknownHardwareIds} from "../../src/analysis/hardware/index.ts";
import {RecoverError, SealWriteError, sealCrashedBundle} from "../bundle/recover.ts";
import {checkSigningKey, signBundle} from "./sign.ts";
import {suiteOptions} from "../cases/plan.ts";
import {CliError, EXIT} from "../cliError.ts";
import {ConfigError, parseRunConfig, type ConfigCheck} from "../config/load.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {createPacer} from "../load/pacer.ts";
import {streamRequest} from "../http/stream.ts";
import {collect} from "../run/collect.ts";
import {barrierDirProblem} from "../run/barrier.ts";
import type {BarrierOptions, ShardRun} from "../run/context.ts";
import {barrierRequired, shardProblem} from "../run/shard.ts";
import {workersCommand} from "./workers.ts";
import {parseSlice, START_AT_WINDOW_MS} from "../../src/analysis/schema/shard.ts";
import type {ProbeJudge} from "../run/context.ts";
import {createProgress, silentProgress} from "../load/progress.ts";
import type {Pacer} from "../load/pacer.ts";
import type {StreamFn} from "../request/types.ts";
import {defaultIo, type Io} from "./io.ts";

export interface CollectCliOptions {
  config?: string;
  out?: string;
  hostLabel?: string;
  resume?: string;
  progress?: boolean;
  /** Comma-separated suite ids, replacing the config's `suites`. */
  suites?: string;
  skipHeavy?: boolean;
  /** Sign the sealed manifest with this Ed25519 private key (PEM) as `signer`. */
  sign?: string;
  signer?: string;
  /** Issue 17: run shard K of N (`K/N`, K from 0). */
  shard?: string;
  /** Issue 17: run as one of N shards, the index from $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job). */
  shards?: string;
  /** Issue 17: the absolute time every shard starts its load at (ISO 8601 or Unix ms). */
  startAt?: string;
  /** Issue 17: run N shards as child processes on this host and merge them. */
  workers?: string;
  /** Issue 17: the folder every shard can read, where they meet before the first measured phase and each after it. */
  barrierDir?: string;
  /** Issue 17: how long a shard waits at the barrier for the others (seconds). */
  barrierTimeoutS?: string;
}

/** How long a shard waits at the phase barrier by default before it starts without the missing ones. */
export const BARRIER_TIMEOUT_S = 600;

export interface CollectDeps {
  stream: StreamFn;
  pacer: (clock: () => bigint) => Pacer;
}

export const defaultCollectDeps: CollectDeps = {
  stream: streamRequest,
  pacer: (clock) => createPacer({clock, spinMs: 1.5})
};

/**
 * A card or price id in the config's hardware block that the shipped catalogue does not know: refused before the
 * run, since the analysis would ignore it (and use the tool's name and the table's price instead).
 */
const hardwareIds: ConfigCheck = (c) =>
  c.hardware === undefined ? [] : unknownHardwareIds(c.hardware, readHardwareData().catalogue);

/**
 * The config's text, or exit 2 naming file:line:column of the first byte that is not UTF-8: decoding would turn it
 * into U+FFFD and send (and record) a model name or header nobody wrote.
 */
function utf8OrError(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder("utf-8", {fatal: true}).decode(bytes);
  } catch {
    let good = 0;
    for (let end = bytes.length; good < end;) {
      // the longest prefix that decodes: binary search over its length
      const mid = Math.ceil((good + end) / 2);
      try {
        new TextDecoder("utf-8", {fatal: true}).decode(bytes.subarray(0, mid), {stream: true});
        good = mid;
      } catch {
        end = mid - 1;
      }
    }
    const before = bytes.subarray(0, good).toString("utf8");
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    throw new CliError(
      `invalid config:\n${file}:${line}:${column}: not UTF-8 (byte 0x${bytes[good]!.toString(16).padStart(2, "0")} at offset ${good})`,
      {exitCode: EXIT.usage}
    );
  }
}

/** Reads and validates a run config file; every problem becomes one CliError (exit 2) with file:line. */
export async function readConfig(fx: Pick<Effects, "files">, file: string) {
  // a FIFO or a device would block the read or never end: a config is a regular file (or a link to one)
  const kind = await Promise.resolve()
    .then(() => fx.files.entryKind(file))
    .catch(() => null);
  if (kind === "other")
    throw new CliError(`cannot read config ${file}: not a regular file (a FIFO, socket or device)`, {
      exitCode: EXIT.usage
    });
  let bytes: Buffer;
  try {
    bytes = await fx.files.readFile(file);
  } catch (e) {
    throw new CliError(`cannot read config ${file}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const text = utf8OrError(bytes, file);
  try {
    return parseRunConfig(text, file, hardwareIds);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`invalid config:\n${e.message}`, {exitCode: EXIT.usage});
    throw e;
  }
}

/**
 * The load search's probe judge handed to the collector: the analyzer's own (src/analysis/search), so the
 * collector chooses probes by the same "the SLO holds" that the report recomputes.
 */
export function probeJudge(config: RunConfig): ProbeJudge {
  return (search, records, point, lower) => {
    const v = judgeRecords(config, search, records, point, lower as PointSummary | null);
    return {status: v.status, margin: v.margin, reason: v.reason, summary: v.summary};
  };
}

/** Seals a crashed bundle as partial; prints its path. */
export async function sealCommand(dir: string, io: Io, fx: Effects, o: {force?: boolean} = {}): Promise<void> {
  try {
    const m = await sealCrashedBundle(fx, dir, o);
    io.err.info(`sealed ${m.bundleId} as ${m.status} (${m.files.length} files digested): ${m.statusReason}`);
  } catch (e) {
    if (e instanceof RecoverError) throw new CliError(e.message, {exitCode: EXIT.usage});
    if (e instanceof SealWriteError)
      throw new CliError(`cannot seal ${dir}: ${e.message}`, {exitCode: EXIT.writeFailed});
    throw new CliError(`cannot seal ${dir}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed});
  }
  io.out(resolve(dir));
}

/**
 * `collect`: run the experiment, seal the bundle, analyse it. The bundle path is the last line of stdout.
 * Exit: 0 VALID, 4 not VALID, 5 evidence not writable, 130 interrupted (bundle sealed as interrupted).
 */
export async function collectCommand(
  o: CollectCliOptions,
  io: Io,
  fx: Effects = defaultEffects(),
  deps: CollectDeps = defaultCollectDeps
) {
  if (o.resume !== undefined && o.config !== undefined)
    throw new CliError("give --config FILE (a new run) or --resume DIR (seal a crashed one), not both", {
      exitCode: EXIT.usage
    });
  if (o.resume !== undefined) return sealCommand(o.resume, io, fx);
  if (o.config === undefined)
    throw new CliError("collect needs --config FILE (or --resume DIR to seal a crashed bundle)", {
      exitCode: EXIT.usage
    });
  if (o.sign !== undefined && o.signer === undefined)
    throw new CliError("--sign KEY needs --signer NAME (the name allowed_signers gives the key)", {
      exitCode: EXIT.usage
    });
  if (o.sign !== undefined) await checkSigningKey(fx, o.sign);
  let config = await readConfig(fx, o.config);
  if (o.suites !== undefined)
    config = {
      ...config,
      suites: o.suites
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    };
  if (o.skipHeavy) config = {...config, suite_options: {...suiteOptions(config), skip_heavy: true}};
  if (o.workers !== undefined) return workers(o, config, io, fx);
  const shard = shardOption(o, fx.env, fx.clock.wallMs());
  if (shard !== null) {
    const problem = shardProblem(config, shard.slice.count);
    if (problem !== null) throw new CliError(`--shard: ${problem}`, {exitCode: EXIT.usage});
    const noBarrier = barrierRequired(config, shard.slice.count, shard.barrier !== null, "--barrier-dir");
    if (noBarrier !== null) throw new CliError(`--shard: ${noBarrier}`, {exitCode: EXIT.usage});
    const dirProblem = shard.barrier ? await barrierDirProblem(fx, shard.barrier.dir) : null;
    if (dirProblem !== null)
      throw new CliError(`--barrier-dir ${shard.barrier!.dir}: cannot be written (${dirProblem})`, {
        exitCode: EXIT.usage
      });
  }
  const progress = o.progress === false ? silentProgress : createProgress(io.err, fx.clock);
  const outcome = await collect({
    config,
    fx,
    stream: deps.stream,
    pacer: deps.pacer,
    outParent: o.out ?? null,
    hostLabel: o.hostLabel ?? null,
    progress,
    judgeProbe: probeJudge(config),
    shard
  });
  const dir = resolve(outcome.dir);
  if (outcome.writeFailure !== null) {
    io.err.warn(`bundle ${outcome.manifest ? `sealed as ${outcome.status}` : "left unsealed"}: ${dir}`);
    io.out(dir);
    throw new CliError(outcome.writeFailure, {exitCode: EXIT.writeFailed});
  }
  if (o.sign !== undefined && outcome.manifest !== null) {
    await signBundle(fx, outcome.dir, o.sign, o.signer!);
    io.err.info(`signed the manifest as ${o.signer}`);
  }
  const report = await analyzeBundle(fsBundle(outcome.dir));
  io.err.info(`verdict ${report.verdict} (status ${outcome.status})`);
  for (const r of report.verdict_reasons.slice(0, 10)) io.err.info(`  ${r}`);
  for (const a of adviceFor(report.verdict_reasons, report.gates)) io.err.info(a.en);
  io.out(dir);
  if (outcome.interrupted)
    throw new CliError(`interrupted: bundle sealed as interrupted (${outcome.statusReason})`, {
      exitCode: EXIT.interrupted
    });
  if (report.verdict !== "VALID")
    throw new CliError(`verdict ${report.verdict}: see \`inferscope analyze ${dir}\``, {exitCode: EXIT.notValid});
}

/** `--workers N`: N local shards of the config, merged (its checks first, so that no child is started in vain). */
async function workers(o: CollectCliOptions, config: RunConfig, io: Io, fx: Effects): Promise<void> {
  const n = Number(o.workers);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new CliError(`--workers: expected a whole number 1 … 256, got "${o.workers}"`, {exitCode: EXIT.usage});
  if (o.shard !== undefined || o.shards !== undefined || o.sign !== undefined)
    throw new CliError("--workers runs its own shards: drop --shard, --shards and --sign", {
      exitCode: EXIT.usage
    });
  const problem = shardProblem(config, n);
  if (problem !== null) throw new CliError(`--workers: ${problem}`, {exitCode: EXIT.usage});
  if (o.startAt !== undefined) parseStartAt(o.startAt, fx.clock.wallMs());
  // the shards' own checks, before any child starts
  if (o.barrierDir !== undefined) {
    const problem = await barrierDirProblem(fx, barrierDir(o.barrierDir));
    if (problem !== null)
      throw new CliError(`--barrier-dir ${o.barrierDir}: cannot be written (${problem})`, {exitCode: EXIT.usage});
  }
  barrierTimeoutMs(o.barrierTimeoutS);
  await workersCommand(
    {
      config: o.config!,
      workers: n,
      ...(o.out === undefined ? {} : {out: o.out}),
      ...(o.startAt === undefined ? {} : {startAt: o.startAt}),
      ...(o.hostLabel === undefined ? {} : {hostLabel: o.hostLabel}),
      ...(o.barrierDir === undefined ? {} : {barrierDir: o.barrierDir}),
      ...(o.barrierTimeoutS === undefined ? {} : {barrierTimeoutS: o.barrierTimeoutS}),
      ...(o.suites === undefined ? {} : {suites: o.suites}),
      ...(o.skipHeavy === true ? {skipHeavy: true} : {})
    },
    io,
    fx
  );
}

/**
 * "2026-12-02T10:00:00Z" or Unix milliseconds → ms, within START_AT_WINDOW_MS of `nowMs`; a CliError naming
 * the value otherwise.
 */
export function parseStartAt(text: string, nowMs: number): number {
  const ms = /^\d{12,}$/.test(text.trim()) ? Number(text.trim()) : Date.parse(text);
  // a representable date (Unix ms beyond ±8.64e15 is not one)
  if (!Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime()) || !/\d{4}-\d{2}-\d{2}T|^\s*\d{12,}\s*$/.test(text))
    throw new CliError(`--start-at: expected an ISO 8601 time (2026-12-02T10:00:00Z) or Unix ms, got "${text}"`, {
      exitCode: EXIT.usage
    });
  const hours = (ms - nowMs) / 3_600_000;
  if (Math.abs(ms - nowMs) > START_AT_WINDOW_MS)
    throw new CliError(
      `--start-at: ${new Date(ms).toISOString()} is ${Math.abs(hours).toFixed(1)} h ${hours > 0 ? "ahead" : "ago"}; a shard's start time must lie within ${START_AT_WINDOW_MS / 3_600_000} h of now (${new Date(nowMs).toISOString()})`,
      {exitCode: EXIT.usage}
    );
  return ms;
}

/** The shard this run is (--shard K/N, or --shards N with the index from $JOB_COMPLETION_INDEX), or null. */
export function shardOption(
  o: CollectCliOptions,
  env: Readonly<Record<string, string | undefined>>,
  nowMs: number
): ShardRun | null {
  if (o.shard !== undefined && o.shards !== undefined)
    throw new CliError("give --shard K/N or --shards N, not both", {exitCode: EXIT.usage});
  const text =
    o.shard ??
    (o.shards === undefined
      ? null
      : env.JOB_COMPLETION_INDEX === undefined
        ? (() => {
            throw new CliError("--shards N takes the shard index from $JOB_COMPLETION_INDEX, which is not set", {
              exitCode: EXIT.usage
            });
          })()
        : `${env.JOB_COMPLETION_INDEX}/${o.shards}`);
  if (text === null) {
    if (o.startAt !== undefined) throw new CliError("--start-at needs --shard or --shards", {exitCode: EXIT.usage});
    if (o.barrierDir !== undefined || o.barrierTimeoutS !== undefined)
      throw new CliError("--barrier-dir and --barrier-timeout-s need --shard or --shards", {exitCode: EXIT.usage});
    return null;
  }
  const slice = parseSlice(text);
  if (typeof slice === "string") throw new CliError(`--shard: ${slice}`, {exitCode: EXIT.usage});
  if (slice.count > 1 && o.startAt === undefined)
    throw new CliError(
      "a sharded run needs --start-at TIME: every shard starts its load then, and it names the experiment",
      {exitCode: EXIT.usage}
    );
  return {
    slice,
    startAtMs: o.startAt === undefined ? null : parseStartAt(o.startAt, nowMs),
    barrier: barrierOption(o)
  };
}

/** --barrier-dir / --barrier-timeout-s → the barrier, or null (none given). */
function barrierOption(o: CollectCliOptions): BarrierOptions | null {
  if (o.barrierDir === undefined) {
    if (o.barrierTimeoutS !== undefined)
      throw new CliError("--barrier-timeout-s needs --barrier-dir", {exitCode: EXIT.usage});
    return null;
  }
  return {dir: barrierDir(o.barrierDir), timeoutMs: barrierTimeoutMs(o.barrierTimeoutS)};
}

function barrierDir(text: string): string {
  if (text.trim() === "")
    throw new CliError("--barrier-dir: expected a folder, got an empty string", {exitCode: EXIT.usage});
  return text;
}

/** --barrier-timeout-s (default BARRIER_TIMEOUT_S) → ms. */
function barrierTimeoutMs(given: string | undefined): number {
  const text = given ?? String(BARRIER_TIMEOUT_S);
  const s = Number(text);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text) || !(s > 0) || s > 86_400)
    throw new CliError(`--barrier-timeout-s: expected seconds, more than 0 and at most 86400, got "${text}"`, {
      exitCode: EXIT.usage
    });
  return s * 1000;
}

export function register(program: Command): void {
  program
    .command("collect")
    .description("run the experiment of a config against the target and write one evidence bundle")
    .option("--config <file>", "run config (YAML)")
    .option("--out <dir>", "parent folder of the bundle (default: output.dir of the config, else evidence/)")
    .option("--host-label <label>", "host name recorded and used in the bundle name (default: the hostname)")
    .option("--resume <dir>", "seal a bundle whose collector crashed (torn tails cut, status partial)")
    .option("--no-progress", "no progress display on stderr")
    .option(
      "--suites <ids>",
      "case suite to run after the load points, comma-separated (e.g. case_10_needle,gsm8k; all); sharded: on shard 0 once every shard's load has ended"
    )
    .option("--skip-heavy", "skip the heavy cases 05/06/07/09 (quality cases are never skipped)")
    .option("--sign <key>", "sign the sealed manifest with this Ed25519 private key (PEM; see `keygen`)")
    .option("--signer <name>", "the signer's name, as in evidence/allowed_signers")
    .option("--shard <K/N>", "run shard K of N of the experiment (K from 0): its slice of every phase's plan")
    .option("--shards <N>", "run one of N shards, the index from $JOB_COMPLETION_INDEX (Kubernetes Indexed Job)")
    .option("--workers <n>", "split the experiment over N collector processes on this host, then merge them")
    .option(
      "--start-at <time>",
      "sharded runs: every shard warms up, then starts its measured load at this time (ISO 8601 or Unix ms)"
    )
    .option(
      "--barrier-dir <dir>",
      "sharded runs: a folder every shard can read; the shards meet there before the first measured phase and each phase after it, and start it together"
    )
    .option(
      "--barrier-timeout-s <s>",
      `how long a shard waits at the barrier for the others before it goes on without them, and without the barrier for the rest of the run (default ${BARRIER_TIMEOUT_S})`
    )
    .action(async (o: CollectCliOptions) => collectCommand(o, defaultIo()));
  program
    .command("seal")
    .description("seal a bundle whose collector crashed or was killed: cut torn tails, status partial")
    .argument("<dir>", "the unsealed bundle folder")
    .option("--force", "take over a lock held by a collector on another host (its liveness cannot be checked)")
    .action(async (dir: string, o: {force?: boolean}) => sealCommand(dir, defaultIo(), defaultEffects(), o));
}
