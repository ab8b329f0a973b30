/**
 * A load search over shards (issue 17): each probe is chosen from the verdicts before it, and a verdict needs
 * every shard's requests (a percentile is never merged from per-shard summaries). After each probe every
 * shard writes the records it measured into the experiment's barrier folder; shard 0 waits for all of them,
 * checks that they are of one probe, places them on one timeline as `inferscope merge` does (each shard's
 * wall-clock origin), judges the union and writes the decision. The decision file is written once, by
 * whoever comes first — shard 0's verdict or abort, or the abort of a shard that gave up waiting (a timeout,
 * shard 0 gone, a stop) — and every shard reads back the one that won, so all go on from one decision: the
 * same next probe, or the search ended on every shard. Files older than the run's staleness cutoff are
 * another attempt's.
 */
import {join} from "node:path";

import {min} from "d3-array";

import type {RequestRecord} from "../../src/analysis/schema/index.ts";
import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import {shiftRequest} from "../merge/shift.ts";
import {BARRIER_POLL_MS, endedShards, staleBefore} from "./barrier.ts";
import type {BarrierOptions, ProbeJudgement, RunContext} from "./context.ts";
import {watchSilence, type Silence} from "./liveness.ts";
import {experimentFolder} from "./sharedFolder.ts";

type Req = Omit<RequestRecord, "seq">;

/** What the shards go on from after one probe: shard 0's verdict over all shards' records, or why not. */
export type SharedVerdict = {kind: "verdict"; judgement: ProbeJudgement} | {kind: "abort"; reason: string};

/** The probe a shard shares: which one (every shard must have run the same) and its records. */
export interface SharedProbe {
  block: number;
  /** The probe's number in its search, from 0. */
  n: number;
  point: string;
  records: readonly Req[];
}

export interface SearchExchange {
  /** Shares this shard's records of one probe; `judge` (shard 0 only) sees every shard's. */
  share(probe: SharedProbe, judge: (all: Req[]) => ProbeJudgement): Promise<SharedVerdict>;
}

interface Published {
  shard: number;
  atMs: number;
  point: string;
  /** The shard's run origin on the wall clock (ms): where its run-relative times lie on the shared timeline. */
  originWallMs: number;
  records: Req[];
}

/** The folder of one probe of one search (no phase folder has this form: those end in `.r<repeat>.<phase>`). */
export const probeFolder = (dir: string, planSha256: string, block: number, n: number): string =>
  join(experimentFolder(dir, planSha256), `search${block}.probe${n}`);

const DECISION = "verdict.json";

/**
 * A record as the judge needs it: without the event payloads and texts (bundle v2's verbatim heads, the
 * prompt and response), which no judged metric reads and which would multiply what crosses the folder.
 */
export function lean(r: Req): Req {
  const {body: _b, promptText: _p, responseText: _r, reasoningText: _t, ...rest} = r;
  return {...rest, events: r.events.map((e) => (e.length > 4 ? (e.slice(0, 4) as typeof e) : e))};
}

/** An error of the folder (an errno code), as against a bug, which is let through. */
const isFsError = (e: unknown): boolean => typeof (e as NodeJS.ErrnoException).code === "string";

/** Parses a file this exchange wrote, or null (not there, not whole, or from an earlier attempt). */
async function readOwn<T extends {atMs: number}>(c: RunContext, path: string, sinceMs: number): Promise<T | null> {
  let text: string;
  try {
    text = (await c.fx.files.readFile(path)).toString("utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const v = JSON.parse(text) as T;
    return typeof v.atMs === "number" && v.atMs >= sinceMs ? v : null;
  } catch {
    return null; // written whole (atomically), so a file that does not parse is not one of ours
  }
}

/** One shard's side of the exchange over its run. */
interface Side {
  c: RunContext;
  o: BarrierOptions;
  shard: ShardIdentity;
  /** Files written before this (wall ms) are another attempt's. */
  sinceMs: number;
  silence: Silence;
}

/** The shards gone: their `left` marker is there (they ended their run), or their heartbeat stood still. */
async function gone(s: Side): Promise<{left: Set<number>; silent: Set<number>}> {
  const left = new Set((await endedShards(s.c, s.o.dir, s.shard.planSha256, s.sinceMs)).keys());
  return {left, silent: new Set((await s.silence.silent()).filter((k) => !left.has(k)))};
}

/**
 * Every shard's records on one timeline, the earliest shard's: each shifted by its origin's offset from the
 * earliest (as the merge places shards, to the wall clock's millisecond), named by its shard, in shard order.
 */
export function unionOf(published: readonly Published[]): Req[] {
  const zero = min(published, (p) => p.originWallMs)!;
  return [...published]
    .sort((a, b) => a.shard - b.shard)
    .flatMap((p) => p.records.map((r) => shiftRequest(r, Math.round((p.originWallMs - zero) * 1e6), p.shard)));
}

/**
 * Writes the decision unless one is there, and returns the one that is: of shard 0's verdict and any
 * shard's abort, the first written wins on every shard.
 */
async function decide(c: RunContext, folder: string, sinceMs: number, v: SharedVerdict): Promise<SharedVerdict> {
  const path = join(folder, DECISION);
  try {
    await c.fx.files.writeNew(path, JSON.stringify({atMs: c.fx.clock.wallMs(), ...v}));
    return v;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  // null: an earlier attempt's decision holds the name (this attempt's shards all see it so)
  return (await decided(c, folder, sinceMs)) ?? v;
}

/** The decision already written, or null. */
async function decided(c: RunContext, folder: string, sinceMs: number): Promise<SharedVerdict | null> {
  const v = await readOwn<SharedVerdict & {atMs: number}>(c, join(folder, DECISION), sinceMs);
  if (v === null) return null;
  const {atMs: _atMs, ...verdict} = v;
  return verdict;
}

const missingOf = (count: number, got: ReadonlyMap<number, unknown>) =>
  Array.from({length: count}, (_, k) => k).filter((k) => !got.has(k));

/** Shard 0: waits for every shard's records of `point`, judges their union; or why it cannot. */
async function lead(
  s: Side,
  folder: string,
  point: string,
  judge: (all: Req[]) => ProbeJudgement
): Promise<SharedVerdict> {
  const {c, o, shard, sinceMs} = s;
  const t0 = c.fx.clock.nowNs();
  const got = new Map<number, Published>();
  for (;;) {
    const already = await decided(c, folder, sinceMs); // a shard that gave up first
    if (already !== null) return already;
    for (const k of missingOf(shard.count, got)) {
      const p = await readOwn<Published>(c, join(folder, `${k}.json`), sinceMs);
      if (p !== null) got.set(k, p);
    }
    const other = [...got.values()].find((p) => p.point !== point);
    if (other !== undefined)
      return {kind: "abort", reason: `shard ${other.shard} ran probe ${other.point}, shard 0 ${point}`};
    const missing = missingOf(shard.count, got);
    if (missing.length === 0) return {kind: "verdict", judgement: judge(unionOf([...got.values()]))};
    const {left, silent} = await gone(s);
    const ended = [...left].filter((k) => missing.includes(k));
    if (ended.length > 0)
      return {kind: "abort", reason: `shard ${ended.join(", ")} ended its run before its records came`};
    const killed = [...silent].filter((k) => missing.includes(k));
    if (killed.length > 0)
      return {kind: "abort", reason: `shard ${killed.join(", ")} stopped beating before its records came`};
    if (c.fx.clock.nowNs() - t0 >= BigInt(o.timeoutMs) * 1_000_000n)
      return {kind: "abort", reason: `shard ${missing.join(", ")}: no records after ${o.timeoutMs / 1000} s`};
    if (c.control.stopped) return {kind: "abort", reason: "shard 0 was stopped"};
    await c.fx.sleep(BARRIER_POLL_MS);
  }
}

/** Any other shard: waits for the decision (twice the timeout: shard 0 itself waits up to one), else gives up. */
async function follow(s: Side, folder: string): Promise<SharedVerdict> {
  const {c, o, shard, sinceMs} = s;
  const t0 = c.fx.clock.nowNs();
  for (;;) {
    const v = await decided(c, folder, sinceMs);
    if (v !== null) return v;
    // the abort is a proposal: a decision written meanwhile wins (decide reads it back)
    const {left, silent} = await gone(s);
    if (left.has(0)) return {kind: "abort", reason: "shard 0 ended its run before it judged the probe"};
    if (silent.has(0)) return {kind: "abort", reason: "shard 0 stopped beating before it judged the probe"};
    if (c.fx.clock.nowNs() - t0 >= 2n * BigInt(o.timeoutMs) * 1_000_000n)
      return {kind: "abort", reason: `no verdict from shard 0 after ${(2 * o.timeoutMs) / 1000} s`};
    if (c.control.stopped) return {kind: "abort", reason: `shard ${shard.index} was stopped`};
    await c.fx.sleep(BARRIER_POLL_MS);
  }
}

/** The exchange of one shard over its run (its staleness cutoff fixed now, as the barrier's is). */
export function searchExchange(
  c: RunContext,
  shard: ShardIdentity,
  o: BarrierOptions,
  /** The run's one reader of the heartbeats (shared with its barrier). */
  silence?: Silence
): SearchExchange {
  const sinceMs = staleBefore(c.fx.clock.wallMs(), o.timeoutMs);
  const side: Side = {c, o, shard, sinceMs, silence: silence ?? watchSilence(c, shard, o, sinceMs)};
  return {
    async share({block, n, point, records}, judge) {
      const folder = probeFolder(o.dir, shard.planSha256, block, n);
      const own = join(folder, `${shard.index}.json`);
      let proposal: SharedVerdict;
      try {
        await c.fx.files.mkdirp(folder);
        const mine: Published = {
          shard: shard.index,
          atMs: c.fx.clock.wallMs(),
          point,
          originWallMs: c.startWall,
          records: records.map(lean)
        };
        await c.fx.files.writeAtomic(own, JSON.stringify(mine));
        proposal = shard.index === 0 ? await lead(side, folder, point, judge) : await follow(side, folder);
        const v = await decide(c, folder, sinceMs, proposal);
        await c.fx.files.remove(own).catch(() => undefined); // judged or not, no one reads it again
        return v;
      } catch (e) {
        if (!isFsError(e)) throw e; // a collector bug is a collector error, not an abort
        const reason = `the barrier folder failed (${(e as Error).message})`;
        // tell the others, so that none waits out its timeout (best effort)
        return decide(c, folder, sinceMs, {kind: "abort", reason}).catch(() => ({kind: "abort", reason}));
      }
    }
  };
}
