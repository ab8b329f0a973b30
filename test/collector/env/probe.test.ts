import {readFileSync} from "node:fs";
import {createServer, request, type Server} from "node:http";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {collectAndAnalyze, FAST, tempDir, testConfig} from "../helpers.ts";

/**
 * Stand-in for a server that rejects stream_options.continuous_usage_stats with 400 (as some
 * OpenAI-compatible servers do): a proxy in front of the fake server. The fake server has no such scenario.
 */
function strictProxy(target: string): Promise<{server: Server; url: string; rejected: () => number}> {
  let rejected = 0;
  const t = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (b: Buffer) => chunks.push(b));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.includes("continuous_usage_stats")) {
        rejected++;
        res.writeHead(400, {"content-type": "application/json"});
        return void res.end(JSON.stringify({error: {message: "unknown field stream_options.continuous_usage_stats"}}));
      }
      const up = request(
        {host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers},
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        }
      );
      up.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as {port: number}).port}/v1`,
        rejected: () => rejected
      })
    )
  );
}

let fake: FakeServer;
let proxy: Awaited<ReturnType<typeof strictProxy>>;
const t = tempDir();
beforeAll(async () => {
  fake = await startFakeServer({port: 0});
  proxy = await strictProxy(fake.url);
});
afterAll(async () => {
  await new Promise((r) => proxy.server.close(r));
  await fake.close();
  t.cleanup();
});

describe("capability probe", () => {
  it("records the fake server's capabilities: streaming, usage in stream, continuous usage, /metrics, /tokenize", async () => {
    const config = testConfig(fake.url, {telemetry: {server_metrics: "auto", gpu: "off", interval_ms: 100}});
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    const m = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as Manifest;
    expect(m.environment.server.capabilities).toMatchObject({
      models_endpoint: true,
      model_listed: true,
      streaming: true,
      usage_in_stream: true,
      continuous_usage_sent: true,
      continuous_usage_downgrade: null,
      metrics: true,
      tokenize: true
    });
    expect(m.environment.server.engine).toBe("vllm"); // guessed from the vllm:* metric names the fake server exposes
    expect(m.environment.server.version).toMatchObject({"/version": {version: expect.any(String)}});
    expect(report.load_points[0]!.usage_sources).toEqual({server_continuous: 6});
    expect(readFileSync(join(outcome.dir, "server_metrics.jsonl"), "utf8")).toContain("vllm:num_requests_running");
  });

  it("continuous_usage auto: a 400 to continuous_usage_stats downgrades once, is recorded, and requests go without it", async () => {
    const config = testConfig(proxy.url, {
      target: {base_url: proxy.url, model: "fake-model", headers: {"x-fake-options": FAST}}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(proxy.rejected()).toBe(1);
    const m = JSON.parse(readFileSync(join(outcome.dir, "manifest.json"), "utf8")) as Manifest;
    expect(m.environment.server.capabilities.continuous_usage_downgrade).toMatch(/400/);
    expect(m.environment.server.capabilities.continuous_usage_requested).toBe(false);
    expect(readFileSync(join(outcome.dir, "client_metrics.jsonl"), "utf8")).toMatch(/"event":"downgrade"/);
    expect(report.load_points[0]!.outcomes).toEqual({success: 6});
    expect(report.load_points[0]!.usage_sources).toEqual({server_final: 6});
  });
});
