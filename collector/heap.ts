import {spawnSync} from "node:child_process";
import {readdirSync, statSync} from "node:fs";
import {totalmem} from "node:os";
import {join} from "node:path";
import {getHeapStatistics} from "node:v8";

/**
 * Commands that hold every request of their input in memory (a 500k-request vLLM result imports as 16M
 * events; its analysis keeps every record). V8's default heap (about 4 GiB whatever the machine) is too
 * small for them, and running out of it aborts with V8's own trace. For large inputs only, these commands
 * re-run themselves once with a heap of HEAP_SHARE of the machine's memory.
 */
const HEAVY = new Set(["import", "analyze", "report", "export", "gate"]);
/** Inputs below this (bytes, all files together) never need more than the default heap. */
const LARGE_INPUT = 64 << 20;
const HEAP_SHARE = 0.75;
const MARK = "INFERSCOPE_HEAP_SET";
const MAX_WALK = 3;
/** Options of these commands whose value is not an input path. */
const VALUE_OPTIONS = new Set(["--out", "-o", "--note", "--hardware", "--engine", "--label", "--format"]);

function sizeOf(path: string, depth = 0): number {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (st.isFile()) return st.size;
  if (!st.isDirectory() || depth > MAX_WALK) return 0;
  let sum = 0;
  for (const e of readdirSync(path)) sum += sizeOf(join(path, e), depth + 1);
  return sum;
}

/** The heap size (MiB) a re-run should get, or null when this process is fine as it is. */
export function heapForArgs(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv
): number | null {
  if (!HEAVY.has(args[0] ?? "") || env[MARK] === "1") return null;
  const explicit = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].some((a) =>
    a.startsWith("--max-old-space-size")
  );
  if (explicit) return null;
  const want = Math.floor((totalmem() * HEAP_SHARE) / 2 ** 20);
  if (getHeapStatistics().heap_size_limit / 2 ** 20 >= want) return null;
  let bytes = 0;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a))
      i++; // an output folder or a label is not an input
    else if (!a.startsWith("-")) bytes += sizeOf(a);
  }
  return bytes >= LARGE_INPUT ? want : null;
}

/**
 * Runs this CLI again in a child with `mb` MiB of heap, inheriting stdio; returns its exit code (a child
 * ended by a signal: 128 + the signal's number, as a shell reports it).
 */
export function rerunWithHeap(mb: number, argv: readonly string[] = process.argv): number {
  const r = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${mb}`, ...argv.slice(1)], {
    stdio: "inherit",
    env: {...process.env, [MARK]: "1"}
  });
  if (r.error) throw r.error;
  if (r.status !== null) return r.status;
  const signals: Record<string, number> = {SIGINT: 2, SIGTERM: 15, SIGKILL: 9, SIGABRT: 6};
  return 128 + (signals[r.signal ?? ""] ?? 1);
}
