/**
 * The folder the shards of one experiment share (`--barrier-dir`): one subfolder per experiment, named by its
 * plan digest, holding the phase barriers (collector/run/barrier.ts), the `left` markers, the heartbeats
 * (liveness.ts) and a sharded search's probes (searchExchange.ts).
 */
import {join} from "node:path";

import type {RunContext} from "./context.ts";

/** The folder of one experiment's barriers. */
export const experimentFolder = (dir: string, planSha256: string): string => join(dir, planSha256.slice(0, 16));

/**
 * A JSON file a shard wrote whole into the folder, stamped `atMs` (wall ms) no earlier than `sinceMs`; else
 * null: not there, unreadable this time, not whole (so not one of ours), or another attempt's.
 */
export async function readStamped(
  c: RunContext,
  path: string,
  sinceMs: number
): Promise<{atMs: number; [key: string]: unknown} | null> {
  let v: {atMs?: unknown};
  try {
    v = JSON.parse((await c.fx.files.readFile(path)).toString("utf8")) as {atMs?: unknown};
  } catch {
    return null;
  }
  const atMs = v?.atMs;
  return typeof atMs === "number" && Number.isFinite(atMs) && atMs >= sinceMs ? {...v, atMs} : null;
}
