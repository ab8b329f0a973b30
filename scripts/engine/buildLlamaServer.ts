import {spawn} from "node:child_process";
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync
} from "node:fs";
import {arch, availableParallelism, cpus} from "node:os";
import {join} from "node:path";

import {sha256Hex} from "../../src/io/hash.ts";
import {exec, tail, which} from "./exec.ts";
import {cloneLlamaCpp} from "./llamaSource.ts";
import {missingPrerequisites} from "./prerequisites.ts";
import {LLAMA_CPP_COMMIT, serverCacheDir} from "./paths.ts";

export interface LlamaServerBinary {
  /** Absolute path of the `llama-server` executable. */
  path: string;
  /** Output of `llama-server --version`, trimmed. */
  version: string;
  /** llama.cpp commit (short hash as reported by the binary, or the pinned full hash for our builds). */
  commit: string;
  /** fallback: not llama-server but node-llama-cpp's prebuilt addon behind scripts/engine/fallbackServer.ts (issue 18). */
  source: "path" | "cache" | "built" | "fallback";
  /** Cache key (`<commit>-<compiler>-<arch>-cpu<hash>-r<recipe>`), or `path:<realpath>` for a binary on PATH. */
  key: string;
}

export interface BuildLlamaServerOptions {
  /** Do not look on PATH (or INFERSCOPE_LLAMA_SERVER); use the cache or build. */
  ignorePath?: boolean;
  /** Parallel compile jobs; default: all cores. */
  jobs?: number;
  /** Human-readable progress lines (default: stderr). */
  log?: (line: string) => void;
  /** "auto": a rewritten percentage line on a TTY, periodic plain lines otherwise. */
  progress?: "auto" | "tty" | "plain" | "none";
}

/** Bump when the cmake options below change, so old cached binaries are not reused (2: AMX off). */
const RECIPE_VERSION = 2;

/**
 * Intel AMX off: with -march=native on a CPU that reports AMX (Sapphire Rapids and later), ggml's AMX
 * matmul crashed the server with SIGSEGV while loading the model on the VMs we run on (seen on a Xeon with
 * amx_tile/amx_int8/amx_bf16, 2026-12-01). The reference engine needs correctness, not AMX speed. GCC keeps
 * explicit -mno-* flags over the features -march=native implies, whatever their order.
 */
const NO_AMX = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16";

/** cmake options for a small, offline, CPU-only, statically linked llama-server (checked against 80fb11a). */
export const CMAKE_OPTIONS: readonly string[] = [
  "-DCMAKE_BUILD_TYPE=Release",
  "-DBUILD_SHARED_LIBS=OFF",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
  "-DLLAMA_BUILD_UI=OFF",
  "-DLLAMA_USE_PREBUILT_UI=OFF",
  "-DLLAMA_OPENSSL=OFF",
  "-DGGML_NATIVE=ON",
  `-DCMAKE_C_FLAGS=${NO_AMX}`,
  `-DCMAKE_CXX_FLAGS=${NO_AMX}`
];

export const APT_PREREQUISITES = "apt-get install -y cmake g++ ninja-build git";

const defaultLog = (line: string): void => void process.stderr.write(line + "\n");

/** Finds a usable llama-server without building: INFERSCOPE_LLAMA_SERVER, then PATH, then the cache. */
export async function findLlamaServer(options: BuildLlamaServerOptions = {}): Promise<LlamaServerBinary | undefined> {
  if (!options.ignorePath) {
    const explicit = process.env.INFERSCOPE_LLAMA_SERVER;
    if (explicit) {
      if (!existsSync(explicit)) throw new Error(`INFERSCOPE_LLAMA_SERVER does not exist: ${explicit}`);
      return describeBinary(explicit, "path");
    }
    const onPath = which("llama-server");
    if (onPath) return describeBinary(onPath, "path");
  }
  const {key} = await buildKey();
  const cached = join(serverCacheDir(), key, "llama-server");
  if (existsSync(cached)) return {...(await describeBinary(cached, "cache")), key, commit: LLAMA_CPP_COMMIT};
  return undefined;
}

/** Returns a llama-server from PATH or the cache, or builds one from node-llama-cpp's llama.cpp bundle (~11 min on 2 cores). */
export async function buildLlamaServer(options: BuildLlamaServerOptions = {}): Promise<LlamaServerBinary> {
  const found = await findLlamaServer(options);
  if (found) return found;
  const log = options.log ?? defaultLog;
  checkPrerequisites();
  const {key, compiler, cpuFlagsHash} = await buildKey();
  const root = serverCacheDir();
  mkdirSync(root, {recursive: true});
  const finalDir = join(root, key);
  const release = await acquireLock(join(root, `${key}.lock`), finalDir, log);
  try {
    if (existsSync(join(finalDir, "llama-server"))) {
      return {...(await describeBinary(join(finalDir, "llama-server"), "cache")), key, commit: LLAMA_CPP_COMMIT};
    }
    removeStaleBuilds(root);
    const work = join(root, `.build-${key}-${process.pid}`);
    rmSync(work, {recursive: true, force: true});
    mkdirSync(work, {recursive: true});
    const buildLog = join(work, "build.log");
    const started = performance.now();
    log(`building llama-server ${LLAMA_CPP_COMMIT.slice(0, 7)} in ${work} (log: ${buildLog})`);
    const src = join(work, "llama.cpp");
    await cloneLlamaCpp(src, log);
    const buildDir = join(src, "build");
    const jobs = options.jobs ?? availableParallelism();
    await runLogged("cmake", ["-S", src, "-B", buildDir, "-G", "Ninja", ...CMAKE_OPTIONS], buildLog);
    await runLogged(
      "cmake",
      ["--build", buildDir, "--target", "llama-server", "-j", String(jobs)],
      buildLog,
      progressReporter(options.progress ?? "auto", log, started)
    );
    const seconds = (performance.now() - started) / 1000;
    const out = join(work, "out");
    mkdirSync(out);
    copyFileSync(join(buildDir, "bin", "llama-server"), join(out, "llama-server"));
    const described = await describeBinary(join(out, "llama-server"), "built");
    copyFileSync(buildLog, join(out, "build.log"));
    const info = {
      key,
      commit: LLAMA_CPP_COMMIT,
      version: described.version,
      compiler,
      cpuModel: cpuModel(),
      cpuFlagsHash,
      cmakeOptions: CMAKE_OPTIONS,
      jobs,
      buildSeconds: Math.round(seconds),
      builtAt: new Date().toISOString()
    };
    writeFileSync(join(out, "info.json"), JSON.stringify(info, null, 2) + "\n");
    renameSync(out, finalDir);
    rmSync(work, {recursive: true, force: true});
    log(`built llama-server in ${formatDuration(seconds)}: ${join(finalDir, "llama-server")}`);
    return {...described, path: join(finalDir, "llama-server"), key, commit: LLAMA_CPP_COMMIT, source: "built"};
  } finally {
    release();
  }
}

/** Fails with the Debian packages to install when a build tool is missing. */
export function checkPrerequisites(): void {
  const missing = missingPrerequisites();
  if (missing.length > 0) {
    throw new Error(`missing build prerequisites: ${missing.join(", ")}; install them with: ${APT_PREREQUISITES}`);
  }
}

/** The cache key: llama.cpp commit + compiler version + a hash of the CPU's feature flags + recipe version. */
export async function buildKey(): Promise<{key: string; compiler: string; cpuFlagsHash: string}> {
  const {compiler, family} = await compilerVersion();
  const cpuFlagsHash = sha256Hex(`${arch()}\n${cpuFlags()}`).slice(0, 12);
  const name = family;
  const ver = /(\d+\.\d+(?:\.\d+)?)\s*$/.exec(compiler)?.[1] ?? /(\d+\.\d+(?:\.\d+)?)/.exec(compiler)?.[1] ?? "unknown";
  const key = `${LLAMA_CPP_COMMIT.slice(0, 7)}-${name}${ver}-${arch()}-cpu${cpuFlagsHash}-r${RECIPE_VERSION}`;
  return {key, compiler, cpuFlagsHash};
}

/** First line of `$CXX --version` (what cmake will use) and the compiler family (gcc, clang or cxx). */
async function compilerVersion(): Promise<{compiler: string; family: string}> {
  const cxx = process.env.CXX ?? (which("c++") ? "c++" : "g++");
  const r = await exec(cxx, ["--version"]).catch(() => undefined);
  const text = r?.stdout ?? "";
  const family = /clang/i.test(text) ? "clang" : /Free Software Foundation|g\+\+|gcc/i.test(text) ? "gcc" : "cxx";
  return {compiler: text.split("\n")[0]?.trim() || "unknown", family};
}

/** Sorted CPU feature flags (x86 `flags`, Arm `Features`) from /proc/cpuinfo, or the CPU model elsewhere. */
export function cpuFlags(): string {
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const line = /^(?:flags|Features)\s*:(.*)$/m.exec(info)?.[1];
    if (line) return line.trim().split(/\s+/).sort().join(" ");
  } catch {
    // not Linux
  }
  return cpuModel();
}

export function cpuModel(): string {
  return cpus()[0]?.model.trim() ?? "unknown";
}

/** Runs `<binary> --version` and extracts the commit it reports. */
export async function describeBinary(path: string, source: LlamaServerBinary["source"]): Promise<LlamaServerBinary> {
  const r = await exec(path, ["--version"]);
  const version = (r.stdout + r.stderr).trim();
  if (r.code !== 0) throw new Error(`llama-server --version failed (exit ${r.code}): ${path}\n${tail(version, 1000)}`);
  const commit =
    /commit[ :]+([0-9a-f]{7,40})/i.exec(version)?.[1] ?? /\(([0-9a-f]{7,40})\)/.exec(version)?.[1] ?? "unknown";
  const real = realpathSync(path);
  return {path: real, version, commit, source, key: `path:${real}`};
}

function runLogged(file: string, args: string[], logFile: string, onLine?: (line: string) => void): Promise<void> {
  appendFileSync(logFile, `$ ${file} ${args.join(" ")}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {stdio: ["ignore", "pipe", "pipe"]});
    const onSignal = (signal: NodeJS.Signals): void => {
      // Stop our own build child, then let the signal take its default course.
      if (child.pid !== undefined && child.exitCode === null) child.kill("SIGTERM");
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      process.kill(process.pid, signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    let pending = "";
    const onData = (b: Buffer): void => {
      appendFileSync(logFile, b);
      if (!onLine) return;
      pending += b.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", (e) => reject(new Error(`cannot run ${file}: ${e.message}`)));
    child.on("close", (code, signal) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (code === 0) return resolve();
      const text = readFileSync(logFile, "utf8");
      reject(new Error(`${file} failed (${signal ?? `exit ${code}`}); log: ${logFile}\n${tail(text, 3000)}`));
    });
  });
}

/** Turns ninja's `[n/m]` lines into a percentage: rewritten in place on a TTY, a plain line per 10 % or minute otherwise. */
function progressReporter(
  mode: NonNullable<BuildLlamaServerOptions["progress"]>,
  log: (line: string) => void,
  started: number
): ((line: string) => void) | undefined {
  if (mode === "none") return undefined;
  const tty = mode === "tty" || (mode === "auto" && process.stderr.isTTY === true);
  let lastPct = -1;
  let lastAt = 0;
  return (line) => {
    const m = /^\[(\d+)\/(\d+)\]/.exec(line);
    if (!m) return;
    const done = Number(m[1]);
    const total = Number(m[2]);
    const pct = Math.floor((100 * done) / total);
    const elapsed = (performance.now() - started) / 1000;
    const text = `building llama-server: ${pct}% (${done}/${total}) ${formatDuration(elapsed)}`;
    if (tty) {
      process.stderr.write(`\r${text}\x1b[K${done === total ? "\n" : ""}`);
    } else if (Math.floor(pct / 10) > Math.floor(lastPct / 10) || elapsed - lastAt >= 60 || done === total) {
      log(text);
      lastAt = elapsed;
    }
    lastPct = pct;
  };
}

/** An exclusive lock file holding our PID; waits for a live holder, and takes over from a dead one. */
async function acquireLock(lockPath: string, finalDir: string, log: (line: string) => void): Promise<() => void> {
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        if (readPid(lockPath) === process.pid) rmSync(lockPath, {force: true});
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const holder = readPid(lockPath);
    if (holder === undefined || !isAlive(holder)) {
      rmSync(lockPath, {force: true});
      continue;
    }
    if (!announced) {
      log(`waiting for another llama-server build (pid ${holder}) to finish: ${finalDir}`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes `.build-*-<pid>` work directories left by builds whose process is gone. */
function removeStaleBuilds(root: string): void {
  for (const name of readdirSync(root)) {
    const m = /^\.build-.*-(\d+)$/.exec(name);
    if (m && !isAlive(Number(m[1]))) rmSync(join(root, name), {recursive: true, force: true});
  }
}

export function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - 60 * m);
  return m > 0 ? `${m}m${String(s).padStart(2, "0")}s` : `${seconds.toFixed(1)}s`;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args.includes("--help")) {
    console.log("usage: npx node scripts/engine/buildLlamaServer.ts [--ignore-path] [--jobs N] [--json]");
    process.exit(0);
  }
  const jobsAt = args.indexOf("--jobs");
  try {
    const bin = await buildLlamaServer({
      ignorePath: args.includes("--ignore-path"),
      jobs: jobsAt >= 0 ? Number(args[jobsAt + 1]) : undefined
    });
    console.log(args.includes("--json") ? JSON.stringify(bin, null, 2) : bin.path);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
