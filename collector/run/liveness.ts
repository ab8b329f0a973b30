/**
 * Signs of life between the shards of one experiment (issue 17). A shard that ends its run says so
 * (`left/<k>.json`), but one that is killed outright (SIGKILL, an OOM-killed pod, a lost node) cannot, and
 * the others would wait for it a whole barrier timeout at every barrier or probe that needs it. So while it
 * runs, each shard rewrites `alive/<k>.json` with a growing beat count; a shard whose beat a peer has seen
 * stand still for the silence window is taken as gone, like one that left.
 *
 * The rule reads the beat count, never the writer's clock: "stood still" is measured on the reader's own
 * monotonic clock from when it last saw the count change, so skewed or unsynchronised host clocks cannot
 * make a live shard look dead. A shard never seen beating (not started yet) is not judged here: the timeout
 * is. The window is a quarter of the barrier timeout held between 15 s and 90 s (and never under five beats):
 * far longer than a GC pause or a large records file written beside the beat. The run keeps one reader, so a
 * silence seen at one barrier is not timed again at the next wait. A beat file that cannot be read for a
 * moment (a network volume's ESTALE, say) is no reading, not a silence.
 */
import {join} from "node:path";

import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import type {BarrierOptions, RunContext} from "./context.ts";
import {experimentFolder, readStamped} from "./sharedFolder.ts";

/** The heartbeat folder of one experiment. */
export const aliveFolder = (dir: string, planSha256: string): string =>
  join(experimentFolder(dir, planSha256), "alive");

/** How often a shard beats, and how long a beat may stand still before its shard is taken as gone. */
export function livenessTimes(o: BarrierOptions): {heartbeatMs: number; silentMs: number} {
  const heartbeatMs = o.heartbeatMs ?? Math.min(2_000, o.timeoutMs / 20);
  const silentMs = o.silentMs ?? Math.max(5 * heartbeatMs, Math.min(90_000, Math.max(o.timeoutMs / 4, 15_000)));
  return {heartbeatMs, silentMs};
}

/**
 * Starts this shard's heartbeat (one beat at once, then one per interval, off the event loop's reckoning: the
 * timer does not keep the process alive). Returns the stop. A beat that cannot be written is warned of once.
 */
export function startHeartbeat(c: RunContext, shard: ShardIdentity, o: BarrierOptions): () => void {
  const folder = aliveFolder(o.dir, shard.planSha256);
  const path = join(folder, `${shard.index}.json`);
  let beat = 0;
  let warned = false;
  let writing = false;
  const write = async () => {
    if (writing) return; // a slow volume: the next tick beats instead
    writing = true;
    try {
      if (beat === 0) await c.fx.files.mkdirp(folder);
      beat += 1;
      await c.fx.files.writeAtomic(path, JSON.stringify({shard: shard.index, atMs: c.fx.clock.wallMs(), beat}));
    } catch (e) {
      if (!warned)
        c.fx.log.warn(
          `shard ${shard.index}: could not write its heartbeat (${(e as Error).message}); peers may take it as gone`
        );
      warned = true;
    } finally {
      writing = false;
    }
  };
  void write();
  const timer = setInterval(() => void write(), livenessTimes(o).heartbeatMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A reader's view of its peers' heartbeats: who has been silent for the window. */
export interface Silence {
  /** The peers whose beat has stood still for the silence window (as seen by this reader), in order. */
  silent(): Promise<number[]>;
}

/** A reader of the heartbeats; beats written before `sinceMs` (wall ms) are another attempt's. */
export function watchSilence(c: RunContext, shard: ShardIdentity, o: BarrierOptions, sinceMs: number): Silence {
  const seen = new Map<number, {beat: number; sinceNs: bigint}>();
  const folder = aliveFolder(o.dir, shard.planSha256);
  const windowNs = BigInt(Math.round(livenessTimes(o).silentMs * 1e6));
  return {
    async silent() {
      const nowNs = c.fx.clock.nowNs();
      const out: number[] = [];
      for (let k = 0; k < shard.count; k++) {
        if (k === shard.index) continue;
        const beat = await beatOf(c, join(folder, `${k}.json`), sinceMs);
        if (beat === null) continue;
        const last = seen.get(k);
        if (last === undefined || last.beat !== beat) seen.set(k, {beat, sinceNs: nowNs});
        else if (nowNs - last.sinceNs >= windowNs) out.push(k);
      }
      return out;
    }
  };
}

/** A heartbeat's count, or null (not there, unreadable this time, not whole, or from an earlier attempt). */
async function beatOf(c: RunContext, path: string, sinceMs: number): Promise<number | null> {
  // rewritten by rename every beat: a read may fail for a moment, and the next look reads again
  const v = await readStamped(c, path, sinceMs);
  return typeof v?.beat === "number" ? v.beat : null;
}
