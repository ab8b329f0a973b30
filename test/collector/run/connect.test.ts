import {readFileSync} from "node:fs";
import {createConnection as netConnect, type NetConnectOpts} from "node:net";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import type {CreateConnection} from "../../../collector/http/agent.ts";
import {isSummary, type MetricValue} from "../../../src/analysis/index.ts";
import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {collectAndAnalyze, gate, tempDir, testConfig} from "../helpers.ts";

/**
 * Issue 10 item 5 through `collect`: with one fresh connection per request over a slow network (an injected
 * 25 ms connect), the connect time is its own component and the client-health gate judges only the client.
 */
const CONNECT_MS = 25;
const slowNetwork: CreateConnection = ((options: NetConnectOpts, callback: (e: Error | null, s: unknown) => void) => {
  setTimeout(() => callback(null, netConnect(options)), CONNECT_MS);
  return undefined;
}) as unknown as CreateConnection;

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({options: {ttftMs: 20, tokenIntervalMs: 2}});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const p50 = (m: MetricValue | undefined): number => {
  if (!m || !isSummary(m) || m.p50 === null) throw new Error("no median");
  return m.p50;
};

describe("connection setup is recorded apart from the client's lateness", () => {
  it("per_request over a 25 ms connect: connect_ms ≈ 25, dispatch lag ≈ 0, TTFT ≈ 25 + 20, G6 passes", async () => {
    const config = testConfig(server.url, {
      target: {base_url: server.url, model: "fake-model", connection: "per_request", headers: {}},
      workload: {prompt_tokens: 16, max_tokens: 8},
      load: {mode: "concurrency", values: [1], requests: 8, warmup: 0},
      gates: {min_samples: 5, max_loop_delay_p99_ms: 1000, max_dispatch_lag_p99_ms: 5, min_achieved_load: 0.6}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir, undefined, {createConnection: slowNetwork});
    // no http_client in the config: the default client is the bare-socket one, and the manifest says so
    const manifest = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as Manifest;
    expect(manifest.capture?.httpClient).toBe("socket");
    const m = report.load_points[0]!.metrics;
    expect(p50(m.connect_ms)).toBeGreaterThanOrEqual(CONNECT_MS - 1);
    expect(p50(m.connection_setup_ms)).toBeGreaterThanOrEqual(CONNECT_MS - 1);
    // the client started every request on time: the connect is the network's share, not client lag
    expect(p50(m.dispatch_lag_ms)).toBeLessThan(CONNECT_MS / 2);
    // what a user waits: connect + the server's 20 ms to the first token
    expect(p50(m.ttft_ms)).toBeGreaterThanOrEqual(CONNECT_MS + 19);
    expect(gate(report, "G6").reason).toMatch(/dispatch lag/);
    expect(gate(report, "G6").reason).not.toMatch(/dispatch lag \S+ [0-9.]+ ms > 5 ms/);
  });
});
