import {readFileSync} from "node:fs";
import {createServer} from "node:http";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {quickBaseUrl} from "../../../collector/commands/quick.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {spawnCli, tempDir} from "../helpers.ts";

/**
 * Issue 18: `inferscope quick URL` — a quick look without a config. The fake server answers in 20 ms to the
 * first token and 5 ms between tokens, 64 tokens per request (the quick look's max_tokens).
 */

let server: FakeServer;
let jsonOnly: FakeServer;
let locked: ReturnType<typeof createServer>;
let lockedUrl = "";
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0, options: {ttftMs: 20, tokenIntervalMs: 5}});
  jsonOnly = await startFakeServer({port: 0, options: {nonSse: "json", ttftMs: 5}});
  locked = createServer((_req, res) => {
    res.writeHead(401, {"content-type": "application/json"});
    res.end('{"error":"unauthorized"}');
  });
  await new Promise<void>((r) => locked.listen(0, "127.0.0.1", r));
  lockedUrl = `http://127.0.0.1:${(locked.address() as {port: number}).port}`;
});
afterAll(async () => {
  await server.close();
  await jsonOnly.close();
  await new Promise((r) => locked.close(r));
  t.cleanup();
});

async function quick(args: string[]) {
  const child = spawnCli(["quick", ...args]);
  const {code} = await child.exit;
  return {code, out: child.stdout(), err: child.stderr()};
}

describe("inferscope quick (issue 18)", () => {
  it("finds the model, measures 5 requests after a warmup, prints each number with its n, seals a quick-look bundle", async () => {
    const r = await quick([server.url.replace(/\/v1$/, ""), "--out", join(t.dir, "ok")]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("quick look at fake-model on");
    // 20 ms to the first token; 64 tokens 5 ms apart: decode 1 / 5 ms = 200 tok/s, ITL 5 ms, E2E ≈ 20 + 63 × 5 = 335 ms
    const ttft = Number(/TTFT {4}median ([\d.]+) ms/.exec(r.err)![1]);
    expect(ttft).toBeGreaterThanOrEqual(19);
    expect(ttft).toBeLessThan(40);
    const decode = Number(/decode {2}median ([\d.]+) tok\/s/.exec(r.err)![1]);
    expect(decode).toBeGreaterThan(150);
    expect(decode).toBeLessThanOrEqual(205);
    const e2e = Number(/E2E {5}median ([\d.]+) ms/.exec(r.err)![1]);
    expect(e2e).toBeGreaterThan(330);
    expect(e2e).toBeLessThan(420);
    // n = 5 meets the median floor (5) and not the P95 floor (20): it says so instead of a number
    expect(r.err).toMatch(/TTFT {4}median [\d.]+ ms, P95 — \(n=5 < 20[^)]*\) {2}\(n=5\)/);
    expect(r.err).toContain("5 of 5 measured requests succeeded");
    expect(r.err).toContain("a quick look, not a benchmark");
    const dir = r.out.trim().split("\n").pop()!;
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
    expect(m.labels).toEqual({inferscope_look: "quick"});
    expect(m.status).toBe("complete");
  }, 60_000);

  it("below the median floor it withholds the median too, and still succeeds", async () => {
    const r = await quick([server.url, "--requests", "3", "--out", join(t.dir, "three")]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/TTFT {4}median — \(n=3 < 5[^)]*\), P95 — \(n=3 < 20[^)]*\) {2}\(n=3\)/);
  }, 60_000);

  it("says in one line why it cannot look: a closed port, refused credentials, no streaming", async () => {
    const closed = await quick(["http://127.0.0.1:9/v1"]);
    expect(closed.code).toBe(3);
    expect(closed.err.trim()).toMatch(
      /^inferscope: quick: http:\/\/127\.0\.0\.1:9\/v1 is unreachable \(refused: .*\)$/
    );
    const auth = await quick([lockedUrl]);
    expect(auth.code).toBe(3);
    expect(auth.err.trim()).toBe(
      `inferscope: quick: ${lockedUrl}/v1/models refused the credentials (HTTP 401): give the key's variable with --api-key-env NAME`
    );
    const json = await quick([jsonOnly.url, "--out", join(t.dir, "json")]);
    expect(json.code).toBe(4);
    expect(json.err.trim().split("\n").pop()).toBe(
      "inferscope: quick: 5 of 5 requests were not answered (not an event stream (content-type: application/json)…)"
    );
  }, 60_000);

  it("adds /v1 to a bare host and refuses what is not an http(s) URL", () => {
    expect(quickBaseUrl("http://127.0.0.1:8000")).toBe("http://127.0.0.1:8000/v1");
    expect(quickBaseUrl("http://127.0.0.1:8000/v1/")).toBe("http://127.0.0.1:8000/v1");
    expect(quickBaseUrl("https://h/api/openai")).toBe("https://h/api/openai");
    expect(() => quickBaseUrl("ftp://h")).toThrow(/expected an http\(s\) URL/);
    expect(() => quickBaseUrl("nonsense")).toThrow(/not a URL/);
  });
});
