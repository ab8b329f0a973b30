/**
 * (g) One experiment over 1 and 2 workers (issue 17): `collect --workers W` — W collector processes, each a
 * shard, merged — against the bench's fake server, at the same total load. Each shard's CPU comes from its
 * own bundle (the user + system CPU of every client sampling window, client_metrics.jsonl), its events from
 * its requests; so the figure is the collector's whole cost per event (request builder, pool, monitors,
 * writer), per worker.
 */
import {spawn} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {cpus, tmpdir} from "node:os";
import {join} from "node:path";

import {max, min} from "d3-array";
import {stringify} from "yaml";

import type {ClientRecord, Manifest, RequestRecord} from "../../../src/analysis/schema/index.ts";
import type {Bench} from "./bench.ts";
import {f, medianOf, QUICK, table, type Row} from "./common.ts";

const jsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/** Events and client CPU seconds of one shard bundle (measured phase: the windows that overlap it). */
function shardCost(dir: string): {events: number; cpuS: number; windowS: number} {
  const recs = jsonl<RequestRecord>(join(dir, "requests.jsonl")).filter((r) => r.phase === "measure");
  const events = recs.reduce((n, r) => n + r.events.length, 0);
  const t0 = min(recs, (r) => r.tSchedNs ?? Infinity) ?? 0;
  const t1 = max(recs, (r) => r.tEndNs ?? -Infinity) ?? 0;
  let cpuUs = 0;
  for (const c of jsonl<ClientRecord>(join(dir, "client_metrics.jsonl"))) {
    if (c.kind !== "loop" || c.tNs < t0 || c.tNs - c.windowNs > t1) continue;
    cpuUs += (c.cpuUserUs ?? 0) + (c.cpuSystemUs ?? 0);
  }
  return {events, cpuS: cpuUs / 1e6, windowS: (t1 - t0) / 1e9};
}

function runWorkers(config: string, out: string, workers: number): Promise<{code: number | null; dir: string}> {
  const child = spawn(
    process.execPath,
    [
      "collector/cli.ts",
      "collect",
      "--config",
      config,
      "--out",
      out,
      "--workers",
      String(workers),
      "--start-at",
      String(Date.now() + 6000)
    ],
    {stdio: ["ignore", "pipe", "ignore"]}
  );
  let stdout = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({code, dir: stdout.trim().split("\n").pop() ?? ""}))
  );
}

export async function workersScaling({url, say, reps}: Bench): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "bench-workers-"));
  const concurrency = 100;
  const requests = QUICK ? 400 : 1000;
  const config = join(work, "run.yaml");
  writeFileSync(
    config,
    stringify({
      name: "bench-workers",
      target: {
        base_url: url,
        model: "fake-model",
        headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2})}
      },
      workload: {prompt_tokens: 16, max_tokens: 64, ignore_eos: true},
      load: {mode: "concurrency", values: [concurrency], requests, warmup: 0},
      telemetry: {gpu: "off", server_metrics: "off", interval_ms: 500},
      slo: {percentile: "p50"},
      gates: {min_samples: 5}
    })
  );
  const rows: Row[] = [];
  try {
    for (const workers of [1, 2]) {
      const perWorker: number[] = [];
      const perWall: number[] = [];
      let events = 0;
      for (let k = 0; k < reps; k++) {
        const r = await runWorkers(config, join(work, `w${workers}-${k}`), workers);
        const m = JSON.parse(readFileSync(join(r.dir, "manifest.json"), "utf8")) as Manifest;
        const costs = m.merge!.shards.map((s) => shardCost(join(work, `w${workers}-${k}`, "shards", s.bundleId)));
        events = costs.reduce((n, c) => n + c.events, 0);
        perWorker.push(costs.reduce((n, c) => n + c.events / c.cpuS, 0) / costs.length);
        perWall.push(events / max(costs, (c) => c.windowS)!);
      }
      rows.push({
        cells: [
          String(workers),
          `${concurrency} (${workers === 1 ? "100" : "50 + 50"})`,
          `${requests} × ${reps}`,
          String(events),
          f(medianOf(perWorker), 0),
          f(medianOf(perWall), 0)
        ]
      });
    }
  } finally {
    rmSync(work, {recursive: true, force: true});
  }
  say(`\n### (g) One experiment over 1 and 2 workers (\`collect --workers W\`, merged; median over ${reps} runs)\n`);
  say(
    "Each worker is a shard (its own process and event loop); CPU is each shard's own, from the user + system CPU its bundle records per sampling window over the measured requests. 64 tokens per request, 2 ms apart, after a 5 ms TTFT."
  );
  say("");
  say(
    table(
      [
        "workers",
        "concurrency (per worker)",
        "requests × runs",
        "events",
        "events per CPU-second per worker",
        "events per wall-second, all workers"
      ],
      rows
    )
  );
  const perWorker = rows.map((r) => Number(r.cells[4]));
  say(
    `\nPer-worker events per CPU-second with 2 workers: ${f(perWorker[1]! / perWorker[0]!, 2)} × one worker's (measured in this run). What this can and cannot show: the fake server shares these ${cpus().length} cores with the workers, so with 2 workers three busy processes compete for them — a ratio below 1 here mixes the cost of splitting (none by design: each shard runs the whole client on its slice) with the cost of contention (context switches, cold caches, CPU time charged while waiting for a core), and the all-workers rate is bounded by the machine, not by the client. On a client machine with a core per worker and the server elsewhere, the all-workers rate is what scales; this bench cannot measure that here.`
  );
}
