import {availableParallelism} from "node:os";
import {Worker} from "node:worker_threads";

import type {MemoryBandwidthProbe} from "../../src/analysis/schema/manifest.ts";
import type {Effects} from "../effects.ts";
import {BANDWIDTH_CACHE_ENV, bandwidthOncePerBoot, type ProbePlan} from "./bandwidthCache.ts";

/** Set to 1 to skip the host memory-bandwidth probe (it is measured by default). */
export const NO_BANDWIDTH_ENV = "INFERSCOPE_NO_BANDWIDTH";

const MIB = 1024 * 1024;
const MAX_THREADS = 64;
const BUFFER_BYTES = 64 * MIB;
const MIN_BUFFER_BYTES = 16 * MIB;
/** All buffers of all threads together (each thread holds a source and a destination). */
const TOTAL_BYTES = 2048 * MIB;
const PASSES = 5;
const TIMEOUT_MS = 5_000;

export interface BandwidthOptions {
  /** Worker threads (default: min(availableParallelism(), 64)). */
  threads?: number;
  /** Bytes each thread copies per pass (default: 64 MiB, less when the 2 GiB total would be exceeded). */
  bufferBytes?: number;
  /** Timed passes after the untimed warm-up (default 5). */
  passes?: number;
  /** The whole probe, worker start included (default 5 s); past it the probe records an error. */
  timeoutMs?: number;
}

/** Threads and per-thread buffer: 64 MiB each, the 2 GiB total shared out when there are many threads (floor 16 MiB). */
export function bandwidthPlan(parallelism: number): {threads: number; bufferBytes: number} {
  const threads = Math.max(1, Math.min(Math.floor(parallelism) || 1, MAX_THREADS));
  const share = Math.floor(TOTAL_BYTES / (2 * threads) / MIB) * MIB;
  return {threads, bufferBytes: Math.max(MIN_BUFFER_BYTES, Math.min(BUFFER_BYTES, share))};
}

/**
 * The worker (CommonJS, run with eval): allocates and touches its own pair of Float64Arrays, says it is ready,
 * then for each pass waits on the shared generation counter, copies `dst.set(src)` and reports its own start
 * and end (process.hrtime.bigint(): CLOCK_MONOTONIC, one clock for all threads of the process, so the main
 * thread can take the earliest start and the latest end without the latency of waking it up or messaging it).
 * ctl[0]: the pass to run now; ctl[1]: 1 = stop. It stays until told to stop (an exit is always a failure).
 */
const WORKER_CODE = `
const {parentPort, workerData} = require("node:worker_threads");
const ctl = new Int32Array(workerData.sab);
const n = workerData.bytes / 8;
const src = new Float64Array(n);
const dst = new Float64Array(n);
for (let i = 0; i < n; i++) src[i] = i;
dst.fill(1);
parentPort.postMessage({ready: true});
for (let p = 1; p <= workerData.passes; p++) {
  while (Atomics.load(ctl, 0) < p && Atomics.load(ctl, 1) === 0) Atomics.wait(ctl, 0, p - 1, 1000);
  if (Atomics.load(ctl, 1) !== 0) break;
  const t0 = process.hrtime.bigint();
  dst.set(src);
  const t1 = process.hrtime.bigint();
  parentPort.postMessage({pass: p, t0, t1, last: dst[n - 1]});
}
while (Atomics.load(ctl, 1) === 0) Atomics.wait(ctl, 1, 0, 1000);
`;

interface Message {
  ready?: boolean;
  pass?: number;
  t0?: bigint;
  t1?: bigint;
}

/** A worker's messages in order, and its failure (an error or an early exit) as a rejection of `next()`. */
function inbox(w: Worker): {next(): Promise<Message>} {
  const queue: Message[] = [];
  const waiting: {resolve(m: Message): void; reject(e: Error): void}[] = [];
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    for (const x of waiting.splice(0)) x.reject(failure);
  };
  w.on("message", (m: Message) => {
    const x = waiting.shift();
    if (x) x.resolve(m);
    else queue.push(m);
  });
  w.on("error", (e) => fail(new Error(`bandwidth worker failed: ${e.message}`)));
  w.on("exit", (code) => fail(new Error(`bandwidth worker exited early (code ${code})`)));
  return {
    next: () => {
      const m = queue.shift();
      if (m) return Promise.resolve(m);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.push({resolve, reject}));
    }
  };
}

/** Runs the warm-up and the timed passes; each pass's time runs from the earliest start to the latest end. */
async function timedPasses(
  workers: {next(): Promise<Message>}[],
  ctl: Int32Array,
  passes: number
): Promise<MemoryBandwidthProbe["trials"][number]["ns"][]> {
  await Promise.all(workers.map((w) => w.next()));
  const times: number[] = [];
  for (let p = 1; p <= passes + 1; p++) {
    Atomics.store(ctl, 0, p);
    Atomics.notify(ctl, 0);
    const ms = await Promise.all(workers.map((w) => w.next()));
    let start: bigint | null = null;
    let end: bigint | null = null;
    for (const m of ms) {
      if (m.pass !== p || m.t0 === undefined || m.t1 === undefined) throw new Error(`bandwidth worker out of step`);
      if (start === null || m.t0 < start) start = m.t0;
      if (end === null || m.t1 > end) end = m.t1;
    }
    if (p > 1) times.push(Number(end! - start!)); // pass 1 is the warm-up, not recorded
  }
  return times;
}

/** The threads, per-thread bytes and timed passes the probe runs with these options on this host. */
export function probePlan(o: BandwidthOptions = {}): ProbePlan {
  const plan = bandwidthPlan(o.threads ?? availableParallelism());
  const bufferBytes = Math.max(8, Math.floor((o.bufferBytes ?? plan.bufferBytes) / 8) * 8);
  return {threads: plan.threads, bufferBytes, passes: Math.max(1, o.passes ?? PASSES)};
}

/**
 * Host memory bandwidth, raw: T worker threads each copy their own buffer at once after a shared start
 * signal; one untimed warm-up pass, then `passes` timed ones. Records bytes moved (read + written, all
 * threads) and ns per pass; the analyzer derives GB/s (best pass, the STREAM convention). Bounded: past
 * `timeoutMs` it stops, records the error with no trials, and terminates the workers. The deadline is a
 * cancellable timer (like the samplers'), not the Effects clock: worker threads cannot share an injected clock.
 */
export async function measureMemoryBandwidth(o: BandwidthOptions = {}): Promise<MemoryBandwidthProbe> {
  const {threads, bufferBytes, passes} = probePlan(o);
  const timeoutMs = o.timeoutMs ?? TIMEOUT_MS;
  const base = {method: "parallel-copy" as const, threads, bufferBytes};
  const sab = new SharedArrayBuffer(8);
  const ctl = new Int32Array(sab);
  const workers: Worker[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let i = 0; i < threads; i++)
      workers.push(new Worker(WORKER_CODE, {eval: true, workerData: {sab, bytes: bufferBytes, passes: passes + 1}}));
    const boxes = workers.map(inbox);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`bandwidth probe timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    const times = await Promise.race([timedPasses(boxes, ctl, passes), deadline]);
    return {...base, trials: times.map((ns) => ({bytesMoved: 2 * bufferBytes * threads, ns})), error: null};
  } catch (e) {
    return {...base, trials: [], error: (e as Error).message};
  } finally {
    clearTimeout(timer);
    Atomics.store(ctl, 1, 1);
    Atomics.notify(ctl, 0);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * The probe as the fingerprint records it: skipped when INFERSCOPE_NO_BANDWIDTH=1 says so; else measured
 * once per boot and reused (`reusedFrom`) when the effects give files and a clock, unless
 * INFERSCOPE_BANDWIDTH_CACHE=off; else measured now.
 */
export async function hostBandwidth(
  fx: Pick<Effects, "env"> & Partial<Pick<Effects, "files" | "clock">>,
  o: BandwidthOptions = {}
): Promise<MemoryBandwidthProbe> {
  if (fx.env[NO_BANDWIDTH_ENV] === "1")
    return {method: "parallel-copy", threads: 0, bufferBytes: 0, trials: [], error: `skipped: ${NO_BANDWIDTH_ENV}=1`};
  const {files, clock, env} = fx;
  if (files === undefined || clock === undefined || env[BANDWIDTH_CACHE_ENV] === "off")
    return measureMemoryBandwidth(o);
  return bandwidthOncePerBoot({files, clock, env}, probePlan(o), () => measureMemoryBandwidth(o));
}
