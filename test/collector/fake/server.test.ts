import {spawn} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {Command} from "commander";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {register} from "../../../collector/commands/fakeServer.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {streamRequest} from "../../../collector/http/index.ts";

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({});
});
afterAll(async () => {
  await server.close();
});

const root = (s: FakeServer): string => s.url.replace(/\/v1$/, "");
async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(root(server) + path, {
    method: "POST",
    headers: {"content-type": "application/json", ...headers},
    body: typeof body === "string" ? body : JSON.stringify(body)
  });
}

describe("fake server endpoints", () => {
  it("listens on a free port and reports its /v1 URL", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.port).toBeGreaterThan(0);
    expect(server.scenario.name).toBe("default");
  });

  it("GET /health, /version and /v1/models", async () => {
    expect((await fetch(root(server) + "/health")).status).toBe(200);
    expect(await (await fetch(root(server) + "/version")).json()).toEqual({version: "inferscope-fake-1"});
    const models = (await (await fetch(server.url + "/models")).json()) as {data: {id: string}[]};
    expect(models.data.map((m) => m.id)).toEqual(["fake-model"]);
  });

  it("POST /tokenize counts whitespace words of content, prompt or messages", async () => {
    const a = (await (await post("/tokenize", {content: "one two  three"})).json()) as {
      tokens: number[];
      count: number;
    };
    expect(a.tokens).toHaveLength(3);
    expect(a.count).toBe(3);
    const b = (await (await post("/tokenize", {prompt: "one two three"})).json()) as {tokens: number[]};
    expect(b.tokens).toEqual(a.tokens);
    const m = (await (
      await post("/tokenize", {messages: [{role: "user", content: [{type: "text", text: "x y"}]}]})
    ).json()) as {
      tokens: number[];
    };
    expect(m.tokens).toHaveLength(2);
  });

  it("non-streaming chat completion", async () => {
    const res = await post("/v1/chat/completions", {messages: [{role: "user", content: "a b c"}], max_tokens: 2});
    const body = (await res.json()) as {choices: {message: {content: string}}[]; usage: {prompt_tokens: number}};
    expect(body.choices[0]!.message.content).toBe(" alpha bravo");
    expect(body.usage.prompt_tokens).toBe(3);
  });

  it("answers 400 for invalid JSON, an unknown x-fake-scenario or bad x-fake-options; 404 for unknown routes", async () => {
    const bad = await post("/v1/chat/completions", "{nope");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as {error: {message: string}}).error.message).toMatch(/invalid JSON body/);
    const sc = await post("/v1/chat/completions", {}, {"x-fake-scenario": "nope"});
    expect(sc.status).toBe(400);
    expect(await sc.text()).toMatch(/unknown fake-server scenario/);
    const op = await post("/v1/chat/completions", {}, {"x-fake-options": '{"nope":1}'});
    expect(op.status).toBe(400);
    expect(await op.text()).toMatch(/unknown scenario option/);
    expect((await fetch(root(server) + "/nowhere")).status).toBe(404);
  });

  it("GET /metrics is valid Prometheus text with vLLM names and counts what was served", async () => {
    const s = await startFakeServer({options: {ttftMs: 0, tokenIntervalMs: 0}});
    try {
      const origin = process.hrtime.bigint();
      const body = JSON.stringify({
        messages: [{role: "user", content: "a b c"}],
        stream: true,
        max_tokens: 4,
        ignore_eos: true
      });
      for (let i = 0; i < 3; i++) {
        await streamRequest({
          url: s.url + "/chat/completions",
          headers: {},
          body,
          origin,
          timeouts: {connectMs: 1000, headersMs: 1000, idleMs: 1000}
        });
      }
      const text = await (await fetch(root(s) + "/metrics")).text();
      const families = parsePrometheusTextFormat(text) as {name: string; type: string; metrics: {value?: string}[]}[];
      const byName = new Map(families.map((f) => [f.name, f]));
      for (const n of ["vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc"]) {
        expect(byName.get(n)?.type, n).toBe("GAUGE");
      }
      expect(byName.get("vllm:prompt_tokens_total")?.metrics[0]?.value).toBe("9");
      expect(byName.get("vllm:generation_tokens_total")?.metrics[0]?.value).toBe("12");
      expect(byName.get("vllm:num_requests_running")?.metrics[0]?.value).toBe("0");
      expect(byName.get("vllm:time_to_first_token_seconds")?.type).toBe("HISTOGRAM");
      expect(text).toMatch(/vllm:time_to_first_token_seconds_count\{model_name="fake-model"\} 3/);
    } finally {
      await s.close();
    }
  });
});

describe("requests beyond the model's context (issue 11 item 7)", () => {
  it("max_tokens 10¹² is refused with 400, and the server goes on serving", async () => {
    const s = await startFakeServer({options: {ttftMs: 0, tokenIntervalMs: 0}});
    try {
      const huge = await fetch(s.url + "/chat/completions", {
        method: "POST",
        body: JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 1e12})
      });
      expect(huge.status).toBe(400);
      expect(await huge.text()).toMatch(/maximum context length is 131072 tokens/);
      const ok = await fetch(s.url + "/chat/completions", {
        method: "POST",
        body: JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 3})
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/\[DONE\]/);
    } finally {
      await s.close();
    }
  });
});

describe("send log", () => {
  it("stamps every write with the injected clock, in order, with the request id and event counts", async () => {
    let fake = 10_000_000_000n;
    const clock = (): bigint => (fake += 1000n);
    const s = await startFakeServer({clock, options: {ttftMs: 0, tokenIntervalMs: 0}});
    try {
      const res = await fetch(s.url + "/chat/completions", {
        method: "POST",
        headers: {"x-request-id": "abc"},
        body: JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 3})
      });
      await res.text();
      const log = s.sendLog();
      // the receipt of the request body first, then every write of the response
      expect(log.map((e) => e.what)).toEqual(["received", "headers", "data", "data", "data", "data", "data", "end"]);
      expect(log.every((e) => e.requestId === "abc")).toBe(true);
      expect(log.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(log.map((e) => e.events)).toEqual([0, 0, 1, 1, 1, 1, 1, 0]);
      for (let i = 1; i < log.length; i++) expect(log[i]!.tNs > log[i - 1]!.tNs).toBe(true);
      expect(log[0]!.tNs > 10_000_000_000n).toBe(true);
      s.clearSendLog();
      expect(s.sendLog()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("stamps the receipt when the request is first seen, before its body has arrived", async () => {
    // The client sends the headers, waits 150 ms, then the body: the receipt is the server's first sight
    // of the request (what a client's timing error is measured against), not the end of the body read.
    const s = await startFakeServer({options: {ttftMs: 0, tokenIntervalMs: 0}});
    try {
      const {request} = await import("node:http");
      const body = JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 1});
      let bodySent = 0n;
      await new Promise<void>((resolve, reject) => {
        const req = request(`${s.url}/chat/completions`, {
          method: "POST",
          headers: {"x-request-id": "late-body", "content-length": Buffer.byteLength(body)}
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", resolve);
        });
        req.on("error", reject);
        req.flushHeaders();
        setTimeout(() => {
          bodySent = process.hrtime.bigint();
          req.end(body);
        }, 150);
      });
      const received = s.sendLog().find((e) => e.what === "received" && e.requestId === "late-body");
      expect(received).toBeDefined();
      expect(received!.tNs < bodySent).toBe(true);
    } finally {
      await s.close();
    }
  });

  it("appends JSONL with decimal-string times to --send-log files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fake-log-"));
    const file = join(dir, "send.jsonl");
    const s = await startFakeServer({
      sendLogFile: file,
      recordSendLog: false,
      options: {ttftMs: 0, tokenIntervalMs: 0}
    });
    try {
      const res = await fetch(s.url + "/completions", {
        method: "POST",
        body: JSON.stringify({prompt: "x", stream: true, max_tokens: 2})
      });
      await res.text();
    } finally {
      await s.close();
    }
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as {tNs: string; what: string});
    rmSync(dir, {recursive: true});
    expect(s.sendLog()).toEqual([]);
    expect(lines.map((l) => l.what)).toEqual(["received", "headers", "data", "data", "data", "end"]);
    expect(lines.every((l) => /^\d+$/.test(l.tNs))).toBe(true);
    expect(s.sendLogError()).toBeNull();
  });

  it("an unwritable send-log path fails the start instead of crashing later", async () => {
    await expect(startFakeServer({sendLogFile: "/nonexistent-dir/send.jsonl"})).rejects.toThrow(/ENOENT/);
  });

  it("close() ends hanging streams and resolves", async () => {
    const s = await startFakeServer({scenario: "half-open"});
    const p = streamRequest({
      url: s.url + "/chat/completions",
      headers: {},
      body: JSON.stringify({messages: [], stream: true}),
      origin: process.hrtime.bigint(),
      timeouts: {connectMs: 1000, headersMs: 1000, idleMs: 10_000}
    });
    await new Promise((r) => setTimeout(r, 100));
    await s.close();
    const r = await p;
    expect(r.events.length).toBeGreaterThan(0);
    expect(r.transportError === null || r.transportError === "conn_reset").toBe(true);
  });
});

describe("fake-server command", () => {
  it("registers `fake-server` with its options", () => {
    const program = new Command();
    register(program);
    const cmd = program.commands.find((c) => c.name() === "fake-server");
    expect(cmd).toBeDefined();
    const flags = cmd!.options.map((o) => o.long);
    for (const f of ["--port", "--host", "--scenario", "--send-log", "--options", "--list-scenarios"])
      expect(flags).toContain(f);
  });

  it("prints the URL on one stdout line, serves, and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["collector/cli.ts", "fake-server", "--port", "0", "--scenario", "trickle"], {
      stdio: ["ignore", "pipe", "pipe"]
    });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += String(b)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (b: Buffer) => {
          out += String(b);
          if (out.includes("\n")) resolve(out.trim());
        });
        child.once("exit", (code) => reject(new Error(`exited early with ${code}: ${stderr}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((await fetch(url.replace(/\/v1$/, "/health"))).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("exits 2 on an unknown scenario", async () => {
    const child = spawn(process.execPath, ["collector/cli.ts", "fake-server", "--scenario", "nope"], {
      stdio: ["ignore", "pipe", "pipe"]
    });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += String(b)));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown fake-server scenario "nope"/);
  });
});
