#!/usr/bin/env node
/**
 * `npm run bench:client [-- --quick] [-- --pin] [-- --no-write] [-- --external 'NAME=COMMAND'] [-- --side-by-side]
 * [-- --transports]`:
 * the collector client's ceiling on this machine.
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
 * event-loop delay p99 passes 5 ms versus the load at which the timing error p99 passes 5 ms, (g) one
 * experiment over 1 and 2 workers (`collect --workers`), events per CPU-second per worker, (h) InferScope's
 * `collect` side by side with any external client command under one counting (`--side-by-side`: only that), (i) HTTP
 * client candidates (node:http as the collector drives it, a lean node:http handler, undici's dispatcher,
 * net.Socket + http-parser-js, and a no-parse floor) with the same full capture (`--transports`: only that).
 * Writes the tables to docs/client-benchmark.md. Bounded: about 2–3 minutes on 2 cores.
 */
import {spawnSync} from "node:child_process";
import {rmSync, writeFileSync} from "node:fs";
import {loadavg, tmpdir} from "node:os";
import {join} from "node:path";

import {createAgent} from "../collector/http/index.ts";
import type {Bench} from "./lib/benchClient/bench.ts";
import {PIN, QUICK, WRITE} from "./lib/benchClient/common.ts";
import {streams} from "./lib/benchClient/drivers.ts";
import {captureCost, goals} from "./lib/benchClient/goals.ts";
import {externalClients, sideBySide} from "./lib/benchClient/external.ts";
import {clientHealth} from "./lib/benchClient/health.ts";
import {poissonArrivals} from "./lib/benchClient/poisson.ts";
import {pin, startServer} from "./lib/benchClient/serverChild.ts";
import {eventsPerCpu, streamsPerCore} from "./lib/benchClient/throughput.ts";
import {collectAccuracy, timingAccuracy} from "./lib/benchClient/timing.ts";
import {transportCandidates} from "./lib/benchClient/transports/section.ts";
import {workersScaling} from "./lib/benchClient/workers.ts";
import {spliceSection, writeDoc} from "./lib/benchClient/writeDoc.ts";

async function main(): Promise<void> {
  const external = externalClients(process.argv.slice(2));
  if (process.argv.includes("--side-by-side")) return sideBySideOnly(external);
  if (process.argv.includes("--transports")) return transportsOnly();
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
  const bench: Bench = {url, agent, server, say, reps: QUICK ? 1 : 3};
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
    const accuracy = await timingAccuracy(bench);
    const collectAcc = await collectAccuracy(bench);
    const perCpu = await eventsPerCpu(bench);
    const maxOk = await streamsPerCore(bench);
    await poissonArrivals(bench);
    const health = await clientHealth(bench);
    await workersScaling(bench);
    const side = await sideBySide(bench, external);
    const transports = await transportCandidates(bench);
    captureCost(bench);
    goals(bench, {accuracy, collectAcc, perCpu, maxOk, health, side, transports});
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

/** `--side-by-side`: only section (h), printed, docs untouched. */
async function sideBySideOnly(external: ReturnType<typeof externalClients>): Promise<void> {
  await sideBySide({say: (s) => console.log(s), reps: QUICK ? 1 : 3}, external);
}

/** `--transports`: only section (i), printed and put into docs/client-benchmark.md (unless --no-write). */
async function transportsOnly(): Promise<void> {
  const dir = join(tmpdir(), `bench-client-${process.pid}`);
  spawnSync("mkdir", ["-p", dir]);
  const logFile = join(dir, "send.jsonl");
  writeFileSync(logFile, "");
  if (PIN) pin(process.pid, 0);
  const server = await startServer(logFile);
  const agent = createAgent(server.url, {maxSockets: 64});
  const out: string[] = [];
  const say = (s: string): void => {
    console.log(s);
    out.push(s);
  };
  try {
    await transportCandidates({url: server.url, agent, server, say, reps: QUICK ? 1 : 3});
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, {recursive: true, force: true});
  }
  if (WRITE) await spliceSection(out.join("\n"));
}

await main();
