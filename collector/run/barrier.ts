/**
 * A phase barrier for the shards of one experiment (issue 17): before the first measured phase (then also
 * held until --start-at) and each phase after it, every shard says it is ready in a folder all shards can read (a local folder for `collect --workers`, the
 * shared volume on Kubernetes) and waits until all N have; then each starts at the same wall time, derived
 * by every shard alike from the files: the last ready time plus a margin for the others to see it. Without
 * it a multi-point run's later phases start when each shard's previous phase happens to end, so the shards
 * drift apart by the differences in their phase lengths (gate G32 measures that spread either way).
 *
 * A barrier that cannot be met is given up for the rest of the run, once, with a `barrier_timeout` note
 * saying why: a shard did not come within the timeout, gave up on this phase before (`<k>.gaveup`), or ended
 * its run (`left/<k>.json`, written whether it finished, stopped or failed), or stopped beating (killed
 * outright: its `alive/<k>.json` stood still, liveness.ts), or a ready time lies further ahead
 * than any shard waits (a clock far off). A file older than `staleBefore` is another attempt's: not counted. A
 * barrier folder that cannot be read or written gives a `barrier_error` note; the run goes on without it.
 */
import {randomUUID} from "node:crypto";
import {join} from "node:path";

import {max} from "d3-array";

import type {Phase} from "../../src/analysis/schema/records.ts";
import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {BarrierOptions, RunContext} from "./context.ts";
import {watchSilence, type Silence} from "./liveness.ts";
import {waitUntilWall} from "./shard.ts";
import {experimentFolder, readStamped} from "./sharedFolder.ts";

/** How often a waiting shard looks for the others. */
export const BARRIER_POLL_MS = 20;
/** From the last shard's ready time to the common start: time for every shard to see it (polling, file caches). */
export const BARRIER_MARGIN_MS = 250;

/** One phase of one repeat of one load point. */
export interface PhaseKey {
  point: string;
  repeat: number;
  phase: Exclude<Phase, "cooldown">;
}

/** Why a barrier was given up. */
export type GiveUpReason = "timeout" | "gave_up" | "left" | "silent" | "clock";

/** The subfolder of one phase of one experiment. */
export function barrierFolder(dir: string, planSha256: string, k: PhaseKey): string {
  return join(experimentFolder(dir, planSha256), `${encodeURIComponent(k.point)}.r${k.repeat}.${k.phase}`);
}

/** Where the shards that ended their run say so (a name no phase folder can have: those contain ".r"). */
export const leftFolder = (dir: string, planSha256: string): string => join(experimentFolder(dir, planSha256), "left");

/** The common start (wall ms) once every shard's ready file is there, or null while some are missing. */
export function commonStart(ready: readonly {shard: number; readyMs: number}[], count: number): number | null {
  const seen = new Set(ready.map((r) => r.shard));
  for (let k = 0; k < count; k++) if (!seen.has(k)) return null;
  return max(ready, (r) => r.readyMs)! + BARRIER_MARGIN_MS;
}

/** `<k>.<ext>` files of a folder holding `{atMs}` no older than `sinceMs`; a missing folder holds none. */
async function readMarks(c: RunContext, folder: string, ext: string, sinceMs: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  let names: string[];
  try {
    names = await c.fx.files.list(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return out;
    throw e;
  }
  const pattern = new RegExp(`^(\\d+)\\.${ext}$`);
  for (const name of names) {
    const m = pattern.exec(name);
    if (m === null) continue;
    const v = await readStamped(c, join(folder, name), sinceMs);
    if (v !== null) out.set(Number(m[1]), v.atMs);
  }
  return out;
}

/** The shards whose `left` marker (no older than `sinceMs`) says they ended their run, with when. */
export const endedShards = (c: RunContext, dir: string, planSha256: string, sinceMs: number) =>
  readMarks(c, leftFolder(dir, planSha256), "json", sinceMs);

const mark = (c: RunContext, folder: string, name: string, shard: number, atMs: number): Promise<void> =>
  c.fx.files.writeAtomic(join(folder, name), JSON.stringify({shard, atMs}));

/** One shard's barriers over its run. */
export interface ShardBarrier {
  /** Waits at one phase's barrier; returns at once once the barrier has been given up. */
  wait(key: PhaseKey): Promise<void>;
  /** Says that this shard comes to no further barrier (its run ended: finished, stopped or failed). */
  leave(): Promise<void>;
}

interface Side {
  c: RunContext;
  writer: BundleWriter;
  shard: ShardIdentity;
  o: BarrierOptions;
  /** Files written before this (wall ms) are another attempt's (see `staleBefore`). */
  sinceMs: number;
  /** Peers killed outright (their heartbeat stood still): gone like those that left. */
  silence: Silence;
}

/** Room for other hosts' clocks in the staleness rule. */
export const BARRIER_CLOCK_SLACK_MS = 60_000;

/**
 * The time before which a barrier file is another attempt's, fixed when this shard's run begins: a peer of
 * this attempt that wrote a ready file more than a timeout before this shard even began has given up on it
 * since (and said so in `<k>.gaveup`), so only files older than that — with room for the hosts' clocks —
 * are dropped. Fixed, not sliding: a peer that has been waiting long is still counted, and a `left` or
 * `gaveup` marker of this attempt is honoured however long ago it was written.
 */
export const staleBefore = (runStartMs: number, timeoutMs: number): number =>
  runStartMs - timeoutMs - BARRIER_CLOCK_SLACK_MS;

const label = ({shard}: Side, k: PhaseKey) =>
  `shard ${shard.index} of ${shard.count}: ${k.point} repeat ${k.repeat} ${k.phase}`;

const WHY: Record<GiveUpReason, (timeoutMs: number) => string> = {
  timeout: (t) => `not ready after ${t / 1000} s`,
  gave_up: () => "gave up on this phase",
  left: () => "ended its run",
  silent: () => "stopped beating (killed, or its host lost)",
  clock: () => "ready at a time further ahead than any shard waits (its clock is off)"
};

/** Notes and warns why this phase's barrier is given up, and tells the others waiting here. */
async function giveUp(s: Side, k: PhaseKey, reason: GiveUpReason, missing: number[], readyMs: number): Promise<false> {
  const {c, shard, o} = s;
  c.fx.log.warn(
    `${label(s, k)}: shard ${missing.join(", ")} ${WHY[reason](o.timeoutMs)}; starting without the barrier, for this phase and the rest of the run`
  );
  const detail = {phase: k.phase, reason, missing, waitedMs: c.fx.clock.wallMs() - readyMs};
  s.writer.note(c.rel(), "barrier_timeout", detail, k.point, k.repeat);
  // the others waiting here need not wait out the timeout (best effort: the note above is what counts)
  if (reason !== "gave_up") {
    const folder = barrierFolder(o.dir, shard.planSha256, k);
    await mark(c, folder, `${shard.index}.gaveup`, shard.index, c.fx.clock.wallMs()).catch(() => {});
  }
  return false;
}

/** What the folders say now: who is ready, who gave up here, who ended its run. */
async function look(s: Side, folder: string, readyMs: number) {
  const {c, shard, o, sinceMs} = s;
  const ready = await readMarks(c, folder, "json", sinceMs);
  ready.set(shard.index, readyMs);
  const gaveUp = await readMarks(c, folder, "gaveup", sinceMs);
  const ended = await endedShards(c, o.dir, shard.planSha256, sinceMs);
  const silent = new Set(await s.silence.silent());
  const all = Array.from({length: shard.count}, (_, i) => i);
  return {
    ready,
    gaveUp: all.filter((i) => gaveUp.has(i)),
    gone: all.filter((i) => !ready.has(i) && ended.has(i)),
    silent: all.filter((i) => !ready.has(i) && !ended.has(i) && silent.has(i)),
    missing: all.filter((i) => !ready.has(i)),
    startMs: commonStart(
      [...ready].map(([shard, atMs]) => ({shard, readyMs: atMs})),
      shard.count
    )
  };
}

/** A stop while waiting: this shard will not run the phase, so a peer must not count it as there. */
async function stopped(s: Side, folder: string): Promise<true> {
  const {c, shard} = s;
  await mark(c, folder, `${shard.index}.gaveup`, shard.index, c.fx.clock.wallMs()).catch(() => {});
  return true;
}

/** One phase's barrier: true when met (or stopped), false when given up. */
async function waitOnce(s: Side, k: PhaseKey): Promise<boolean> {
  const {c, shard, o} = s;
  const {clock} = c.fx;
  const folder = barrierFolder(o.dir, shard.planSha256, k);
  const readyMs = clock.wallMs();
  const t0 = clock.nowNs();
  await c.fx.files.mkdirp(folder);
  await mark(c, folder, `${shard.index}.json`, shard.index, readyMs);
  for (;;) {
    if (c.control.stopped) return stopped(s, folder);
    const now = await look(s, folder, readyMs);
    if (now.gaveUp.length > 0) return giveUp(s, k, "gave_up", now.gaveUp, readyMs);
    if (now.startMs !== null) {
      const startMs = now.startMs;
      if (startMs - clock.wallMs() > o.timeoutMs + BARRIER_MARGIN_MS) {
        const ahead = [...now.ready].filter(([, atMs]) => atMs + BARRIER_MARGIN_MS === startMs).map(([i]) => i);
        return giveUp(s, k, "clock", ahead, readyMs);
      }
      const wokeLateNs = await waitUntilWall(c, startMs);
      const wokeNs = clock.nowNs();
      if (c.control.stopped) return stopped(s, folder);
      // one that gave up just before the others arrived started on its own: this start was not common
      // only who gave up counts now: one folder read, no more
      const gaveUp = [...(await readMarks(c, folder, "gaveup", s.sinceMs)).keys()].sort((a, b) => a - b);
      if (gaveUp.length > 0) return giveUp(s, k, "gave_up", gaveUp, readyMs);
      // late by the wake-up and by that last look: the phase begins now, not when the wait ended
      const lateNs = Math.max(0, wokeLateNs) + Number(clock.nowNs() - wokeNs);
      const detail = {phase: k.phase, startAtMs: startMs, waitedMs: startMs - readyMs, lateNs};
      s.writer.note(c.rel(), "barrier", detail, k.point, k.repeat);
      return true;
    }
    if (now.gone.length > 0) return giveUp(s, k, "left", now.gone, readyMs);
    if (now.silent.length > 0) return giveUp(s, k, "silent", now.silent, readyMs);
    if (clock.nowNs() - t0 >= BigInt(o.timeoutMs) * 1_000_000n) return giveUp(s, k, "timeout", now.missing, readyMs);
    await c.fx.sleep(BARRIER_POLL_MS); // a stop is seen within one poll
  }
}

export function shardBarrier(
  c: RunContext,
  writer: BundleWriter,
  shard: ShardIdentity,
  o: BarrierOptions,
  /** The run's one reader of the heartbeats (shared with its search exchange, so a silence is timed once). */
  silence?: Silence
): ShardBarrier {
  const sinceMs = staleBefore(c.fx.clock.wallMs(), o.timeoutMs);
  const s: Side = {c, writer, shard, o, sinceMs, silence: silence ?? watchSilence(c, shard, o, sinceMs)};
  let off = false;
  return {
    async wait(k) {
      if (off) return;
      try {
        off = !(await waitOnce(s, k));
      } catch (e) {
        off = true;
        const message = (e as Error).message;
        c.fx.log.warn(`${label(s, k)}: the barrier folder failed (${message}); going on without the barrier`);
        writer.note(c.rel(), "barrier_error", {phase: k.phase, message}, k.point, k.repeat);
      }
    },
    leave: () => leaveBarrier(c, shard, o)
  };
}

/** Says at the barrier that this shard's run ended (best effort: a warning when the folder fails). */
export async function leaveBarrier(c: RunContext, shard: ShardIdentity, o: BarrierOptions): Promise<void> {
  const left = leftFolder(o.dir, shard.planSha256);
  try {
    await c.fx.files.mkdirp(left);
    await mark(c, left, `${shard.index}.json`, shard.index, c.fx.clock.wallMs());
  } catch (e) {
    c.fx.log.warn(`shard ${shard.index}: could not say at the barrier that it ended (${(e as Error).message})`);
  }
}

/** Null when a shard can create and write the barrier folder, else what failed (checked before the run). */
export async function barrierDirProblem(
  c: Pick<RunContext["fx"], "files" | "pid">,
  dir: string
): Promise<string | null> {
  // pods on one volume may all be pid 1: the name must differ between hosts too
  const probe = join(dir, `.probe-${c.pid}-${randomUUID()}`);
  try {
    await c.files.mkdirp(dir);
    await c.files.writeAtomic(probe, "{}");
    await c.files.remove(probe);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
