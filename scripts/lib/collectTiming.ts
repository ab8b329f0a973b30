/**
 * Timing error through the path `collect` uses (issue 10 item 5): run `collect()` itself — the request
 * builder, the connection pool, the telemetry monitors and the bundle writer — against a fake server in
 * another process that logs its own CLOCK_MONOTONIC receipt and send times, then compare per request
 *
 *   error = (client first token − client start) − (server first-token send − server receipt)
 *
 * with client start = tCallNs, first token = the first content event. With one connection per request the
 * recorded connect time (tConnNs − tCallNs) is subtracted as well: the server can only receive a request
 * after the connection exists, so that share is the network's, recorded apart.
 */
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Writable} from "node:stream";

import {defaultCollectDeps} from "../../collector/commands/collect.ts";
import {defaultEffects} from "../../collector/effects.ts";
import {collect} from "../../collector/run/collect.ts";
import type {HttpClient} from "../../src/analysis/schema/config.ts";
import {RunConfigSpec, type RequestRecord} from "../../src/analysis/schema/index.ts";

export interface ServerTimes {
  /** Absolute CLOCK_MONOTONIC ns of the request's receipt, and of each SSE event's send. */
  received: bigint | null;
  events: bigint[];
}

export interface CollectTiming {
  mode: "reuse" | "per_request";
  concurrency: number;
  requests: number;
  /** Per request, ms. */
  errors: number[];
  /** Recorded setup (tDisp − tCall: request creation, connect if any, the write), ms, per request. */
  setupMs: number[];
  /** Request path: server receipt − client dispatch (kernel, the server waking and parsing the head), ms. */
  requestPathMs: number[];
  /** Response path: client first-token time − server first-token send (kernel, the client waking and reading), ms. */
  responsePathMs: number[];
  reused: number;
  failed: number;
}

const quiet = new Writable({write: (_c, _e, cb) => cb()});

/** Runs one closed-loop collect and returns the per-request timing errors against the server's own times. */
export async function collectTiming(o: {
  url: string;
  mode: "reuse" | "per_request";
  /** target.http_client; default node_http. */
  httpClient?: HttpClient;
  concurrency: number;
  requests: number;
  fakeOptions: Record<string, unknown>;
  serverTimes: (ids: readonly string[]) => Promise<Map<string, ServerTimes>>;
}): Promise<CollectTiming> {
  const out = mkdtempSync(join(tmpdir(), "bench-collect-"));
  try {
    const config = RunConfigSpec.parse({
      name: "bench-timing",
      target: {
        base_url: o.url,
        model: "fake-model",
        connection: o.mode,
        http_client: o.httpClient ?? "node_http",
        headers: {"x-fake-options": JSON.stringify(o.fakeOptions)},
        timeouts: {connect_ms: 10_000, headers_ms: 30_000, idle_ms: 30_000}
      },
      workload: {prompt_tokens: 16, max_tokens: 16},
      load: {mode: "concurrency", values: [o.concurrency], requests: o.requests, warmup: Math.min(o.concurrency, 20)},
      telemetry: {gpu: "off", server_metrics: "off", interval_ms: 500},
      output: {dir: out}
    });
    const fx = defaultEffects({log: {info: () => undefined, warn: () => undefined, tty: false, stream: quiet}});
    const outcome = await collect({config, fx, ...defaultCollectDeps, outParent: out});
    const records = readFileSync(join(outcome.dir, "requests.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RequestRecord)
      .filter((r) => r.phase === "measure");
    // the run's monotonic origin, from the manifest: client times on the server's (absolute) clock
    const manifest = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as {
      monotonicOriginNs: string;
    };
    const origin = BigInt(manifest.monotonicOriginNs);
    const times = await o.serverTimes(records.map((r) => r.id));
    const errors: number[] = [];
    const setupMs: number[] = [];
    const requestPathMs: number[] = [];
    const responsePathMs: number[] = [];
    const at = (t: number): number => Number(origin) + t;
    let failed = 0;
    for (const r of records) {
      const s = times.get(r.id);
      const firstIdx = r.events.findIndex((e) => e[2] === "content");
      if (!s || s.received === null || firstIdx < 0 || r.tCallNs == null || s.events.length !== r.events.length) {
        failed++;
        continue;
      }
      const clientMs = (r.events[firstIdx]![0] - r.tCallNs) / 1e6;
      const serverMs = Number(s.events[firstIdx]! - s.received) / 1e6;
      const connectMs = r.tConnNs == null ? 0 : (r.tConnNs - r.tCallNs) / 1e6;
      errors.push(clientMs - serverMs - (o.mode === "per_request" ? connectMs : 0));
      responsePathMs.push((at(r.events[firstIdx]![0]) - Number(s.events[firstIdx]!)) / 1e6);
      if (r.tDispNs !== null) {
        setupMs.push((r.tDispNs - r.tCallNs) / 1e6);
        requestPathMs.push((Number(s.received) - at(r.tDispNs)) / 1e6);
      }
    }
    return {
      mode: o.mode,
      concurrency: o.concurrency,
      requests: records.length,
      errors,
      setupMs,
      requestPathMs,
      responsePathMs,
      reused: records.filter((r) => r.socketReused).length,
      failed
    };
  } finally {
    rmSync(out, {recursive: true, force: true});
  }
}
