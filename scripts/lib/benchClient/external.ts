/**
 * (h) Side by side through the command line (issue 17): InferScope's `collect`, run as a user runs it
 * (collector/bin.mjs: start-up, probe, fingerprint, load, bundle, final analysis), and any external client
 * command, under one counting. Each command runs under `bash -c '…; times'`: the CPU is the user + system
 * time of everything the command started (getrusage of the waited-for children, so nothing is sampled or
 * missed), and the events are what the bench's own fake server logged as sent to it. A 1-request run gives
 * each client's fixed cost; "beyond fixed" divides the events by the CPU above it.
 *
 * `npm run bench:client -- --external 'NAME=COMMAND'` (repeatable) adds a client. COMMAND may use
 * {base_url} (http://127.0.0.1:PORT/v1), {host}, {port}, {streams}, {requests}, {tokens} and {model}.
 */
import {spawn} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {stringify} from "yaml";

import type {HttpClient} from "../../../src/analysis/schema/config.ts";

import type {Bench} from "./bench.ts";
import {f, median, QUICK, table, type Row} from "./common.ts";
import {startServer, type ServerChild} from "./serverChild.ts";

export interface ClientCommand {
  name: string;
  /** The command line, with placeholders. */
  command: string;
}

/** `--external NAME=COMMAND` arguments, in order. */
export function externalClients(argv: readonly string[]): ClientCommand[] {
  const out: ClientCommand[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--external") continue;
    const v = argv[i + 1] ?? "";
    const eq = v.indexOf("=");
    if (eq <= 0) throw new Error(`--external needs NAME=COMMAND, got ${JSON.stringify(v)}`);
    out.push({name: v.slice(0, eq), command: v.slice(eq + 1)});
  }
  return out;
}

/** 64 tokens, paced so that a read carries about one event, as a decoding engine sends them. */
const SERVER_OPTIONS = {ttftMs: 5, tokenIntervalMs: 1};
const TOKENS = 64;
const LOADS = QUICK
  ? [
      {streams: 1, requests: 20},
      {streams: 100, requests: 200}
    ]
  : [
      {streams: 1, requests: 100},
      {streams: 100, requests: 1000}
    ];

interface Load {
  streams: number;
  requests: number;
}
interface Measured {
  cpuS: number;
  events: number;
  requests: number;
  code: number | null;
}

/** InferScope's events per CPU-second ÷ an external client's, at one load (the goal is ≥ 2). */
export interface SideRatio {
  /** Which InferScope client (target.http_client). */
  ours: HttpClient;
  client: string;
  streams: number;
  ratio: number;
}

export async function sideBySide(
  bench: Pick<Bench, "say" | "reps">,
  external: readonly ClientCommand[]
): Promise<SideRatio[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-side-"));
  const log = join(dir, "send.jsonl");
  writeFileSync(log, "");
  const server = await startServer(log, SERVER_OPTIONS);
  try {
    const builtIn = HTTP_CLIENTS.map((h) => ({name: inferscopeName(h), command: inferscopeCommand(dir, h)}));
    const clients: ClientCommand[] = [...builtIn, ...external];
    const rows: Row[] = [];
    const ratios: SideRatio[] = [];
    const fixed = new Map<string, number>();
    for (const c of clients) {
      const runs: number[] = [];
      for (let r = 0; r < bench.reps; r++)
        runs.push((await measure(c, {streams: 1, requests: 1}, server, log, dir)).cpuS);
      fixed.set(c.name, median(runs));
    }
    for (const load of LOADS) {
      const per = new Map<string, Measured[]>(clients.map((c) => [c.name, []]));
      // interleaved, so that a noisy stretch of the machine falls on every client alike
      for (let r = 0; r < bench.reps; r++)
        for (const c of clients) per.get(c.name)!.push(await measure(c, load, server, log, dir));
      const ours = per.get(clients[0]!.name)!;
      for (const c of clients) rows.push(row(c.name, load, per.get(c.name)!, fixed.get(c.name)!, ours));
      for (const h of HTTP_CLIENTS)
        for (const c of external)
          ratios.push({
            ours: h,
            client: c.name,
            streams: load.streams,
            ratio: ratio(per.get(inferscopeName(h))!, per.get(c.name)!)
          });
    }
    report(bench, rows, clients);
    return ratios;
  } finally {
    await server.stop();
    rmSync(dir, {recursive: true, force: true});
  }
}

const rate = (m: Measured) => m.events / m.cpuS;
const ratio = (ours: Measured[], theirs: Measured[]) => median(ours.map(rate)) / median(theirs.map(rate));

function row(name: string, load: Load, runs: Measured[], fixedS: number, ours: Measured[]): Row {
  const beyond = (m: Measured) => (m.cpuS > fixedS ? m.events / (m.cpuS - fixedS) : null);
  const perCpu = median(runs.map(rate));
  const failed = runs.filter((m) => m.code !== 0 && m.code !== 4).length;
  const net = runs.map(beyond).filter((x): x is number => x !== null);
  return {
    cells: [
      String(load.streams),
      `${load.requests} × ${TOKENS}`,
      name,
      String(median(runs.map((m) => m.events))),
      f(median(runs.map((m) => m.cpuS)), 2),
      f(fixedS, 2),
      Math.round(perCpu).toLocaleString("en-US"),
      net.length > 0 ? Math.round(median(net)).toLocaleString("en-US") : "—",
      f(ratio(ours, runs), 2),
      failed > 0 ? `${failed} of ${runs.length} runs failed` : ""
    ]
  };
}

function report(bench: Pick<Bench, "say" | "reps">, rows: Row[], clients: ClientCommand[]): void {
  bench.say(
    `\n### (h) Side by side through the command line: events per CPU-second of each client's whole process tree (median of ${bench.reps})\n`
  );
  bench.say(
    `The bench's fake server in its own process (TTFT ${SERVER_OPTIONS.ttftMs} ms, a token every ${SERVER_OPTIONS.tokenIntervalMs} ms, ${TOKENS} tokens, ignore_eos); every client started as a user starts it, under \`bash -c '…; times'\` (CPU: user + system of the whole process tree); events: what the server logged as sent to that run. "fixed" is the median CPU of a 1-request run (start-up, probe, fingerprint, final analysis); "beyond fixed" divides the events by the CPU above it.`
  );
  bench.say("");
  bench.say(
    table(
      [
        "streams",
        "requests × tokens",
        "client",
        "events",
        "CPU-s",
        "fixed CPU-s",
        "events per CPU-s",
        "beyond fixed",
        "InferScope ÷ this",
        "note"
      ],
      rows
    )
  );
  bench.say(
    `\nInferScope collect runs with \`target.http_client: node_http\` (node:http's client) and \`socket\` (the bare-socket client, the default); "InferScope ÷ this" is the node_http run's rate over the row's.`
  );
  for (const c of clients.slice(HTTP_CLIENTS.length)) bench.say(`\n${c.name}: \`${c.command}\``);
  if (clients.length === HTTP_CLIENTS.length)
    bench.say(
      `\nNo external client in this run: \`npm run bench:client -- --external 'NAME=COMMAND'\` adds one (placeholders {base_url}, {host}, {port}, {streams}, {requests}, {tokens}, {model}).`
    );
}

/** Both of the collector's clients; node_http first, the reference of the "InferScope ÷ this" column. */
export const HTTP_CLIENTS: readonly HttpClient[] = ["node_http", "socket"];
const inferscopeName = (h: HttpClient): string => `InferScope collect (${h})`;

/** `inferscope collect` through its launcher (as `npx inferscope` runs it, less npm's own start-up). */
function inferscopeCommand(dir: string, h: HttpClient): string {
  return `"${process.execPath}" collector/bin.mjs collect --config "${dir}/inferscope-${h}-{streams}-{requests}.yaml" --out "${dir}/evidence" --no-progress --host-label bench`;
}

/** The collect config for one load (written before the run: the command names it by streams and requests). */
function writeInferscopeConfig(dir: string, server: ServerChild, load: Load): void {
  for (const h of HTTP_CLIENTS) {
    const config = {
      name: `side-${load.streams}`,
      target: {base_url: server.url, model: "fake-model", endpoint: "chat", engine: "fake", http_client: h},
      workload: {prompt_tokens: 16, max_tokens: TOKENS, ignore_eos: true, salt: false},
      load: [{mode: "concurrency", values: [load.streams], requests: load.requests, warmup: 0}],
      telemetry: {server_metrics: "off", gpu: "off", interval_ms: 250},
      gates: {min_samples: 5}
    };
    writeFileSync(join(dir, `inferscope-${h}-${load.streams}-${load.requests}.yaml`), stringify(config));
  }
}

const fill = (command: string, server: ServerChild, load: Load): string => {
  const u = new URL(server.url);
  const values: Record<string, string> = {
    base_url: server.url,
    host: u.hostname,
    port: u.port,
    streams: String(load.streams),
    requests: String(load.requests),
    tokens: String(TOKENS),
    model: "fake-model"
  };
  return command.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
};

/** Runs one client command at one load; its process tree's CPU from `times`, its events from the server's log. */
async function measure(c: ClientCommand, load: Load, server: ServerChild, log: string, dir: string): Promise<Measured> {
  writeInferscopeConfig(dir, server, load);
  const before = readFileSync(log).length;
  const timesFile = join(dir, "times.txt");
  const command = fill(c.command, server, load);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn("bash", ["-c", `${command} >"${dir}/client.log" 2>&1; s=$?; times >"${timesFile}"; exit $s`], {
      stdio: "ignore"
    });
    child.on("close", resolve);
  });
  await new Promise((r) => setTimeout(r, 200)); // the server's last log lines
  const sent = readFileSync(log).subarray(before).toString("utf8").split("\n").filter(Boolean);
  let events = 0;
  let requests = 0;
  for (const line of sent) {
    const e = JSON.parse(line) as {events: number; what: string};
    events += e.events;
    if (e.what === "received") requests++;
  }
  return {cpuS: childrenCpu(readFileSync(timesFile, "utf8")), events, requests, code};
}

/** bash `times`: the shell's user and system time, then its children's (`0m1.234s 0m0.056s`). */
export function childrenCpu(times: string): number {
  const line = times.trim().split("\n")[1] ?? "";
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (parts.length !== 2) throw new Error(`unexpected \`times\` output: ${JSON.stringify(times)}`);
  return parts[0]! + parts[1]!;
}
