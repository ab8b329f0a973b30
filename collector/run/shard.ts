/**
 * A run as one shard of an experiment (issue 17): its identity in the manifest, and the wait for the
 * experiment's absolute start time.
 */
import {isSearchBlock, loadBlocks, type RunConfig} from "../../src/analysis/schema/config.ts";
import {WHOLE, type ShardIdentity, type Slice} from "../../src/analysis/schema/shard.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {isoOf} from "../bundle/manifest.ts";
import type {Effects} from "../effects.ts";
import {probeTimeSync} from "../env/timeSync.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {RunContext, ShardRun} from "./context.ts";

/**
 * The experiment's plan digest: the resolved config (every setting that decides what is sent), the number
 * of shards and the start time — equal on every shard of one experiment, different for any other.
 */
export function planDigest(configSha256: string, count: number, startAtMs: number | null): string {
  return sha256Hex(JSON.stringify({config: configSha256, shards: count, startAt: startAtMs}));
}

/**
 * How many consecutive ordinals a shard is dealt at a time: a conversation's turns for a sessions workload
 * (a conversation is never split: its turns send the history the earlier ones built), else 1.
 */
export function sliceGroup(config: RunConfig): number {
  const source = config.workload.source;
  return source?.kind === "sessions" ? source.turns : 1;
}

/** The slice of the plan this run sends: its shard's, dealt in the config's units, or the whole plan. */
export function runSlice(config: RunConfig, shard: ShardRun | null | undefined): Slice {
  if (shard === null || shard === undefined) return WHOLE;
  const group = sliceGroup(config);
  return group === 1 ? shard.slice : {...shard.slice, group};
}

/**
 * Why a config cannot be split into `count` shards, or null. Every closed-loop shard needs at least one request
 * in flight (a search's lowest probe too), and with conversations at least one conversation. A search is judged
 * across shards (run/searchExchange.ts) and a case suite waits for every shard's load to end
 * (`suiteRunsHere`): both need the barrier folder, `barrierRequired`.
 */
export function shardProblem(config: RunConfig, count: number): string | null {
  if (count === 1) return null;
  const turns = sliceGroup(config);
  for (const [i, b] of loadBlocks(config).entries()) {
    if (isSearchBlock(b)) {
      if (b.over === "concurrency" && b.range[0] < count)
        return `load[${i}]: the search starts at concurrency ${b.range[0]}, below the shard count ${count}: a shard would send nothing`;
      continue;
    }
    if (turns > 1 && b.requests !== undefined && b.requests / turns < count)
      return `load[${i}]: ${b.requests / turns} conversation(s) (requests ${b.requests} / turns ${turns}) for ${count} shards: a conversation is never split, so a shard would measure nothing`;
    if (b.mode === "concurrency") {
      const low = b.values.find((v) => v < count);
      if (low !== undefined)
        return `load[${i}]: concurrency ${low} is below the shard count ${count}: a shard would send nothing`;
    }
    if (b.max_concurrency !== undefined && b.max_concurrency < count)
      return `load[${i}]: max_concurrency ${b.max_concurrency} is below the shard count ${count}`;
  }
  return null;
}

/**
 * Why a sharded run of `config` without a barrier folder cannot run, or null: a search needs one, and so does a
 * case suite. `give` names what provides it (`--barrier-dir`, or a plan's shared claim).
 */
export function barrierRequired(config: RunConfig, count: number, barrier: boolean, give: string): string | null {
  if (count === 1 || barrier) return null;
  const i = loadBlocks(config).findIndex(isSearchBlock);
  if (i >= 0)
    return `load[${i}]: a load search over shards needs ${give}, a folder every shard can read: each probe is judged from every shard's records there`;
  if ((config.suites ?? []).length > 0)
    return `suites: a case suite over shards needs ${give}, a folder every shard can read: shard 0 runs the suite once every shard's load has ended, which the shards say there`;
  return null;
}

/**
 * Whether this run sends the case suite. The suite is one experiment's quality and idle-latency
 * measurement, sent one request at a time (case_08 at its own concurrency): it is not load to split, and
 * sliced over shards its multi-turn cases and tiers would lose their order. So shard 0 alone runs it, after
 * every shard's load points (the `SUITE_PHASE` barrier), and the merge takes its requests and answers from
 * shard 0; an unsharded run always does.
 */
export const suiteRunsHere = (shard: ShardRun | null | undefined): boolean =>
  shard === null || shard === undefined || shard.slice.index === 0;

/** The barrier every shard meets after its load points, before shard 0 runs the case suite. */
export const SUITE_PHASE = {point: "suite", repeat: 0, phase: "measure"} as const;

/** The shard's identity as the manifest records it (the start's lateness is filled in when it starts). */
export async function shardIdentity(
  fx: Effects,
  config: RunConfig,
  shard: ShardRun,
  configSha256: string
): Promise<ShardIdentity> {
  const {index, count} = shard.slice;
  return {
    index,
    count,
    group: sliceGroup(config),
    planSha256: planDigest(configSha256, count, shard.startAtMs),
    startAt: shard.startAtMs === null ? null : isoOf(shard.startAtMs),
    startLateNs: null,
    timeSync: await probeTimeSync(fx.exec)
  };
}

/**
 * Sleeps until a wall-clock time (mapped once onto the monotonic clock, then paced on it) or a stop; returns
 * how late it woke in ns (negative when a stop cut the wait short). A time already past returns at once.
 */
export async function waitUntilWall(c: RunContext, wallMs: number): Promise<number> {
  const waitMs = wallMs - c.fx.clock.wallMs();
  const target = c.fx.clock.nowNs() + BigInt(Math.round(waitMs * 1e6));
  if (waitMs > 0) await Promise.race([c.pacer(() => c.fx.clock.nowNs()).waitUntil(target), c.control.onStop()]);
  return Number(c.fx.clock.nowNs() - target);
}

/**
 * Waits for the experiment's start time, then notes how late the load began. A shard that reaches it after
 * the time has passed starts at once, late.
 */
export async function waitForStart(c: RunContext, writer: BundleWriter, shard: ShardIdentity): Promise<void> {
  const startAtMs = c.shard?.startAtMs ?? null;
  if (startAtMs === null) return;
  const waitMs = startAtMs - c.fx.clock.wallMs();
  if (waitMs > 0)
    c.fx.log.info(
      `shard ${shard.index} of ${shard.count}: waiting ${(waitMs / 1000).toFixed(1)} s for ${shard.startAt}`
    );
  shard.startLateNs = await waitUntilWall(c, startAtMs);
  writer.note(c.rel(), "start_at", {startAt: shard.startAt, lateNs: shard.startLateNs});
}
