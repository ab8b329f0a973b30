import {randomUUID} from "node:crypto";
import {execFile} from "node:child_process";
import {
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  promises as fsp,
  renameSync,
  rmSync,
  statSync,
  writeSync
} from "node:fs";
import {hostname} from "node:os";
import {dirname, parse, resolve, sep} from "node:path";

import {httpText, type HttpTextRequest, type HttpTextResponse} from "./httpText.ts";

/**
 * Everything the collector does to the outside world, behind small interfaces with real defaults
 * (style.md §2). Tests pass fakes: a files effect that fails with ENOSPC, a manual signal source,
 * an exec that pretends nvidia-smi exists.
 */
export interface Clock {
  /** CLOCK_MONOTONIC in ns (process.hrtime.bigint()). */
  nowNs(): bigint;
  /** Wall clock, ms since the epoch: only for anchors and ISO stamps, never for durations. */
  wallMs(): number;
}

export interface AppendFile {
  write(text: string): Promise<void>;
  /** fdatasync: what was written survives a crash. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface Files {
  /** Creates a new folder; fails with EEXIST when it exists (bundles are never overwritten). */
  mkdirNew(path: string): Promise<void>;
  mkdirp(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  openAppend(path: string): Promise<AppendFile>;
  readFile(path: string): Promise<Buffer>;
  /** Temp file, fsync, rename, fsync of the folder. */
  writeAtomic(path: string, text: string): Promise<void>;
  /**
   * Writes a whole file only where none is: temp file, fsync, hard link to the path (fails with EEXIST when
   * the path exists, so of writers racing on one path exactly one wins), fsync of the folder.
   */
  writeNew(path: string, text: string): Promise<void>;
  truncate(path: string, length: number): Promise<void>;
  size(path: string): Promise<number>;
  /** Reads `length` bytes at `position` (fewer at the end of the file). */
  readRange(path: string, position: number, length: number): Promise<Buffer>;
  remove(path: string): Promise<void>;
  /** Removes a folder and everything in it (only for a folder this process created). */
  removeTree(path: string): Promise<void>;
  list(dir: string): Promise<string[]>;
  chmod(path: string, mode: number): Promise<void>;
  /** What is at a path, without following a symbolic link; null when nothing is. */
  entryKind(path: string): Promise<EntryKind | null>;
}

export type EntryKind = "file" | "directory" | "symlink" | "other";

/** "a symbolic link", "a directory", …: what a path that should be a regular file is instead. */
export const entryPhrase = (kind: EntryKind): string => (kind === "symlink" ? "a symbolic link" : `a ${kind}`);

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Whether stderr is a terminal (progress bars) and where progress is drawn. */
  readonly tty: boolean;
  readonly stream: NodeJS.WritableStream;
}

export type ExecResult =
  {ok: true; code: number; stdout: string; stderr: string} | {ok: false; notFound: boolean; error: string};
export type Exec = (cmd: string, args: readonly string[], options: {timeoutMs: number}) => Promise<ExecResult>;

export interface Signals {
  /** Calls `handler` on SIGINT/SIGTERM/SIGHUP; returns an unsubscribe function. */
  on(handler: (signal: string) => void): () => void;
}

export interface Effects {
  clock: Clock;
  files: Files;
  log: Logger;
  exec: Exec;
  http: (req: HttpTextRequest) => Promise<HttpTextResponse>;
  signals: Signals;
  /** Waits `ms` milliseconds (a timer; tests may pass one that returns at once). */
  sleep: (ms: number) => Promise<void>;
  env: Readonly<Record<string, string | undefined>>;
  hostname: () => string;
  /** This process's id, and whether a process of this host with that id is alive. */
  pid: number;
  processAlive: (pid: number) => boolean;
}

/** Signal 0 checks existence; EPERM means it exists but belongs to someone else. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export const realClock: Clock = {nowNs: () => process.hrtime.bigint(), wallMs: () => Date.now()};

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The temp file beside `path` that an atomic write renames over it. */
const tempPathFor = (path: string): string => `${path}.tmp-${process.pid}`;

/** Writes a new file whole and fsyncs it (the first step of writeAtomic and writeNew). */
async function writeSynced(path: string, text: string): Promise<void> {
  const h = await fsp.open(path, "w");
  try {
    await h.writeFile(text);
    await h.sync();
  } finally {
    await h.close();
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const h = await fsp.open(dir, constants.O_RDONLY);
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/**
 * The ancestors of a path that do not exist yet, outermost first; throws ENOTDIR when one that exists is not a
 * folder. Walks down from the root, so it ends after one step per path component.
 */
function missingFolders(path: string): string[] {
  const full = resolve(path);
  const {root} = parse(full);
  const missing: string[] = [];
  let at = root;
  for (const part of full.slice(root.length).split(sep).filter(Boolean)) {
    at = at === root ? root + part : at + sep + part;
    if (missing.length > 0) {
      missing.push(at);
      continue;
    }
    let st;
    try {
      st = statSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      missing.push(at);
      continue;
    }
    if (!st.isDirectory())
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), {code: "ENOTDIR", path: at});
  }
  return missing;
}

/**
 * mkdir -p, one component at a time. Node's own recursive mkdir loops forever under /proc (each parent
 * "exists" to it and mkdir keeps answering ENOENT), so a mistyped --out would hang instead of failing.
 */
export function mkdirpSync(path: string): void {
  for (const dir of missingFolders(path))
    try {
      mkdirSync(dir);
    } catch (e) {
      // made meanwhile by another process (shards writing into one folder): fine if it is a folder
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(dir).isDirectory()) throw e;
    }
}

export const realFiles: Files = {
  mkdirNew: async (path) => {
    mkdirpSync(dirname(path));
    await fsp.mkdir(path);
  },
  mkdirp: async (path) => {
    mkdirpSync(path);
  },
  exists: async (path) => {
    try {
      await fsp.access(path);
      return true;
    } catch {
      return false;
    }
  },
  openAppend: async (path) => {
    const h = await fsp.open(path, "a");
    return {
      write: async (text) => {
        const buf = Buffer.from(text, "utf8");
        let off = 0;
        while (off < buf.length) off += (await h.write(buf, off)).bytesWritten;
      },
      sync: () => h.datasync(),
      close: () => h.close()
    };
  },
  readFile: (path) => fsp.readFile(path),
  writeAtomic: async (path, text) => {
    const tmp = tempPathFor(path);
    try {
      await writeSynced(tmp, text);
      await fsp.rename(tmp, path);
    } catch (e) {
      await fsp.rm(tmp, {force: true}); // a full disk leaves no half-written temp file behind
      throw e;
    }
    await fsyncDir(dirname(path));
  },
  writeNew: async (path, text) => {
    // writers race on this path, maybe from pods that are all pid 1: a temp name of this write's own
    const tmp = `${tempPathFor(path)}-${randomUUID()}`;
    try {
      await writeSynced(tmp, text);
      await fsp.link(tmp, path);
    } finally {
      await fsp.rm(tmp, {force: true});
    }
    await fsyncDir(dirname(path));
  },
  truncate: async (path, length) => {
    const h = await fsp.open(path, "r+");
    try {
      await h.truncate(length);
      await h.sync();
    } finally {
      await h.close();
    }
  },
  size: async (path) => (await fsp.stat(path)).size,
  readRange: async (path, position, length) => {
    const h = await fsp.open(path, "r");
    try {
      const buf = Buffer.alloc(length);
      const {bytesRead} = await h.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    } finally {
      await h.close();
    }
  },
  remove: (path) => fsp.rm(path, {force: true}),
  removeTree: (path) => fsp.rm(path, {recursive: true, force: true}),
  list: (dir) => fsp.readdir(dir),
  chmod: (path, mode) => fsp.chmod(path, mode),
  entryKind: async (path) => {
    let st: Awaited<ReturnType<typeof fsp.lstat>>;
    try {
      st = await fsp.lstat(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    return st.isSymbolicLink() ? "symlink" : st.isFile() ? "file" : st.isDirectory() ? "directory" : "other";
  }
};

/**
 * Writes `data` (a text, or byte chunks streamed in order) to `path` atomically: a temp file beside it,
 * fsync, rename, fsync of the folder. A failure (or a killed process) never leaves a partial file under
 * `path`, and a failure removes the temp file. `onChunk` sees every byte written, in order (e.g. to hash
 * the file while writing). Returns the bytes written. The one atomic write, synchronous, for the report
 * command and the scripts; `realFiles.writeAtomic` takes the same steps asynchronously for the run.
 */
export function writeFileAtomic(
  path: string,
  data: string | Iterable<Uint8Array>,
  onChunk?: (chunk: Uint8Array) => void
): number {
  const tmp = tempPathFor(path);
  let bytes = 0;
  try {
    const fd = openSync(tmp, "w");
    try {
      for (const chunk of typeof data === "string" ? [Buffer.from(data, "utf8")] : data) {
        let off = 0;
        while (off < chunk.byteLength) off += writeSync(fd, chunk, off, chunk.byteLength - off);
        bytes += chunk.byteLength;
        onChunk?.(chunk);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, {force: true});
    throw e;
  }
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return bytes;
}

export const realExec: Exec = (cmd, args, {timeoutMs}) =>
  new Promise((resolve) => {
    execFile(cmd, args, {timeout: timeoutMs, maxBuffer: 4 << 20, encoding: "utf8"}, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT")
        resolve({ok: false, notFound: true, error: `${cmd} not found`});
      else if (err && typeof (err as {code?: unknown}).code !== "number")
        resolve({ok: false, notFound: false, error: `${cmd} failed: ${err.message.split("\n")[0]}`});
      else resolve({ok: true, code: err ? Number((err as {code?: unknown}).code) : 0, stdout, stderr});
    });
  });

/**
 * SIGINT (Ctrl-C), SIGTERM, and SIGHUP — the signal a collector gets when the SSH session it runs in
 * closes, the usual way one dies on a GPU box: all three stop dispatching and seal what was captured.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export const realSignals: Signals = {
  on: (handler) => {
    const h = (s: NodeJS.Signals) => handler(s);
    for (const s of STOP_SIGNALS) process.on(s, h);
    return () => {
      for (const s of STOP_SIGNALS) process.off(s, h);
    };
  }
};

export function stderrLogger(): Logger {
  return {
    info: (m) => process.stderr.write(`${m}\n`),
    warn: (m) => process.stderr.write(`warning: ${m}\n`),
    tty: Boolean(process.stderr.isTTY),
    stream: process.stderr
  };
}

export function defaultEffects(overrides: Partial<Effects> = {}): Effects {
  return {
    clock: realClock,
    files: realFiles,
    log: stderrLogger(),
    exec: realExec,
    http: httpText,
    signals: realSignals,
    sleep: realSleep,
    env: process.env,
    hostname: () => hostname(),
    pid: process.pid,
    processAlive,
    ...overrides
  };
}
