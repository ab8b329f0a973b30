import {join} from "node:path";

import type {Effects} from "../effects.ts";

/**
 * The lock of a bundle a collector is writing: `.inferscope.lock` holds the owner's PID and host. `seal`
 * refuses a bundle whose owner is alive (sealing under a running collector corrupts its manifest); a lock
 * left by a collector that died is taken over. Removed when the bundle is sealed.
 */
export const LOCK_FILE = ".inferscope.lock";

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

export async function takeLock(fx: Pick<Effects, "files" | "pid" | "hostname" | "clock">, dir: string): Promise<void> {
  const info: LockInfo = {pid: fx.pid, host: fx.hostname(), startedAt: new Date(fx.clock.wallMs()).toISOString()};
  await fx.files.writeAtomic(join(dir, LOCK_FILE), `${JSON.stringify(info)}\n`);
}

export async function releaseLock(fx: Pick<Effects, "files">, dir: string): Promise<void> {
  await fx.files.remove(join(dir, LOCK_FILE));
}

/**
 * Who holds the lock and whether they are alive: `alive` is null when the owner is on another host (its
 * liveness cannot be checked from here). Null when the bundle is not locked.
 */
export async function lockOwner(
  fx: Pick<Effects, "files" | "hostname" | "processAlive">,
  dir: string
): Promise<{owner: LockInfo; alive: boolean | null} | null> {
  const path = join(dir, LOCK_FILE);
  if (!(await fx.files.exists(path))) return null;
  let owner: LockInfo;
  try {
    owner = JSON.parse((await fx.files.readFile(path)).toString("utf8")) as LockInfo;
  } catch {
    return {owner: {pid: -1, host: "?", startedAt: "?"}, alive: null};
  }
  if (owner.host !== fx.hostname()) return {owner, alive: null};
  return {owner, alive: fx.processAlive(owner.pid)};
}
