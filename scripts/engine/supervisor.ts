import {spawn, type ChildProcess} from "node:child_process";
import {appendFileSync} from "node:fs";
import {createServer} from "node:net";
import {availableParallelism, setPriority} from "node:os";
import {basename} from "node:path";

import {exec, tail} from "./exec.ts";

export interface StartLlamaServerOptions {
  binary: string;
  model: string;
  /** Slots served concurrently (`--parallel`); default 1. */
  parallel?: number;
  /** Context per slot; the server gets `-c parallel × ctxPerSlot`. Default 1024. */
  ctxPerSlot?: number;
  /** CPU threads (`-t`); default all cores. */
  threads?: number;
  /** Model name reported by /v1/models (`-a`); default the model file name without `.gguf`. */
  alias?: string;
  extraArgs?: readonly string[];
  /** Fixed port; default a free port on 127.0.0.1. */
  port?: number;
  /** How long to wait for GET /health → 200; default 120 s. */
  readyTimeoutMs?: number;
  /** Grace between SIGTERM and SIGKILL on stop(); default 5 s. */
  stopGraceMs?: number;
  /** Also append the server's output to this file. */
  logFile?: string;
  /**
   * Lower the server's CPU priority (nice value, e.g. 10) right after spawn, before it loads the model and
   * starts its worker threads (which inherit it), so a load generator on the same cores is not starved.
   */
  niceness?: number;
}

export interface LlamaServerHandle {
  baseUrl: string;
  port: number;
  pid: number;
  /** The full command line (binary first). */
  command: string[];
  /** Milliseconds from spawn to the first 200 from /health. */
  readyMs: number;
  /** SIGTERM, then SIGKILL after the grace; resolves once the process has exited. Idempotent. */
  stop(): Promise<void>;
  /** The server's combined stdout and stderr so far (last 1 MiB). */
  logs(): string;
  /** Resolves when the process exits, however that happens. */
  exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>;
}

const LOG_LIMIT = 1 << 20;
/** Children this module started and that are still running; only these are ever signalled. */
const running = new Set<ChildProcess>();
let hooksInstalled = false;

/** Starts llama-server on 127.0.0.1 and waits until /health answers 200. The process is always ours to stop. */
export async function startLlamaServer(options: StartLlamaServerOptions): Promise<LlamaServerHandle> {
  const parallel = options.parallel ?? 1;
  const ctxPerSlot = options.ctxPerSlot ?? 1024;
  const threads = options.threads ?? availableParallelism();
  if (!(Number.isInteger(parallel) && parallel >= 1)) throw new Error(`invalid parallel: ${parallel}`);
  if (!(Number.isInteger(ctxPerSlot) && ctxPerSlot >= 16)) throw new Error(`invalid ctxPerSlot: ${ctxPerSlot}`);
  if (!(Number.isInteger(threads) && threads >= 1)) throw new Error(`invalid threads: ${threads}`);
  const alias = options.alias ?? basename(options.model).replace(/\.gguf$/, "");
  const flags = await supportedFlags(options.binary);
  for (const flag of ["--host", "--port", "--parallel", "--cont-batching", "--metrics", "--threads", "--alias"]) {
    if (!flags.has(flag)) throw new Error(`llama-server does not support ${flag}: ${options.binary}`);
  }
  const attempts = options.port === undefined ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const args = [
      ...["-m", options.model, "--host", "127.0.0.1", "--port", String(port)],
      ...["-c", String(parallel * ctxPerSlot), "--parallel", String(parallel), "--cont-batching", "--metrics"],
      ...["-t", String(threads), "-a", alias],
      ...(flags.has("--no-webui") ? ["--no-webui"] : []),
      ...(options.extraArgs ?? [])
    ];
    try {
      return await launch(options, port, args);
    } catch (e) {
      const portTaken = /bind|address already in use/i.test((e as Error).message);
      if (!portTaken || attempt >= attempts) throw e;
    }
  }
}

/** Spawns a server (llama-server, or the fallback engine) and waits until its /health answers 200. */
export async function launch(
  options: Pick<StartLlamaServerOptions, "binary" | "niceness" | "logFile" | "stopGraceMs" | "readyTimeoutMs">,
  port: number,
  args: string[]
): Promise<LlamaServerHandle> {
  installExitHooks();
  const started = performance.now();
  const child = spawn(options.binary, args, {stdio: ["ignore", "pipe", "pipe"]});
  if (child.pid === undefined) {
    const error = await new Promise<Error>((r) => child.once("error", r));
    throw new Error(`cannot start llama-server ${options.binary}: ${error.message}`);
  }
  const pid = child.pid;
  running.add(child);
  if (options.niceness) setPriority(pid, options.niceness);
  let log = "";
  const onData = (b: Buffer): void => {
    log += b.toString();
    if (log.length > 2 * LOG_LIMIT) log = log.slice(log.length - LOG_LIMIT);
    if (options.logFile) appendFileSync(options.logFile, b);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({code, signal});
    });
  });
  const logs = (): string => (log.length > LOG_LIMIT ? log.slice(log.length - LOG_LIMIT) : log);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (!isRunning(child)) return;
      child.kill("SIGTERM");
      const grace = options.stopGraceMs ?? 5000;
      const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), grace).unref());
      if ((await Promise.race([exited, timer])) === "timeout" && isRunning(child)) child.kill("SIGKILL");
      await exited;
    })();
    return stopping;
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = started + (options.readyTimeoutMs ?? 120_000);
  let dead: {code: number | null; signal: NodeJS.Signals | null} | undefined;
  void exited.then((r) => (dead = r));
  for (;;) {
    if (dead) {
      throw new Error(
        `llama-server exited before it was ready (${dead.signal ?? `exit ${dead.code}`}): ${options.binary} ${args.join(" ")}\n${tail(logs(), 3000)}`
      );
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(
        `llama-server not ready after ${options.readyTimeoutMs ?? 120_000} ms on ${baseUrl}\n${tail(logs(), 3000)}`
      );
    }
    if (await healthy(baseUrl)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseUrl,
    port,
    pid,
    command: [options.binary, ...args],
    readyMs: performance.now() - started,
    stop,
    logs,
    exited
  };
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/health`, {signal: AbortSignal.timeout(2000)});
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

const flagCache = new Map<string, Set<string>>();

/** Long flags listed by `<binary> --help`. */
export async function supportedFlags(binary: string): Promise<Set<string>> {
  const cached = flagCache.get(binary);
  if (cached) return cached;
  const r = await exec(binary, ["--help"]);
  const flags = new Set((r.stdout + r.stderr).match(/--[a-z0-9][a-z0-9-]*/g) ?? []);
  if (flags.size === 0) throw new Error(`cannot read flags from ${binary} --help (exit ${r.code})`);
  flagCache.set(binary, flags);
  return flags;
}

/** A port that was free on 127.0.0.1 a moment ago (the launch retries if it is taken meanwhile). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * On process exit, SIGKILL any server still running (no time to wait there); on SIGINT/SIGTERM, SIGTERM them and,
 * if nobody else handles the signal, re-raise it so the process still ends as it would have.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", () => {
    for (const child of running) if (isRunning(child)) child.kill("SIGKILL");
  });
  const onSignal = (signal: NodeJS.Signals): void => {
    for (const child of running) if (isRunning(child)) child.kill("SIGTERM");
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
