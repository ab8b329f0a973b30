import {chmodSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {freePort, startLlamaServer, supportedFlags} from "../../scripts/engine/supervisor.ts";

/** A stand-in for llama-server: answers --help, serves /health (503 while "loading"), obeys a few test switches. */
const FAKE = `#!/usr/bin/env node
const http = require("node:http");
const argv = process.argv.slice(2);
if (argv.includes("--help")) {
  console.log(process.env.FAKE_HELP || "--host --port --parallel --cont-batching --metrics --threads --alias --no-webui -c -t -a");
  process.exit(0);
}
if (argv.includes("--fake-crash")) { console.error("error: failed to load model 'nope.gguf'"); process.exit(3); }
if (argv.includes("--fake-ignore-sigterm")) process.on("SIGTERM", () => console.error("ignoring SIGTERM"));
const port = Number(argv[argv.indexOf("--port") + 1]);
const started = Date.now();
console.error("args: " + argv.join(" "));
http.createServer((req, res) => {
  const ready = !argv.includes("--fake-never-ready") && Date.now() - started > 150;
  res.writeHead(req.url === "/health" && ready ? 200 : 503, {"content-type": "application/json"});
  res.end(JSON.stringify({status: ready ? "ok" : "loading model"}));
}).listen(port, "127.0.0.1");
`;

let dir: string;
let fake: string;
let fakeNoWebui: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "inferscope-supervisor-"));
  fake = join(dir, "llama-server");
  writeFileSync(fake, FAKE);
  chmodSync(fake, 0o755);
  fakeNoWebui = join(dir, "old-llama-server");
  writeFileSync(fakeNoWebui, FAKE.replace("--alias --no-webui", "--alias"));
  chmodSync(fakeNoWebui, 0o755);
});

afterAll(() => rmSync(dir, {recursive: true, force: true}));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("startLlamaServer", () => {
  it("launches on 127.0.0.1 with the standard flags, waits for /health, and stops with SIGTERM", async () => {
    const server = await startLlamaServer({
      binary: fake,
      model: "/m/tiny.gguf",
      parallel: 2,
      ctxPerSlot: 512,
      threads: 1
    });
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.readyMs).toBeGreaterThanOrEqual(100);
    expect(server.command.slice(1).join(" ")).toBe(
      `-m /m/tiny.gguf --host 127.0.0.1 --port ${server.port} -c 1024 --parallel 2 --cont-batching --metrics -t 1 -a tiny --no-webui`
    );
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    expect(server.logs()).toContain("args: -m /m/tiny.gguf");
    await server.stop();
    expect(await server.exited).toEqual({code: null, signal: "SIGTERM"});
    expect(isAlive(server.pid)).toBe(false);
    await server.stop();
  });

  it("escalates to SIGKILL when the server ignores SIGTERM", async () => {
    const server = await startLlamaServer({
      binary: fake,
      model: "m.gguf",
      extraArgs: ["--fake-ignore-sigterm"],
      stopGraceMs: 300
    });
    await server.stop();
    expect((await server.exited).signal).toBe("SIGKILL");
  });

  it("reports an early exit with the tail of the server log", async () => {
    await expect(startLlamaServer({binary: fake, model: "nope.gguf", extraArgs: ["--fake-crash"]})).rejects.toThrow(
      /exited before it was ready \(exit 3\)[\s\S]*failed to load model 'nope.gguf'/
    );
  });

  it("times out, stops the server, and includes its log", async () => {
    await expect(
      startLlamaServer({binary: fake, model: "m.gguf", extraArgs: ["--fake-never-ready"], readyTimeoutMs: 500})
    ).rejects.toThrow(/not ready after 500 ms[\s\S]*args: /);
  });

  it("drops --no-webui when the build does not know it and rejects bad sizes", async () => {
    expect((await supportedFlags(fakeNoWebui)).has("--no-webui")).toBe(false);
    const server = await startLlamaServer({binary: fakeNoWebui, model: "m.gguf"});
    expect(server.command).not.toContain("--no-webui");
    await server.stop();
    await expect(startLlamaServer({binary: fake, model: "m.gguf", parallel: 0})).rejects.toThrow("invalid parallel: 0");
  });

  it("finds a free port", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
  });
});
