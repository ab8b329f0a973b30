/**
 * `collect --workers N` (issue 17): one experiment split over N collector processes on this host — each a
 * shard (`collect --shard k/N`, the same entry point a Kubernetes pod runs), all starting their measured load
 * at one time — then merged into one bundle. The shard bundles are kept (evidence) beside it, under
 * `<out>/shards/`, where the site does not list them as runs of their own.
 */
import {spawn} from "node:child_process";
import {join} from "node:path";
import {fileURLToPath} from "node:url";

import {CliError, EXIT} from "../cliError.ts";
import type {Effects} from "../effects.ts";
import type {Io} from "./io.ts";
import {mergeCommand} from "./merge.ts";

/** Default time from launch to the measured start: the children start, probe and warm up before it. */
export const WORKERS_START_DELAY_MS = 10_000;

/** The running CLI's own entry (the source in a checkout, the bundle in an installed package). */
const CLI = process.argv[1] ?? fileURLToPath(new URL("../cli.ts", import.meta.url));

/** The arguments of shard k's `collect` (the parent's own options passed on). */
export function shardArgs(o: {
  config: string;
  out: string;
  k: number;
  n: number;
  startAt: string;
  hostLabel?: string | undefined;
  barrierDir?: string | undefined;
  barrierTimeoutS?: string | undefined;
  /** The parent's `--suites` and `--skip-heavy`, which change the config every shard reads. */
  suites?: string | undefined;
  skipHeavy?: boolean | undefined;
}): string[] {
  return [
    "collect",
    "--config",
    o.config,
    "--out",
    o.out,
    "--no-progress",
    "--shard",
    `${o.k}/${o.n}`,
    "--start-at",
    o.startAt,
    ...(o.barrierDir === undefined ? [] : ["--barrier-dir", o.barrierDir]),
    ...(o.barrierTimeoutS === undefined ? [] : ["--barrier-timeout-s", o.barrierTimeoutS]),
    ...(o.hostLabel === undefined ? [] : ["--host-label", o.hostLabel]),
    ...(o.suites === undefined ? [] : ["--suites", o.suites]),
    ...(o.skipHeavy === true ? ["--skip-heavy"] : [])
  ];
}

/**
 * Runs one shard as a child process; its stderr lines reach ours prefixed with the shard. Each child has its
 * own process group, so a terminal's Ctrl-C (sent to the whole foreground group) reaches this process only and
 * is passed on once: a shard that got it twice would take it as the second press and abort its in-flight
 * requests instead of letting them finish.
 */
function runShard(args: readonly string[], k: number, io: Io) {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
    detached: true
  });
  let out = "";
  let partial = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => {
    const lines = (partial + b.toString("utf8")).split("\n");
    partial = lines.pop()!;
    for (const l of lines) io.err.info(`[shard ${k}] ${l}`);
  });
  const exit = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? EXIT.internal)));
  return {child, exit, dir: () => out.trim().split("\n").pop() ?? ""};
}

/**
 * Runs N shards of the config and merges them; returns the merged bundle's folder (exit codes as `collect`,
 * with 4 for a merged run that is not VALID). A shard that fails to collect stops the merge (its code).
 */
export async function workersCommand(
  o: {
    config: string;
    out?: string;
    workers: number;
    startAt?: string;
    hostLabel?: string;
    /** The shards' phase barrier; default: a folder of this run's own under the shards' folder, removed after. */
    barrierDir?: string;
    barrierTimeoutS?: string;
    suites?: string;
    skipHeavy?: boolean;
  },
  io: Io,
  fx: Effects
): Promise<string> {
  const n = o.workers;
  const out = o.out ?? "evidence";
  const startAt = o.startAt ?? String(fx.clock.wallMs() + WORKERS_START_DELAY_MS);
  const shardsDir = join(out, "shards");
  io.err.info(
    `${n} workers: shards in ${shardsDir}, measured load from ${new Date(Number(startAt) || Date.parse(startAt)).toISOString()}`
  );
  // the first measured phase and every phase after it start together on all shards (collector/run/barrier.ts)
  const ownBarrier = o.barrierDir === undefined ? join(shardsDir, `.barrier-${fx.pid}-${startAt}`) : null;
  const barrierDir = o.barrierDir ?? ownBarrier!;
  const args = {
    config: o.config,
    out: shardsDir,
    n,
    startAt,
    hostLabel: o.hostLabel,
    barrierDir,
    suites: o.suites,
    skipHeavy: o.skipHeavy
  };
  const runs = Array.from({length: n}, (_, k) =>
    runShard(shardArgs({...args, k, barrierTimeoutS: o.barrierTimeoutS}), k, io)
  );
  // a stop reaches every shard, which seals what it captured as interrupted
  const offSignals = fx.signals.on((sig) => {
    for (const r of runs) r.child.kill(sig as NodeJS.Signals);
  });
  let codes: number[];
  try {
    codes = await Promise.all(runs.map((r) => r.exit));
  } finally {
    offSignals();
    if (ownBarrier !== null) await fx.files.removeTree(ownBarrier).catch(() => undefined);
  }
  const failed = codes.findIndex((c) => c !== EXIT.ok && c !== EXIT.notValid && c !== EXIT.interrupted);
  if (failed >= 0)
    throw new CliError(`shard ${failed} of ${n} exited ${codes[failed]}: nothing merged (see its messages above)`, {
      exitCode: codes[failed]!
    });
  const dir = await mergeCommand(
    runs.map((r) => r.dir()),
    {out},
    io,
    fx
  ).catch((e: unknown) => {
    if (e instanceof CliError && codes.includes(EXIT.interrupted) && e.exitCode === EXIT.notValid)
      throw new CliError(`interrupted: the shards were sealed as interrupted and merged`, {exitCode: EXIT.interrupted});
    throw e;
  });
  if (codes.includes(EXIT.interrupted))
    throw new CliError("interrupted: the shards were sealed as interrupted and merged", {exitCode: EXIT.interrupted});
  return dir;
}
