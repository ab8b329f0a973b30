import {spawn, type ChildProcess} from "node:child_process";
import {setPriority} from "node:os";
import {isAbsolute, join} from "node:path";

import {fillTemplate, type LauncherSpec} from "../../src/analysis/schema/experiment.ts";
import type {Effects} from "../effects.ts";
import {LogBuffer} from "./logBuffer.ts";
import {freePort} from "./port.ts";
import type {Launched, LaunchRequest, TeardownStep} from "./types.ts";

type Spec = Extract<LauncherSpec, {kind: "process"}>;

/** How long a stop waits for the server's output pipes to close after the group exited. */
const PIPE_DRAIN_MS = 2000;

/** Process groups this process started and has not seen end: killed if node exits without a teardown. */
const live = new Set<number>();
let exitHook = false;
function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const pgid of live) killGroup(pgid, "SIGKILL");
  });
}

/** Signals a whole process group; false when it no longer exists. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The process's start time in clock ticks since boot (/proc/PID/stat field 22), or null off Linux. */
export async function startTicks(fx: Pick<Effects, "files">, pid: number): Promise<string | null> {
  try {
    const stat = (await fx.files.readFile(`/proc/${pid}/stat`)).toString("utf8");
    // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

/** Waits until `done` resolves or `ms` pass; true when it resolved. */
async function within(done: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  const ok = await Promise.race([done.then(() => true), timeout]);
  clearTimeout(timer);
  return ok;
}

/**
 * Stops a process group: SIGTERM, then SIGKILL after the grace, then SIGKILL again for members the leader
 * left behind. `leaderGone` resolves when the leader has exited.
 */
export async function stopGroup(pgid: number, graceMs: number, leaderGone: Promise<unknown>): Promise<TeardownStep[]> {
  const steps: TeardownStep[] = [];
  if (!killGroup(pgid, 0)) return [{step: `process group ${pgid}`, ok: true, detail: "already gone"}];
  killGroup(pgid, "SIGTERM");
  const termOk = await within(leaderGone, graceMs);
  steps.push({
    step: `SIGTERM process group ${pgid}`,
    ok: termOk,
    detail: termOk ? null : `still running after ${graceMs} ms`
  });
  if (!termOk || killGroup(pgid, 0)) {
    killGroup(pgid, "SIGKILL");
    const killOk = await within(leaderGone, 5000);
    steps.push({step: `SIGKILL process group ${pgid}`, ok: killOk, detail: null});
  }
  for (let i = 0; i < 50 && killGroup(pgid, 0); i++) await new Promise((r) => setTimeout(r, 20));
  const gone = !killGroup(pgid, 0);
  steps.push({step: `process group ${pgid} gone`, ok: gone, detail: gone ? null : "members still alive"});
  return steps;
}

/** Starts the server command in its own process group on 127.0.0.1 and captures its output. */
export async function launchProcess(req: LaunchRequest): Promise<Launched> {
  const spec = req.launcher as Spec;
  const port = spec.port ?? (await freePort());
  const vars = {...req.vars, port: String(port), host: "127.0.0.1", variant: req.variant};
  const command = [...spec.command, ...req.extraArgs].map((a, i) => fillTemplate(a, vars, `launcher.command[${i}]`));
  const cwd = spec.cwd === undefined ? req.planDir : isAbsolute(spec.cwd) ? spec.cwd : join(req.planDir, spec.cwd);
  const env = Object.fromEntries(
    Object.entries(spec.env).map(([k, v]) => [k, fillTemplate(v, vars, `launcher.env.${k}`)])
  );
  installExitHook();
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd,
    env: {...req.fx.env, ...env},
    detached: true,
    stdio: ["ignore", "pipe", "pipe"]
  });
  const log = new LogBuffer();
  let exitReason: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once("error", (e) => {
      exitReason ??= `cannot start ${command[0]}: ${e.message}`;
      resolve();
    });
    child.once("exit", (code, signal) => {
      exitReason ??= signal === null ? `exited with code ${code}` : `killed by ${signal}`;
      resolve();
    });
  });
  child.stdout?.on("data", (b: Buffer) => log.append(b.toString("utf8")));
  child.stderr?.on("data", (b: Buffer) => log.append(b.toString("utf8")));
  // the pipes end after the group has exited: what the server printed last is in the log once both closed
  const closed = (s: NodeJS.ReadableStream | null) =>
    new Promise<void>((resolve) => (s === null ? resolve() : s.once("close", () => resolve())));
  const drained = Promise.all([closed(child.stdout), closed(child.stderr)]);
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new Error(exitReason ?? `cannot start ${command[0]}`);
  }
  live.add(pid);
  // before the server loads its model and starts its worker threads (which inherit the priority)
  if (spec.niceness !== undefined) setPriority(pid, spec.niceness);
  void exited.then(() => {
    if (!killGroup(pid, 0)) live.delete(pid);
  });
  let stopping: Promise<TeardownStep[]> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    command,
    handle: {kind: "process", variant: req.variant, pid, startTicks: await startTicks(req.fx, pid), command},
    exited: async () => exitReason,
    logs: async () => log.text(),
    stop: () =>
      (stopping ??= stopGroup(pid, spec.stop_grace_s * 1000, exited).then(async (steps) => {
        if (!killGroup(pid, 0)) live.delete(pid);
        await Promise.race([drained, req.fx.sleep(PIPE_DRAIN_MS)]); // a grandchild outside the group may hold a pipe
        return steps;
      }))
  };
}
