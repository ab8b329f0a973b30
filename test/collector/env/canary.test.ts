import {createServer, type Server} from "node:http";
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {collectCommand} from "../../../collector/commands/collect.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {memoryLogger, tempDir, testEffects, writeConfig} from "../helpers.ts";

/**
 * F33: a canary secret in the API key, a custom header, the URL query and the environment must not appear
 * in any file of the bundle, even when the server echoes the request's headers and URL back (error
 * bodies, /v1/models, /version, /metrics labels, and the streamed text itself).
 *
 * Stand-in: collector-A's fake server has no "echo" scenario, so this test runs its own small echo server.
 */
const CANARY = {
  launchKey: "canary-launchkey-4d8e1b7c",
  launchToken: "canary-launchtok-2a9f6e3d",
  launchEnv: "canary-launchenv-8c3b5d1f",
  key: "canary-apikey-7f3a9c2e51",
  header: "canary-header-0b8d4e6f29",
  query: "canary-query-5c1e7a3d80",
  env: "canary-envvar-9e2b6f4a17"
};

function echoServer(): Promise<{server: Server; url: string}> {
  let n = 0;
  const server = createServer((req, res) => {
    const echo = JSON.stringify({url: req.url, headers: req.headers});
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path === "/v1/models") {
      res.writeHead(200, {"content-type": "application/json"});
      return void res.end(JSON.stringify({object: "list", data: [{id: "echo-model", owned_by: echo}]}));
    }
    if (req.method === "GET" && path === "/version") {
      res.writeHead(200, {"content-type": "application/json"});
      return void res.end(JSON.stringify({version: "echo-1", seen: echo}));
    }
    if (req.method === "GET" && path === "/metrics") {
      res.writeHead(200, {"content-type": "text/plain"});
      return void res.end(
        `vllm:num_requests_running{auth=${JSON.stringify(String(req.headers.authorization ?? "none"))}} 1\n`
      );
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      req.resume();
      req.on("end", () => {
        if (n++ % 2 === 1) {
          res.writeHead(500, {"content-type": "application/json"});
          return void res.end(JSON.stringify({error: {message: `upstream refused ${echo}`}}));
        }
        res.writeHead(200, {"content-type": "text/event-stream"});
        const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
          `data: ${JSON.stringify({choices: [{index: 0, delta, finish_reason: null}], ...extra})}\n\n`;
        res.write(chunk({role: "assistant", content: ""}));
        res.write(chunk({content: `you sent ${req.headers.authorization} `}));
        res.write(chunk({content: `and ${req.headers["x-custom-secret"]} at ${req.url}`}));
        res.write(`data: ${JSON.stringify({choices: [{index: 0, delta: {}, finish_reason: "stop"}]})}\n\n`);
        res.write(
          `data: ${JSON.stringify({choices: [], usage: {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7}})}\n\n`
        );
        res.end("data: [DONE]\n\n");
      });
      return;
    }
    res.writeHead(404, {"content-type": "text/plain"});
    res.end(`not found: ${echo}`);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const a = server.address() as {port: number};
      resolve({server, url: `http://127.0.0.1:${a.port}/v1`});
    })
  );
}

let echo: {server: Server; url: string};
const t = tempDir();
beforeAll(async () => {
  echo = await echoServer();
});
afterAll(async () => {
  await new Promise((r) => echo.server.close(r));
  t.cleanup();
});

describe("redaction canary (F33)", () => {
  it("no canary in any file of the bundle nor in the command's output", async () => {
    const cfg = writeConfig(t.dir, "canary.yaml", {
      name: "canary",
      target: {
        base_url: `${echo.url}?token=${CANARY.query}`,
        model: "echo-model",
        api_key_env: "TEST_API_KEY",
        headers: {"x-custom-secret": CANARY.header},
        metrics_url: `${echo.url.replace(/\/v1$/, "")}/metrics?token=${CANARY.query}`,
        // issue 11 item 1: credentials in the launch arguments, in every form, beside tuning evidence
        launch_args: [
          "--api-key",
          CANARY.launchKey,
          `--hf-token=${CANARY.launchToken}`,
          `HF_TOKEN=${CANARY.launchEnv}`,
          "--max-num-batched-tokens",
          "8192",
          "--max-tokens",
          "256",
          "CUDA_VISIBLE_DEVICES=0,1"
        ],
        timeouts: {connect_ms: 2000, headers_ms: 3000, idle_ms: 3000}
      },
      workload: {prompt_tokens: 8, max_tokens: 2, ignore_eos: false, save_text: true},
      load: {mode: "concurrency", values: [1], requests: 6, warmup: 0},
      telemetry: {gpu: "off", server_metrics: "on", interval_ms: 100},
      output: {fsync_interval_ms: 100}
    });
    const log = memoryLogger();
    const stdout: string[] = [];
    const io: Io = {out: (l) => void stdout.push(l), err: log};
    const fx = testEffects({
      env: {TEST_API_KEY: CANARY.key, HF_TOKEN: CANARY.env, VLLM_API_KEY: CANARY.env, CUDA_VISIBLE_DEVICES: "0"},
      log
    });
    await collectCommand({config: cfg, out: join(t.dir, "out"), progress: false}, io, fx).catch(() => undefined);
    const dir = stdout[stdout.length - 1]!;
    const files = readdirSync(dir);
    expect(files).toEqual(
      expect.arrayContaining(["manifest.json", "requests.jsonl", "config.resolved.yaml", "server_metrics.jsonl"])
    );
    const texts = files.map((f) => [f, readFileSync(join(dir, f), "utf8")] as const);
    texts.push(["stdout", stdout.join("\n")], ["stderr", log.lines.join("\n")]);
    for (const [name, text] of texts)
      for (const c of Object.values(CANARY)) expect(text.includes(c), `${c} in ${name}`).toBe(false);
    // the evidence is still there, marked: the echoed header in the error text, the streamed text, the env allowlist
    const all = texts.map(([, x]) => x).join("\n");
    expect(all).toMatch(/\[REDACTED:[0-9a-f]{8}\]/);
    const reqs = readFileSync(join(dir, "requests.jsonl"), "utf8");
    expect(reqs).toMatch(/upstream refused/);
    expect(reqs).toMatch(/you sent Bearer \[REDACTED:/);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
      environment: {extra: {env: Record<string, string>}; server: {launchArgs: string[]}};
    };
    // the flags stay (evidence of how the server ran), their credential values do not; tuning survives
    expect(manifest.environment.server.launchArgs).toEqual([
      "--api-key",
      "[REDACTED]",
      "--hf-token=[REDACTED]",
      "HF_TOKEN=[REDACTED]",
      "--max-num-batched-tokens",
      "8192",
      "--max-tokens",
      "256",
      "CUDA_VISIBLE_DEVICES=0,1"
    ]);
    expect(readFileSync(join(dir, "config.resolved.yaml"), "utf8")).toContain("--max-num-batched-tokens");
    expect(manifest.environment.extra.env.CUDA_VISIBLE_DEVICES).toBe("0");
    expect(manifest.environment.extra.env.VLLM_API_KEY).toMatch(/^\[REDACTED:/);
    expect(manifest.environment.extra.env).not.toHaveProperty("HF_TOKEN"); // not on the allowlist at all
  });
});
