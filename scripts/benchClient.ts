#!/usr/bin/env node
/**
 * `npm run bench:client [-- --quick] [-- --pin] [-- --no-write]`: the collector client's ceiling on this machine.
 *
 * The fake server runs in a CHILD process (`inferscope fake-server`, its own event loop; pinned to the
 * last core when taskset exists, the client to the first) and logs its own CLOCK_MONOTONIC send time
 * of every write. Both processes read the same monotonic clock, so collector − server differences are
 * real timing errors: kernel + event-loop + parsing latency on the client side.
 *
 * Measures (a) TTFT and per-event timing error at 1, 100 and 1,000 concurrent streams, (b) SSE events
 * per CPU-second of the client with full raw capture, next to a bare node:http client and fetch,
 * (c) the most concurrent streams one client core holds, (d) Poisson arrivals at 1, 100 and 1,000
 * req/s through the pacer (dispatch lag, KS test of the realised inter-arrivals), (e) the load at which
 * event-loop delay p99 passes 5 ms versus the load at which the timing error p99 passes 5 ms.
 * Writes the tables to docs/client-benchmark.md. Bounded: about 2–3 minutes on 2 cores.
 */
import {spawn, spawnSync, type ChildProcess} from "node:child_process";
import {closeSync, openSync, readSync, rmSync, statSync, writeFileSync} from "node:fs";
import {request as httpRequest, type Agent} from "node:http";
import {cpus, loadavg, tmpdir} from "node:os";
import {join} from "node:path";
import {monitorEventLoopDelay, performance, PerformanceObserver} from "node:perf_hooks";

import {format, resolveConfig} from "prettier";

import {createAgent, SseReader, StreamAccumulator, streamRequest, type StreamResult} from "../collector/http/index.ts";
import {createPacer} from "../collector/load/pacer.ts";
import type {SseEvent} from "../src/analysis/schema/records.ts";
import {exponentialCdf, ksTest, mulberry32} from "../src/analysis/stats/index.ts";
import {collectTiming, type ServerTimes} from "./lib/collectTiming.ts";
import {max} from "d3-array";

const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const PIN = args.has("--pin");
const WRITE = !args.has("--no-write");
const origin = process.hrtime.bigint();
const nowNs = (): number => Number(process.hrtime.bigint() - origin);
const ms = (ns: number): number => ns / 1e6;
const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

// ---------------------------------------------------------------- statistics helpers

function pct(xs: number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = Float64Array.from(xs).sort();
  return s[Math.max(0, Math.ceil(q * s.length - 1e-9) - 1)]!;
}
const f = (x: number | null, d = 2): string => (x === null ? "—" : x.toFixed(d));
const median = (xs: number[]): number => pct(xs, 0.5)!;

// ---------------------------------------------------------------- the server child and its send log

interface ServerChild {
  url: string;
  child: ChildProcess;
  /** Send times (ns relative to our origin) of every SSE event, per request id; waits until each id ended. */
  events(ids: readonly string[]): Promise<Map<string, number[]>>;
  /** The server's receipt time and event send times (absolute ns), per request id; waits until each id ended. */
  times(ids: readonly string[]): Promise<Map<string, ServerTimes>>;
  stop(): Promise<void>;
}

async function startServer(logFile: string): Promise<ServerChild> {
  const child = spawn(
    process.execPath,
    ["collector/cli.ts", "fake-server", "--port", "0", "--scenario", "zero", "--send-log", logFile],
    {stdio: ["ignore", "pipe", "inherit"]}
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b: Buffer) => {
      out += String(b);
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`fake server exited early (${code})`)));
  });
  if (PIN) pin(child.pid!, cpus().length - 1);
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
  return {
    url,
    child,
    async events(ids) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        readNew();
        if (ids.every((id) => ended.has(id)) || Date.now() > deadline) break;
        await sleep(20);
      }
      const out = new Map<string, number[]>();
      for (const id of ids) {
        out.set(id, times.get(id) ?? []);
        times.delete(id);
        absolute.delete(id);
        ended.delete(id);
      }
      return out;
    },
    async times(ids) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        readNew();
        if (ids.every((id) => ended.has(id)) || Date.now() > deadline) break;
        await sleep(20);
      }
      const out = new Map<string, ServerTimes>();
      for (const id of ids) {
        out.set(id, absolute.get(id) ?? {received: null, events: []});
        absolute.delete(id);
        times.delete(id);
        ended.delete(id);
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

function pin(pid: number, core: number): void {
  spawnSync("taskset", ["-pc", String(core), String(pid)], {stdio: "ignore"});
}

// ---------------------------------------------------------------- load drivers

interface Phase {
  results: {id: string; r: StreamResult}[];
  cpuS: number;
  wallS: number;
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  elu: number;
  /** Longest GC pause during the phase (ms). */
  gcMaxMs: number;
  /** What gate G6 reads: the worst 500 ms window's loop-delay p99 (ms, resolution subtracted). */
  gateMs: number;
  /** Share of the phase (%) during which the loop was more than 5 ms behind. */
  stallPct: number;
}

let seq = 0;
const body = (maxTokens: number): string =>
  JSON.stringify({
    model: "fake-model",
    messages: [{role: "user", content: "benchmark the client"}],
    stream: true,
    max_tokens: maxTokens,
    ignore_eos: true,
    stream_options: {include_usage: true}
  });

/** Measures CPU, wall, event-loop delay and utilisation around `fn`. */
async function measured<T>(fn: () => Promise<T>): Promise<{
  value: T;
  cpuS: number;
  wallS: number;
  loop: number[];
  elu: number;
  gcMaxMs: number;
  gateMs: number;
  stallPct: number;
}> {
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, e.duration);
  });
  gc.observe({entryTypes: ["gc"]});
  const h = monitorEventLoopDelay({resolution: 1});
  // G6's view: the worst 500 ms window's loop-delay p99, resolution subtracted (collector/telemetry/client.ts)
  const w = monitorEventLoopDelay({resolution: 1});
  let gateMs = 0;
  const closeWindow = (): void => {
    if (w.count > 0) gateMs = Math.max(gateMs, w.percentile(99) / 1e6 - 1);
    w.reset();
  };
  const windows = setInterval(closeWindow, 500);
  // Event-weighted view of the same stalls: a stall of d ms delays every event that arrives during it,
  // so the share of time the loop is more than 5 ms behind, Σ max(0, d − 5 ms) / T, is the share of
  // events delayed by more than 5 ms (a 1 ms timer chain measures each d exactly).
  let stallNs = 0;
  let prevTick = nowNs();
  let ticking = true;
  const tick = (): void => {
    const t = nowNs();
    const late = t - prevTick - 1e6;
    if (late > 5e6) stallNs += late - 5e6;
    prevTick = t;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const elu0 = performance.eventLoopUtilization();
  h.enable();
  w.enable();
  const c0 = process.cpuUsage();
  const t0 = nowNs();
  const value = await fn();
  const wallS = (nowNs() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  ticking = false;
  h.disable();
  clearInterval(windows);
  closeWindow();
  w.disable();
  const elu = performance.eventLoopUtilization(elu0).utilization;
  // resolution subtracted, as the collector records it
  const loop = [h.percentile(50) / 1e6 - 1, h.percentile(99) / 1e6 - 1, h.max / 1e6 - 1].map((x) => Math.max(0, x));
  await sleep(0); // let the observer deliver the last entries
  gc.disconnect();
  const stallPct = (100 * stallNs) / (wallS * 1e9);
  return {value, cpuS: (c.user + c.system) / 1e6, wallS, loop, elu, gcMaxMs, gateMs: Math.max(0, gateMs), stallPct};
}

/** N concurrent streams (closed loop), `perStream` sequential requests each, starts staggered over `staggerMs`. */
async function streams(
  url: string,
  agent: Agent,
  o: {concurrency: number; perStream: number; maxTokens: number; options: Record<string, unknown>; staggerMs: number}
): Promise<Phase> {
  const headers = {"x-fake-options": JSON.stringify(o.options)};
  const b = body(o.maxTokens);
  const run = await measured(async () => {
    const out: {id: string; r: StreamResult}[] = [];
    await Promise.all(
      Array.from({length: o.concurrency}, async (_, w) => {
        if (o.staggerMs > 0) await sleep((w / o.concurrency) * o.staggerMs);
        for (let k = 0; k < o.perStream; k++) {
          const id = `b${seq++}`;
          const r = await streamRequest({
            url: url + "/chat/completions",
            headers: {...headers, "x-request-id": id},
            body: b,
            origin,
            agent,
            keepText: true,
            timeouts: {connectMs: 10_000, headersMs: 30_000, idleMs: 30_000}
          });
          out.push({id, r});
        }
      })
    );
    return out;
  });
  return {
    results: run.value,
    cpuS: run.cpuS,
    wallS: run.wallS,
    loopP50Ms: run.loop[0]!,
    loopP99Ms: run.loop[1]!,
    loopMaxMs: run.loop[2]!,
    elu: run.elu,
    gcMaxMs: run.gcMaxMs,
    gateMs: run.gateMs,
    stallPct: run.stallPct
  };
}

/** Timing errors (ms): TTFT = first content event, per-event = every event; collector − server send time. */
async function timingErrors(
  server: ServerChild,
  p: Phase
): Promise<{ttft: number[]; perEvent: number[]; lost: number}> {
  const sent = await server.events(p.results.map((x) => x.id));
  const ttft: number[] = [];
  const perEvent: number[] = [];
  let lost = 0;
  for (const {id, r} of p.results) {
    const s = sent.get(id)!;
    if (s.length !== r.events.length) {
      lost += Math.abs(s.length - r.events.length);
      continue;
    }
    let first = true;
    r.events.forEach((e, i) => {
      const err = ms(e[0] - s[i]!);
      perEvent.push(err);
      if (first && e[2] === "content") {
        ttft.push(err);
        first = false;
      }
    });
  }
  return {ttft, perEvent, lost};
}

const ok = (p: Phase): number => p.results.filter(({r}) => r.transportError === null && r.httpStatus === 200).length;
const eventCount = (p: Phase): number => p.results.reduce((a, {r}) => a + r.events.length, 0);
/** Events per socket read: events that share an arrival time came in one chunk. */
function eventsPerRead(p: Phase): number {
  let reads = 0;
  for (const {r} of p.results) {
    let last = NaN;
    for (const e of r.events) {
      if (e[0] === last) continue;
      reads++;
      last = e[0];
    }
  }
  return eventCount(p) / Math.max(1, reads);
}

/** Opens `n` keep-alive sockets (n concurrent one-token requests) so a measured phase does not time a connection storm. */
async function warm(url: string, agent: Agent, n: number): Promise<void> {
  await streams(url, agent, {
    concurrency: n,
    perStream: 1,
    maxTokens: 1,
    options: {ttftMs: 0, tokenIntervalMs: 0},
    staggerMs: 0
  });
}

const medianOf = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : median(v);
};

/** Bare node:http client: split on blank lines and JSON.parse each payload; no timestamps kept. */
function bareHttp(url: string, agent: Agent, b: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {method: "POST", agent, headers: {...headers, "content-type": "application/json"}});
    req.on("error", reject);
    req.on("response", (res) => {
      res.setEncoding("utf8");
      let buf = "";
      let n = 0;
      res.on("data", (s: string) => {
        buf += s;
        for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (!ev.startsWith("data: ")) continue;
          const d = ev.slice(6);
          if (d !== "[DONE]") JSON.parse(d);
          n++;
        }
      });
      res.on("end", () => resolve(n));
    });
    req.end(b);
  });
}

/** fetch client: the same parsing over a web ReadableStream. */
async function fetchClient(url: string, b: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, {method: "POST", body: b, headers: {...headers, "content-type": "application/json"}});
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let n = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    buf += dec.decode(value, {stream: true});
    for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
      const ev = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (!ev.startsWith("data: ")) continue;
      const d = ev.slice(6);
      if (d !== "[DONE]") JSON.parse(d);
      n++;
    }
  }
  return n;
}

// ---------------------------------------------------------------- (f) the capture pipeline alone

/**
 * CPU per event of the collector's own work on recorded vLLM-style chunks, without sockets: UTF-8
 * decoding + eventsource-parser, then classification, usage bookkeeping and the event tuple.
 */
function pipelineCost(): {parseNs: number; fullNs: number; jsonNs: number} {
  const chunks = Array.from({length: 2000}, (_, i) =>
    Buffer.from(
      `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"content":" word${i % 50}"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":5,"completion_tokens":${i + 1},"total_tokens":${i + 6}}}\n\n`
    )
  );
  const rounds = QUICK ? 20 : 100;
  const time = (fn: () => void): number => {
    fn(); // warm
    const t = process.cpuUsage();
    fn();
    const c = process.cpuUsage(t);
    return ((c.user + c.system) * 1000) / (rounds * chunks.length);
  };
  const parseNs = time(() => {
    for (let k = 0; k < rounds; k++) {
      const r = new SseReader(1 << 24, {onEvent: () => {}, onTooLarge: () => {}});
      for (const b of chunks) r.write(b);
    }
  });
  const jsonNs = time(() => {
    for (let k = 0; k < rounds; k++) for (const b of chunks) JSON.parse(b.toString("utf8", 6, b.length - 2));
  });
  const fullNs = time(() => {
    for (let k = 0; k < rounds; k++) {
      const acc = new StreamAccumulator(true);
      const events: SseEvent[] = [];
      let t = 0;
      const r = new SseReader(1 << 24, {
        onEvent: (data, type, bytes) => void events.push([t, bytes, acc.push(data, type), acc.delta]),
        onTooLarge: () => {}
      });
      for (const b of chunks) {
        t = Number(process.hrtime.bigint() - origin);
        r.write(b);
      }
      acc.finish(events);
    }
  });
  return {parseNs, fullNs, jsonNs};
}

// ---------------------------------------------------------------- the measurements

interface Row {
  cells: string[];
}
const table = (head: string[], rows: Row[]): string =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.cells.join(" | ")} |`)
  ].join("\n");

async function main(): Promise<void> {
  const dir = join(tmpdir(), `bench-client-${process.pid}`);
  rmSync(dir, {recursive: true, force: true});
  spawnSync("mkdir", ["-p", dir]);
  const logFile = join(dir, "send.jsonl");
  writeFileSync(logFile, "");
  if (PIN) pin(process.pid, 0);
  const server = await startServer(logFile);
  const url = server.url;
  const agent = createAgent(url, {maxSockets: 5000});
  const out: string[] = [];
  const say = (s: string): void => {
    console.log(s);
    out.push(s);
  };
  const t0 = Date.now();
  const load0 = loadavg()[0]!;
  try {
    // warm up: JIT, sockets
    await streams(url, agent, {
      concurrency: 100,
      perStream: 2,
      maxTokens: 50,
      options: {ttftMs: 0, tokenIntervalMs: 1},
      staggerMs: 0
    });
    await server.events([]);

    // (a) timing error at 1, 100 and 1,000 streams (warm keep-alive sockets; median over repetitions)
    const reps = QUICK ? 1 : 3;
    const levels = [
      {concurrency: 1, perStream: QUICK ? 15 : 40, maxTokens: 20, interval: 5},
      {concurrency: 100, perStream: 1, maxTokens: 100, interval: 10},
      {concurrency: 1000, perStream: 1, maxTokens: QUICK ? 20 : 40, interval: 50}
    ];
    const rowsA: Row[] = [];
    const accuracy: Record<number, {ttft50: number | null; ttft99: number | null; tok99: number | null}> = {};
    for (const l of levels) {
      const options = {ttftMs: 20, tokenIntervalMs: l.interval};
      const runs: {e: Awaited<ReturnType<typeof timingErrors>>; p: Phase}[] = [];
      for (let k = 0; k < reps; k++) {
        await warm(url, agent, l.concurrency);
        const p = await streams(url, agent, {...l, options, staggerMs: l.interval});
        runs.push({e: await timingErrors(server, p), p});
      }
      const m = (fn: (x: {e: Awaited<ReturnType<typeof timingErrors>>; p: Phase}) => number | null): number | null =>
        medianOf(runs.map(fn));
      accuracy[l.concurrency] = {
        ttft50: m(({e}) => pct(e.ttft, 0.5)),
        ttft99: m(({e}) => pct(e.ttft, 0.99)),
        tok99: m(({e}) => pct(e.perEvent, 0.99))
      };
      rowsA.push({
        cells: [
          String(l.concurrency),
          `${l.interval} ms × ${l.maxTokens}`,
          `${runs[0]!.p.results.length} × ${reps}`,
          String(runs.reduce((a, {e}) => a + e.perEvent.length, 0)),
          f(accuracy[l.concurrency]!.ttft50, 3),
          f(accuracy[l.concurrency]!.ttft99, 3),
          f(
            m(({e}) => pct(e.perEvent, 0.5)),
            3
          ),
          f(accuracy[l.concurrency]!.tok99, 3),
          f(
            m(({e}) => pct(e.perEvent, 1)),
            1
          ),
          f(m(({p}) => p.gateMs)),
          f(
            max(runs, ({p}) => p.gcMaxMs)!,
            1
          ),
          String(runs.reduce((a, {e}) => a + e.lost, 0)),
          String(runs.reduce((a, {p}) => a + p.results.length - ok(p), 0))
        ]
      });
    }
    say(
      `\n### (a) Timing error, collector − server send time (ms; median over ${reps} run${reps > 1 ? "s" : ""}, warm sockets)\n`
    );
    say(
      table(
        [
          "streams",
          "token interval × tokens",
          "requests × runs",
          "events",
          "TTFT p50",
          "TTFT p99",
          "per-event p50",
          "per-event p99",
          "per-event max",
          "G6 loop delay p99",
          "longest GC pause",
          "lost",
          "failed"
        ],
        rowsA
      )
    );

    // (a2) the same definition through collect() itself, in both connection modes (issue 10 item 5)
    const collectRows: Row[] = [];
    const collectAcc: Record<string, number | null> = {};
    for (const mode of ["reuse", "per_request"] as const)
      for (const concurrency of [1, 100]) {
        const runs: Awaited<ReturnType<typeof collectTiming>>[] = [];
        for (let k = 0; k < reps; k++)
          runs.push(
            await collectTiming({
              url,
              mode,
              concurrency,
              requests: concurrency === 1 ? (QUICK ? 20 : 40) : QUICK ? 200 : 400,
              fakeOptions: {ttftMs: 20, tokenIntervalMs: concurrency === 1 ? 5 : 10},
              serverTimes: (ids) => server.times(ids)
            })
          );
        const p50 = medianOf(runs.map((r) => pct(r.errors, 0.5)));
        collectAcc[`${mode}-${concurrency}`] = p50;
        collectRows.push({
          cells: [
            mode,
            String(concurrency),
            `${runs[0]!.requests} × ${reps}`,
            f(p50, 3),
            f(medianOf(runs.map((r) => pct(r.errors, 0.99))), 3),
            f(medianOf(runs.map((r) => pct(r.setupMs, 0.5))), 3),
            String(runs.reduce((a, r) => a + r.reused, 0)),
            String(runs.reduce((a, r) => a + r.failed, 0))
          ]
        });
      }
    say(
      `\n### (a2) Timing error through \`collect\`, both connection modes (ms; median over ${reps} run${reps > 1 ? "s" : ""})\n`
    );
    say(
      "error = (client first token − client start `tCallNs`) − (server first-token send − server receipt); per_request also subtracts the recorded connect time (`tConnNs − tCallNs`). The whole collector runs: request builder, pool, telemetry monitors, writer.\n"
    );
    say(
      table(
        ["connections", "streams", "requests × runs", "error p50", "error p99", "setup p50", "reused", "unmatched"],
        collectRows
      )
    );

    // (b) events per CPU-second: ours (full raw capture) vs bare node:http vs fetch, two regimes
    const regimes = [
      {name: "paced", concurrency: 100, maxTokens: QUICK ? 100 : 200, options: {ttftMs: 0, tokenIntervalMs: 5}},
      {name: "zero-latency", concurrency: 100, maxTokens: QUICK ? 300 : 1000, options: {ttftMs: 0, tokenIntervalMs: 0}}
    ];
    const rowsB: Row[] = [];
    const evPerCpu: Record<string, Record<string, number>> = {};
    for (const reg of regimes) {
      evPerCpu[reg.name] = {};
      const b = body(reg.maxTokens);
      const headers = {"x-fake-options": JSON.stringify(reg.options)};
      const ours: number[] = [];
      const bare: number[] = [];
      const viaFetch: number[] = [];
      const perRead: number[] = [];
      for (let k = 0; k < reps; k++) {
        const p = await streams(url, agent, {
          concurrency: reg.concurrency,
          perStream: 1,
          maxTokens: reg.maxTokens,
          options: reg.options,
          staggerMs: 0
        });
        // full raw capture includes serialising each record as the writer would
        const ser = await measured(async () => p.results.reduce((a, {r}) => a + JSON.stringify(r).length, 0));
        ours.push(eventCount(p) / (p.cpuS + ser.cpuS));
        perRead.push(eventsPerRead(p));
        await server.events(p.results.map((x) => x.id));
        const hb = await measured(() =>
          Promise.all(
            Array.from({length: reg.concurrency}, () =>
              bareHttp(url + "/chat/completions", agent, b, {...headers, "x-request-id": `b${seq++}`})
            )
          )
        );
        bare.push(hb.value.reduce((a, n) => a + n, 0) / hb.cpuS);
        const fb = await measured(() =>
          Promise.all(
            Array.from({length: reg.concurrency}, () =>
              fetchClient(url + "/chat/completions", b, {...headers, "x-request-id": `b${seq++}`})
            )
          )
        );
        viaFetch.push(fb.value.reduce((a, n) => a + n, 0) / fb.cpuS);
      }
      evPerCpu[reg.name] = {ours: median(ours), bare: median(bare), fetch: median(viaFetch)};
      rowsB.push({
        cells: [
          reg.name,
          `${reg.concurrency} × ${reg.maxTokens}`,
          f(median(perRead)),
          Math.round(median(ours)).toLocaleString("en-US"),
          Math.round(median(bare)).toLocaleString("en-US"),
          Math.round(median(viaFetch)).toLocaleString("en-US"),
          (median(ours) / median(bare)).toFixed(2),
          (median(ours) / median(viaFetch)).toFixed(2)
        ]
      });
    }
    await server.events([]);
    say(`\n### (b) SSE events per client CPU-second (median of ${reps})\n`);
    say(
      table(
        [
          "regime",
          "streams × tokens",
          "events per read",
          "collector (full capture)",
          "bare node:http",
          "fetch",
          "collector / bare",
          "collector / fetch"
        ],
        rowsB
      )
    );

    // (c) concurrent streams on one core
    const rowsC: Row[] = [];
    let maxOk = 0;
    for (const n of QUICK ? [1000, 2000] : [1000, 2000, 4000]) {
      const a = createAgent(url, {maxSockets: n + 64});
      await warm(url, a, n);
      const p = await streams(url, a, {
        concurrency: n,
        perStream: 1,
        maxTokens: 20,
        options: {ttftMs: 50, tokenIntervalMs: 100},
        staggerMs: 100
      });
      a.destroy();
      const e = await timingErrors(server, p);
      const good = ok(p);
      if (good === n && e.lost === 0) maxOk = n;
      rowsC.push({
        cells: [
          String(n),
          String(good),
          String(e.lost),
          f(pct(e.perEvent, 0.5), 3),
          f(pct(e.perEvent, 0.99), 3),
          f(p.gateMs),
          f(p.elu),
          f(p.cpuS / p.wallS)
        ]
      });
    }
    say("\n### (c) Concurrent streams on one client core (100 ms per token, 20 tokens)\n");
    say(
      table(
        [
          "streams",
          "succeeded",
          "events lost",
          "per-event error p50",
          "per-event error p99",
          "G6 loop delay p99",
          "ELU",
          "CPU cores used"
        ],
        rowsC
      )
    );

    // (d) Poisson arrivals through the pacer
    const rowsD: Row[] = [];
    for (const {rate, n} of QUICK
      ? [
          {rate: 1, n: 8},
          {rate: 100, n: 300},
          {rate: 1000, n: 2000}
        ]
      : [
          {rate: 1, n: 30},
          {rate: 100, n: 1000},
          {rate: 1000, n: 5000}
        ]) {
      const rng = mulberry32(42 + rate);
      const sched: number[] = [];
      let t = 0;
      for (let i = 0; i < n; i++) {
        t += (-Math.log(1 - rng()) / rate) * 1e9;
        sched.push(Math.round(t));
      }
      const pacer = createPacer({origin, spinMs: 1.5});
      const start = nowNs() + 20e6;
      const lates: number[] = [];
      const released: number[] = [];
      const run = await measured(async () => {
        const pending: Promise<StreamResult>[] = [];
        for (const s of sched) {
          const {lateNs} = await pacer.waitUntil(start + s);
          lates.push(lateNs);
          released.push(nowNs());
          pending.push(
            streamRequest({
              url: url + "/chat/completions",
              headers: {"x-fake-options": '{"ttftMs":5,"tokenIntervalMs":1}', "x-request-id": `b${seq++}`},
              body: body(4),
              origin,
              agent,
              timeouts: {connectMs: 10_000, headersMs: 30_000, idleMs: 30_000}
            })
          );
        }
        return Promise.all(pending);
      });
      await server.events([]);
      const disp = run.value.map((r) => r.tDispNs!).filter((x) => x !== null);
      const lag = run.value.map((r, i) => ms(r.tDispNs! - (start + sched[i]!)));
      const gapsOf = (ts: number[]): number[] => ts.slice(1).map((x, i) => (x - ts[i]!) / 1e9);
      const ksOf = (ts: number[]): string => {
        const k = ksTest(gapsOf(ts), exponentialCdf(rate));
        return k === undefined ? "—" : `${k.d.toFixed(3)} / ${k.p.toFixed(2)}`;
      };
      rowsD.push({
        cells: [
          String(rate),
          String(n),
          f(pct(lates.map(ms), 0.5), 3),
          f(pct(lates.map(ms), 0.99), 3),
          f(pct(lag, 0.5), 3),
          f(pct(lag, 0.99), 3),
          ksOf(sched),
          ksOf(released),
          ksOf(disp),
          f((n - 1) / ((disp[disp.length - 1]! - disp[0]!) / 1e9), 1),
          f(run.gateMs)
        ]
      });
    }
    say("\n### (d) Poisson arrivals (seeded, mulberry32) through the pacer\n");
    say(
      table(
        [
          "rate (req/s)",
          "requests",
          "pacer late p50 (ms)",
          "pacer late p99 (ms)",
          "dispatch lag p50 (ms)",
          "dispatch lag p99 (ms)",
          "KS D / p: schedule",
          "KS D / p: pacer release",
          "KS D / p: dispatch",
          "achieved rate",
          "G6 loop delay p99"
        ],
        rowsD
      )
    );

    // (e) client health: gate G6 (worst-window loop-delay p99 > 5 ms) versus the timing error, as load rises.
    // Judged run by run: a run whose per-event error p99 exceeds 5 ms while the gate passes is a miss.
    const rowsE: Row[] = [];
    let misses = 0;
    let conservative = 0;
    let badRuns = 0;
    let altMisses = 0;
    let altConservative = 0;
    const repsE = QUICK ? 1 : 2;
    const levelsE = QUICK ? [50, 100, 200, 400] : [25, 50, 100, 150, 200, 300, 400, 800];
    const firstGate: number[] = [];
    const firstBad: number[] = [];
    for (const n of levelsE) {
      for (let k = 0; k < repsE; k++) {
        const a = createAgent(url, {maxSockets: n + 64});
        await warm(url, a, n);
        const p = await streams(url, a, {
          concurrency: n,
          perStream: 1,
          maxTokens: 100,
          options: {ttftMs: 10, tokenIntervalMs: 5},
          staggerMs: 5
        });
        a.destroy();
        const e = await timingErrors(server, p);
        const err99 = pct(e.perEvent, 0.99);
        // G6 warns when either rule fires: the worst window's loop-delay p99 > 5 ms, or the loop ran
        // more than 5 ms late for more than 1 % of the time (src/analysis/gates/client.ts)
        const p99Rule = p.gateMs > 5;
        const alt = p.stallPct > 1;
        const gate = p99Rule || alt;
        const bad = err99 !== null && err99 > 5;
        if (bad) badRuns++;
        if (bad && !gate) misses++;
        if (gate && !bad) conservative++;
        if (bad && !p99Rule) altMisses++;
        if (p99Rule && !bad) altConservative++;
        if (gate) firstGate[k] ??= n;
        if (bad) firstBad[k] ??= n;
        rowsE.push({
          cells: [
            String(n),
            String(k + 1),
            Math.round(eventCount(p) / p.wallS).toLocaleString("en-US"),
            f(p.gateMs),
            f(p.loopMaxMs, 1),
            f(err99, 3),
            f(p.elu),
            f(p.gcMaxMs, 1),
            f(p.stallPct, 2),
            p99Rule ? "warn" : "pass",
            alt ? "warn" : "pass",
            gate ? "warn" : "pass",
            bad ? "> 5 ms" : "≤ 5 ms",
            bad && !gate ? "**G6 missed**" : ""
          ]
        });
      }
    }
    const gateFirst = misses === 0;
    say(
      "\n### (e) Client health: gate G6 (loop-delay p99 > 5 ms in the worst 500 ms window, or the loop > 5 ms late for more than 1 % of the time) versus timing error (5 ms per token, 100 tokens)\n"
    );
    say(
      table(
        [
          "streams",
          "run",
          "events/s",
          "G6 loop delay p99 (ms)",
          "loop delay max (ms)",
          "per-event error p99 (ms)",
          "ELU",
          "longest GC pause (ms)",
          "time > 5 ms behind (%)",
          "p99 rule",
          "stall > 1 %",
          "G6",
          "timing error",
          ""
        ],
        rowsE
      )
    );
    const firsts = (xs: number[]): string => (xs.length === 0 ? "—" : xs.map((x) => x ?? "—").join(" / "));
    say(
      `\nRuns with timing error p99 > 5 ms: ${badRuns}; G6 (either rule) missed ${misses} of them and warned on ${conservative} runs whose error was ≤ 5 ms. ` +
        `The loop-delay p99 rule alone would have missed ${altMisses} and warned on ${altConservative} runs whose error was ≤ 5 ms. ` +
        `G6 first warned at ${firsts(firstGate)} streams (per repetition); the error first exceeded 5 ms at ${firsts(firstBad)} streams.`
    );
    const gateAt = firsts(firstGate);
    const errAt = firsts(firstBad);

    // (f) the capture pipeline alone
    const pc = pipelineCost();
    say("\n### (f) The collector's capture pipeline alone (recorded chunks, no sockets; CPU ns per event)\n");
    say(
      table(
        [
          "UTF-8 decode + eventsource-parser",
          "JSON.parse only",
          "full capture (decode, parse, classify, usage, tuple)"
        ],
        [{cells: [pc.parseNs.toFixed(0), pc.jsonNs.toFixed(0), pc.fullNs.toFixed(0)]}]
      )
    );

    // goals
    const paced = evPerCpu[regimes[0]!.name]!.ours!;
    const zero = evPerCpu[regimes[1]!.name]!.ours!;
    const goals: Row[] = [
      {
        cells: [
          "TTFT error p50 at 1 stream",
          "≤ 0.5 ms",
          `${f(accuracy[1]!.ttft50, 3)} ms`,
          yes((accuracy[1]!.ttft50 ?? Infinity) <= 0.5)
        ]
      },
      {
        cells: [
          "TTFT error p50 at 100 streams",
          "≤ 1 ms",
          `${f(accuracy[100]!.ttft50, 3)} ms`,
          yes((accuracy[100]!.ttft50 ?? Infinity) <= 1)
        ]
      },
      {
        cells: [
          "per-token error p99 at 100 streams",
          "≤ 2 ms",
          `${f(accuracy[100]!.tok99, 3)} ms`,
          yes((accuracy[100]!.tok99 ?? Infinity) <= 2)
        ]
      },
      {
        cells: [
          "SSE events per CPU-second, full raw capture",
          "≥ 60,000",
          `${Math.round(paced).toLocaleString("en-US")} paced / ${Math.round(zero).toLocaleString("en-US")} zero-latency`,
          paced >= 60_000 ? "yes" : zero >= 60_000 ? "zero-latency only" : "no"
        ]
      },
      {
        cells: [
          "concurrent streams on one core",
          "≥ 1,000",
          `${maxOk.toLocaleString("en-US")} all succeeded`,
          yes(maxOk >= 1000)
        ]
      },
      {
        cells: [
          "client-health gate fires before error > 5 ms",
          "yes",
          `${misses} missed of ${badRuns} runs with error > 5 ms; first warning at ${gateAt}, first error at ${errAt} streams`,
          yes(gateFirst)
        ]
      }
    ];
    goals.push(
      {
        cells: [
          "timing error p50 through collect, 1 stream, reuse",
          "≤ 0.5 ms",
          `${f(collectAcc["reuse-1"] ?? null, 3)} ms`,
          yes((collectAcc["reuse-1"] ?? Infinity) <= 0.5)
        ]
      },
      {
        cells: [
          "timing error p50 through collect, 100 streams, reuse",
          "≤ 1 ms",
          `${f(collectAcc["reuse-100"] ?? null, 3)} ms`,
          yes((collectAcc["reuse-100"] ?? Infinity) <= 1)
        ]
      },
      {
        cells: [
          "the same, one connection per request, connect subtracted (1 / 100 streams)",
          "≤ 0.5 / ≤ 1 ms",
          `${f(collectAcc["per_request-1"] ?? null, 3)} / ${f(collectAcc["per_request-100"] ?? null, 3)} ms`,
          yes((collectAcc["per_request-1"] ?? Infinity) <= 0.5 && (collectAcc["per_request-100"] ?? Infinity) <= 1)
        ]
      }
    );
    say("\n### Goals (issues 3 and 10)\n");
    say(table(["goal", "target", "measured", "met"], goals));
    say(
      `\nTotal bench time ${((Date.now() - t0) / 1000).toFixed(0)} s; 1-minute load average ${load0.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (other work shares these cores).`
    );
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, {recursive: true, force: true});
  }
  if (WRITE) await writeDoc(out);
}

const yes = (b: boolean): string => (b ? "yes" : "no");

async function writeDoc(sections: string[]): Promise<void> {
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  const doc = `# Client benchmark (\`npm run bench:client\`)

Measured ${date} on ${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, Node ${process.version}, ${process.platform}/${process.arch}.
Command: \`npm run bench:client${QUICK ? " -- --quick" : ""}${PIN ? " -- --pin" : ""}\`. ${
    PIN ? "Client pinned to core 0 and the fake server to the last core with `taskset`." : "No CPU pinning."
  } The machine is shared with other work, so numbers move by ±10–20 % between runs.

How it measures: the fake server (\`inferscope fake-server --scenario zero\`) runs in a child process and
logs its own CLOCK_MONOTONIC time of every write; the collector's transport (\`collector/http/stream.ts\`,
node:http + eventsource-parser, one clock reading per socket chunk) records every event. Both processes
read the same monotonic clock, so *collector − server* is the client-side timing error (kernel delivery,
event-loop wait, parsing). TTFT error uses the first content event; per-event error uses every event.
Events per CPU-second divide the events received by the client process's user+system CPU
(\`process.cpuUsage\`), including JSON serialisation of every record ("full raw capture"); the bare node:http
and fetch clients split events and JSON.parse them but keep nothing. Event-loop delay comes from
\`monitorEventLoopDelay({resolution: 1})\`,
the 1 ms resolution subtracted as the collector records it; "G6 loop delay p99" is what gate G6 reads: the worst
500 ms window's p99. Poisson schedules are seeded (mulberry32, seed 42 + rate),
dispatched by \`collector/http/pacer.ts\`; the KS test compares the realised dispatch gaps with the exponential
distribution (\`src/analysis/stats/ks.ts\`).

## Results
${sections.join("\n")}

## Reading the numbers

- **Medians are the client; tails are mostly the machine.** With warm keep-alive sockets the p50 timing
  error stays well under a millisecond. The p99 and max columns follow the "longest GC pause" and the
  stalls of a CPU shared with other work (see the load average above): a stall of *d* ms delays every
  event that arrives during it by up to *d* ms.
- **Events per CPU-second.** "paced" streams deliver about one event per socket read, the worst case:
  the cost is then node:http's read path plus the kernel (the collector's own decoding, parsing,
  classification and capture cost is table (f), about a microsecond per event), which is why the collector and the bare
  node:http client land close together. "zero-latency" lets many events share a read, as a busy server
  does; real servers sit between the two.
- **Concurrent streams.** Thousands of streams fit in one client thread (all succeed, nothing lost); the
  per-event error grows with the event rate the loop must absorb, which (e) quantifies.
- **Poisson.** The schedule itself passes the KS test. The pacer sleeps until ~1.5 ms before each deadline
  and polls with setImmediate; its release times and the dispatch times deviate from the exponential
  shape at high rates because two requests cannot be dispatched closer together than the per-request
  CPU cost (~0.1 ms, creating the request and writing it), so the shortest gaps are stretched, and a stall
  releases the overdue requests in a burst. The schedule is saved in the bundle, so schedule-based latencies
  show this and dispatch lag p99 measures it.
- **Client health (e).** Gate G6 has two rules. The worst 500 ms window's loop-delay p99 alone is blind to
  single stalls: timer samples are time-weighted, a 50 ms stall is one late sample among ~500, so the p99
  hardly moves while every event that arrived during the stall is late. So the collector also records
  every stall over 2 ms (a 1 ms timer), and G6 warns when the loop is more than 5 ms behind for more than
  1 % of the time, Σ max(0, d − 5 ms) / T: above 1 %, more than 1 % of events are delayed by more than 5 ms.
  The table shows where each rule fires relative to the measured timing error.
- For scale (issue 3): on this machine vLLM's benchmark client measured a TTFT p50 error of about +67 ms at
  100 streams and handled about 13,700 events per CPU-second; a bare node:http client about 20,000.
`;
  // formatted like the rest of the repository (npm test runs prettier --check on docs/)
  const path = "docs/client-benchmark.md";
  writeFileSync(path, await format(doc, {...(await resolveConfig(path)), parser: "markdown"}));
  console.log(`\nwrote ${path}`);
}

await main();
