/**
 * A phase barrier for the shards of one experiment (issue 17): before each phase after the first measured one,
 * every shard says it is ready in a folder all shards can read (a local folder for `collect --workers`, the
 * shared volume on Kubernetes) and waits until all N have; then each starts at the same wall time, derived
 * by every shard alike from the files: the last ready time plus a margin for the others to see it. Without
 * it a multi-point run's later phases start when each shard's previous phase happens to end, so the shards
 * drift apart by the differences in their phase lengths (gate G32 measures that spread either way).
 */
import {join} from "node:path";

import {max} from "d3-array";

import type {Phase} from "../../src/analysis/schema/records.ts";
import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {BarrierOptions, RunContext} from "./context.ts";
import {waitUntilWall} from "./shard.ts";

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

/** The subfolder of one phase of one experiment. */
export function barrierFolder(dir: string, planSha256: string, k: PhaseKey): string {
  return join(dir, planSha256.slice(0, 16), `${encodeURIComponent(k.point)}.r${k.repeat}.${k.phase}`);
}

/** The common start (wall ms) once every shard's ready file is there, or null while some are missing. */
export function commonStart(ready: readonly {shard: number; readyMs: number}[], count: number): number | null {
  const seen = new Set(ready.map((r) => r.shard));
  for (let k = 0; k < count; k++) if (!seen.has(k)) return null;
  return max(ready, (r) => r.readyMs)! + BARRIER_MARGIN_MS;
}

async function readReady(c: RunContext, folder: string): Promise<{shard: number; readyMs: number}[]> {
  const out: {shard: number; readyMs: number}[] = [];
  for (const name of await c.fx.files.list(folder).catch(() => [])) {
    const m = /^(\d+)\.json$/.exec(name);
    if (m === null) continue;
    try {
      const r = JSON.parse((await c.fx.files.readFile(join(folder, name))).toString("utf8")) as {readyMs?: unknown};
      if (typeof r.readyMs === "number" && Number.isFinite(r.readyMs))
        out.push({shard: Number(m[1]), readyMs: r.readyMs});
    } catch {
      // written atomically, so a file that cannot be read is not one of ours: ignored
    }
  }
  return out;
}

/**
 * Waits at the barrier of one phase; notes `barrier` (the common start, how long this shard waited
 * and how late it started) or `barrier_timeout` (which shards were missing). A stop ends the wait at once.
 */
export async function phaseBarrier(
  c: RunContext,
  writer: BundleWriter,
  shard: ShardIdentity,
  o: BarrierOptions,
  key: PhaseKey
): Promise<void> {
  const {clock} = c.fx;
  const {point, repeat, phase} = key;
  const folder = barrierFolder(o.dir, shard.planSha256, key);
  const readyMs = clock.wallMs();
  await c.fx.files.mkdirp(folder);
  await c.fx.files.writeAtomic(join(folder, `${shard.index}.json`), JSON.stringify({shard: shard.index, readyMs}));
  const giveUp = readyMs + o.timeoutMs;
  let startMs: number | null = null;
  let ready: {shard: number; readyMs: number}[] = [];
  while (!c.control.stopped) {
    ready = await readReady(c, folder);
    startMs = commonStart(ready, shard.count);
    if (startMs !== null || clock.wallMs() >= giveUp) break;
    await c.fx.sleep(BARRIER_POLL_MS); // a stop is seen within one poll
  }
  if (c.control.stopped) return;
  if (startMs === null) {
    const present = new Set(ready.map((r) => r.shard));
    const missing = Array.from({length: shard.count}, (_, k) => k).filter((k) => !present.has(k));
    c.fx.log.warn(
      `shard ${shard.index} of ${shard.count}: ${point} repeat ${repeat} ${phase}: shard ${missing.join(", ")} not ready after ${o.timeoutMs / 1000} s; starting without them`
    );
    writer.note(c.rel(), "barrier_timeout", {phase, missing, waitedMs: clock.wallMs() - readyMs}, point, repeat);
    return;
  }
  const lateNs = await waitUntilWall(c, startMs);
  if (c.control.stopped) return;
  writer.note(
    c.rel(),
    "barrier",
    {phase, startAtMs: startMs, waitedMs: startMs - readyMs, lateNs: Math.max(0, lateNs)},
    point,
    repeat
  );
}
