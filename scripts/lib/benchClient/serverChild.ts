import {spawn, spawnSync, type ChildProcess} from "node:child_process";
import {closeSync, openSync, readSync, statSync} from "node:fs";
import {cpus} from "node:os";

import type {ServerTimes} from "../collectTiming.ts";
import {origin, PIN, sleep} from "./common.ts";

/** The fake server in a child process (its own event loop) and the send log it writes. */

export interface ServerChild {
  url: string;
  child: ChildProcess;
  /** Send times (ns relative to our origin) of every SSE event, per request id; waits until each id ended. */
  events(ids: readonly string[]): Promise<Map<string, number[]>>;
  /** The server's receipt time and event send times (absolute ns), per request id; waits until each id ended. */
  times(ids: readonly string[]): Promise<Map<string, ServerTimes>>;
  stop(): Promise<void>;
}

/** `options`: the scenario's defaults for every request (clients that cannot send x-fake-options). */
export async function startServer(logFile: string, options?: Record<string, unknown>): Promise<ServerChild> {
  const args = ["collector/cli.ts", "fake-server", "--port", "0", "--scenario", "zero", "--send-log", logFile];
  if (options !== undefined) args.push("--options", JSON.stringify(options));
  const child = spawn(process.execPath, args, {stdio: ["ignore", "pipe", "inherit"]});
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b: Buffer) => {
      out += String(b);
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`fake server exited early (${code})`)));
  });
  if (PIN) pin(child.pid!, cpus().length - 1);
  const log = sendLogReader(logFile);
  return {
    url,
    child,
    async events(ids) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        log.readNew();
        if (ids.every((id) => log.ended.has(id)) || Date.now() > deadline) break;
        await sleep(20);
      }
      const out = new Map<string, number[]>();
      for (const id of ids) {
        out.set(id, log.times.get(id) ?? []);
        log.times.delete(id);
        log.absolute.delete(id);
        log.ended.delete(id);
      }
      return out;
    },
    async times(ids) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        log.readNew();
        if (ids.every((id) => log.ended.has(id)) || Date.now() > deadline) break;
        await sleep(20);
      }
      const out = new Map<string, ServerTimes>();
      for (const id of ids) {
        out.set(id, log.absolute.get(id) ?? {received: null, events: []});
        log.absolute.delete(id);
        log.times.delete(id);
        log.ended.delete(id);
      }
      return out;
    },
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  };
}

export function pin(pid: number, core: number): void {
  spawnSync("taskset", ["-pc", String(core), String(pid)], {stdio: "ignore"});
}

/** Reads the server's send log as it grows: per request id, its event send times and whether it ended. */
function sendLogReader(logFile: string) {
  const times = new Map<string, number[]>();
  const absolute = new Map<string, ServerTimes>();
  const ended = new Set<string>();
  let offset = 0;
  let partial = "";
  const readNew = (): void => {
    const size = statSync(logFile).size;
    if (size <= offset) return;
    const fd = openSync(logFile, "r");
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    closeSync(fd);
    offset = size;
    const text = partial + buf.toString("utf8");
    const lines = text.split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const e = JSON.parse(line) as {requestId: string; tNs: string; events: number; what: string};
      let abs = absolute.get(e.requestId);
      if (abs === undefined) absolute.set(e.requestId, (abs = {received: null, events: []}));
      if (e.what === "received") abs.received = BigInt(e.tNs);
      else if (e.what !== "data" && e.what !== "headers") ended.add(e.requestId);
      for (let i = 0; i < e.events; i++) abs.events.push(BigInt(e.tNs));
      if (e.events === 0) continue;
      let a = times.get(e.requestId);
      if (a === undefined) times.set(e.requestId, (a = []));
      const t = Number(BigInt(e.tNs) - origin);
      for (let i = 0; i < e.events; i++) a.push(t);
    }
  };
  return {times, absolute, ended, readNew};
}
