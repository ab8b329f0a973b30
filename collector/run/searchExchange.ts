/**
 * A load search over shards (issue 17): each probe is chosen from the verdicts before it, and a verdict needs
 * every shard's requests (a percentile is never merged from per-shard summaries). After each probe every
 * shard writes the records it measured into the experiment's barrier folder; shard 0 waits for all of them,
 * places them on one timeline as `inferscope merge` does (each shard's wall-clock origin), judges the union
 * and writes the verdict; every shard, shard 0 included, goes on from that one verdict, so all choose the
 * same next probe. When a shard's records do not come (it ended its run, or the timeout passed), shard 0
 * writes an abort instead, and every shard ends the search there, saying why; a shard that sees neither
 * verdict nor abort in time ends it too. Files older than the run's staleness cutoff are another attempt's.
 */
import {join} from "node:path";

import {min} from "d3-array";

import type {RequestRecord} from "../../src/analysis/schema/index.ts";
import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import {shiftRequest} from "../merge/shift.ts";
import {BARRIER_POLL_MS, experimentFolder, leftFolder, staleBefore} from "./barrier.ts";
import type {BarrierOptions, ProbeJudgement, RunContext} from "./context.ts";

type Req = Omit<RequestRecord, "seq">;

/** What the shards go on from after one probe: shard 0's verdict over all shards' records, or why not. */
export type SharedVerdict = {kind: "verdict"; judgement: ProbeJudgement} | {kind: "abort"; reason: string};

export interface SearchExchange {
  /** Shares this shard's records of probe `n` of search `block`; `judge` (shard 0 only) sees every shard's. */
  share(
    block: number,
    n: number,
    records: readonly Req[],
    judge: (all: Req[]) => ProbeJudgement
  ): Promise<SharedVerdict>;
}

interface Published {
  shard: number;
  atMs: number;
  /** The shard's run origin on the wall clock (ms): where its run-relative times lie on the shared timeline. */
  originWallMs: number;
  records: Req[];
}

/** The folder of one probe of one search (no phase folder has this form: those end in `.r<repeat>.<phase>`). */
export const probeFolder = (dir: string, planSha256: string, block: number, n: number): string =>
  join(experimentFolder(dir, planSha256), `search${block}.probe${n}`);

const VERDICT = "verdict.json";

/** Parses a file this exchange wrote, or null (not ours, not whole, or from an earlier attempt). */
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
    return null; // written atomically, so a file that does not parse is not one of ours
  }
}

/** The shards whose `left` marker is there (they ended their run). */
async function ended(c: RunContext, o: BarrierOptions, shard: ShardIdentity, sinceMs: number): Promise<Set<number>> {
  const folder = leftFolder(o.dir, shard.planSha256);
  const out = new Set<number>();
  let names: string[];
  try {
    names = await c.fx.files.list(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return out;
    throw e;
  }
  for (const name of names) {
    const m = /^(\d+)\.json$/.exec(name);
    if (m !== null && (await readOwn(c, join(folder, name), sinceMs)) !== null) out.add(Number(m[1]));
  }
  return out;
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

/** Shard 0: waits for every shard's records, judges their union, writes the verdict (or the abort). */
async function lead(
  c: RunContext,
  o: BarrierOptions,
  shard: ShardIdentity,
  folder: string,
  sinceMs: number,
  judge: (all: Req[]) => ProbeJudgement
): Promise<SharedVerdict> {
  const t0 = c.fx.clock.nowNs();
  const got = new Map<number, Published>();
  let v: SharedVerdict | null = null;
  while (v === null) {
    for (let k = 0; k < shard.count; k++)
      if (!got.has(k)) {
        const p = await readOwn<Published>(c, join(folder, `${k}.json`), sinceMs);
        if (p !== null) got.set(k, p);
      }
    const missing = Array.from({length: shard.count}, (_, k) => k).filter((k) => !got.has(k));
    if (missing.length === 0) {
      v = {kind: "verdict", judgement: judge(unionOf([...got.values()]))};
      break;
    }
    const gone = [...(await ended(c, o, shard, sinceMs))].filter((k) => missing.includes(k));
    const late = c.fx.clock.nowNs() - t0 >= BigInt(o.timeoutMs) * 1_000_000n;
    if (gone.length > 0) v = {kind: "abort", reason: `shard ${gone.join(", ")} ended its run before its records came`};
    else if (late) v = {kind: "abort", reason: `shard ${missing.join(", ")}: no records after ${o.timeoutMs / 1000} s`};
    else if (c.control.stopped) v = {kind: "abort", reason: "shard 0 was stopped"};
    else await c.fx.sleep(BARRIER_POLL_MS);
  }
  await c.fx.files.writeAtomic(join(folder, VERDICT), JSON.stringify({atMs: c.fx.clock.wallMs(), ...v}));
  return v;
}

/** Any other shard: waits for shard 0's verdict (twice the timeout: shard 0 itself waits up to one). */
async function follow(
  c: RunContext,
  o: BarrierOptions,
  shard: ShardIdentity,
  folder: string,
  sinceMs: number
): Promise<SharedVerdict> {
  const t0 = c.fx.clock.nowNs();
  for (;;) {
    const v = await readOwn<SharedVerdict & {atMs: number}>(c, join(folder, VERDICT), sinceMs);
    if (v !== null) {
      const {atMs: _atMs, ...verdict} = v;
      return verdict;
    }
    if ((await ended(c, o, shard, sinceMs)).has(0))
      return {kind: "abort", reason: "shard 0 ended its run before it judged the probe"};
    if (c.fx.clock.nowNs() - t0 >= 2n * BigInt(o.timeoutMs) * 1_000_000n)
      return {kind: "abort", reason: `no verdict from shard 0 after ${(2 * o.timeoutMs) / 1000} s`};
    if (c.control.stopped) return {kind: "abort", reason: `shard ${shard.index} was stopped`};
    await c.fx.sleep(BARRIER_POLL_MS);
  }
}

/** The exchange of one shard over its run (its staleness cutoff fixed now, as the barrier's is). */
export function searchExchange(c: RunContext, shard: ShardIdentity, o: BarrierOptions): SearchExchange {
  const sinceMs = staleBefore(c.fx.clock.wallMs(), o.timeoutMs);
  return {
    async share(block, n, records, judge) {
      const folder = probeFolder(o.dir, shard.planSha256, block, n);
      try {
        await c.fx.files.mkdirp(folder);
        const mine: Published = {
          shard: shard.index,
          atMs: c.fx.clock.wallMs(),
          originWallMs: c.startWall,
          records: [...records]
        };
        await c.fx.files.writeAtomic(join(folder, `${shard.index}.json`), JSON.stringify(mine));
        return shard.index === 0
          ? await lead(c, o, shard, folder, sinceMs, judge)
          : await follow(c, o, shard, folder, sinceMs);
      } catch (e) {
        return {kind: "abort", reason: `the barrier folder failed (${(e as Error).message})`};
      }
    }
  };
}
