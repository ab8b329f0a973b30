import {join} from "node:path";

import type {Effects} from "../effects.ts";
import {stopContainer} from "./docker.ts";
import {killGroup, startTicks, stopGroup} from "./process.ts";
import type {LiveHandle, TeardownStep} from "./types.ts";

/** The file an experiment keeps while a server it launched may be running. */
export const STATE_FILE = "state.json";

type Fx = Pick<Effects, "files" | "exec" | "processAlive" | "log">;

export async function writeState(
  fx: Pick<Effects, "files">,
  dir: string,
  handles: readonly LiveHandle[]
): Promise<void> {
  if (handles.length === 0) {
    if (await fx.files.exists(join(dir, STATE_FILE))) await fx.files.remove(join(dir, STATE_FILE));
    return;
  }
  await fx.files.writeAtomic(join(dir, STATE_FILE), `${JSON.stringify({live: handles}, null, 2)}\n`);
}

async function readState(fx: Pick<Effects, "files">, dir: string): Promise<LiveHandle[]> {
  const path = join(dir, STATE_FILE);
  if (!(await fx.files.exists(path))) return [];
  try {
    const parsed = JSON.parse((await fx.files.readFile(path)).toString("utf8")) as {live?: LiveHandle[]};
    return Array.isArray(parsed.live) ? parsed.live : [];
  } catch (e) {
    throw new Error(
      `${path}: not readable as the experiment's state (${(e as Error).message}); remove it after checking that no server it started is running`,
      {cause: e}
    );
  }
}

/** Resolves once `pid` is gone (polled: it is not our child any more). */
function goneWhen(fx: Fx, pid: number): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => (fx.processAlive(pid) ? setTimeout(tick, 50) : resolve());
    tick();
  });
}

/**
 * Tears down what a killed earlier run left behind, from its state file: a process group only while its
 * leader is the very process that run started (same start time, so a recycled PID is never signalled), a
 * container by its name. Returns the steps; removes the state file once everything is gone.
 */
export async function teardownLeftovers(fx: Fx, dir: string): Promise<TeardownStep[]> {
  const steps: TeardownStep[] = [];
  const left: LiveHandle[] = [];
  for (const h of await readState(fx, dir)) {
    if (h.kind === "process") {
      const alive = fx.processAlive(h.pid) || killGroup(h.pid, 0);
      const ticks = alive ? await startTicks(fx, h.pid) : null;
      if (!alive) {
        steps.push({step: `leftover process ${h.pid} (${h.variant})`, ok: true, detail: "already gone"});
        continue;
      }
      if (h.startTicks !== null && ticks !== null && ticks !== h.startTicks) {
        steps.push({
          step: `leftover process ${h.pid} (${h.variant})`,
          ok: true,
          detail: "the PID now belongs to another process: not signalled"
        });
        continue;
      }
      fx.log.warn(
        `tearing down process group ${h.pid} left by an earlier run (${h.variant}: ${h.command.join(" ").slice(0, 120)})`
      );
      const s = await stopGroup(h.pid, 10_000, goneWhen(fx, h.pid));
      for (const x of s) steps.push(x);
      if (s.some((x) => !x.ok && x.step.endsWith("gone"))) left.push(h);
    } else if (h.kind === "docker") {
      fx.log.warn(`tearing down container ${h.container} left by an earlier run (${h.variant})`);
      const s = await stopContainer(fx, h.docker, h.container, 30);
      for (const x of s) steps.push(x);
      if (!s.at(-1)!.ok) left.push(h);
    }
  }
  await writeState(fx, dir, left);
  return steps;
}
