import {spawn, spawnSync} from "node:child_process";
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest} from "../../src/analysis/schema/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {startFakeServer, type FakeServer} from "../../collector/fake/index.ts";
import {REPO_ROOT, tempDir, writeConfig} from "./helpers.ts";

/**
 * Issue 17: `npm pack` gives a package that installs into an empty folder and runs — built JavaScript (Node
 * refuses to strip types under node_modules), dependencies pinned by npm-shrinkwrap.json — tested exactly
 * so: pack, install the tarball, `inferscope --help`, `collect` against the fake server, two shards and
 * `merge`, all through the installed bin. The install reads the npm registry (npm's cache when warm).
 */

let server: FakeServer;
const t = tempDir("inferscope-package-");
const consumer = join(t.dir, "consumer");
let bin = "";

const sh = (cmd: string, args: string[], cwd: string) => {
  const r = spawnSync(cmd, args, {cwd, encoding: "utf8", env: process.env, timeout: 240_000});
  return {code: r.status, out: r.stdout, err: r.stderr};
};
/** The installed bin, run by this Node (≥ 22.12), from the consumer's folder (async: the fake server is in this process). */
function inferscope(args: string[]): Promise<{code: number | null; out: string; err: string}> {
  const c = spawn(process.execPath, [bin, ...args], {
    cwd: consumer,
    env: {PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp"},
    stdio: ["ignore", "pipe", "pipe"]
  });
  let out = "";
  let err = "";
  c.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
  c.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
  return new Promise((resolve) => c.on("close", (code) => resolve({code, out, err})));
}
const last = (s: string) => s.trim().split("\n").pop()!;

beforeAll(async () => {
  server = await startFakeServer({port: 0});
  const pack = sh("npm", ["pack", "--pack-destination", t.dir, "--silent"], REPO_ROOT);
  expect(pack.code, pack.err).toBe(0);
  const tarball = join(t.dir, last(pack.out));
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({name: "consumer", version: "1.0.0", private: true}));
  const install = sh(
    "npm",
    ["install", "--omit=optional", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball],
    consumer
  );
  expect(install.code, install.err).toBe(0);
  bin = join(consumer, "node_modules", ".bin", "inferscope");
}, 300_000);
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const config = () => ({
  name: "pkg",
  target: {
    base_url: server.url,
    model: "fake-model",
    headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 2})}
  },
  workload: {prompt_tokens: 16, max_tokens: 8},
  load: {mode: "concurrency", values: [2], requests: 20, warmup: 2},
  telemetry: {gpu: "off", server_metrics: "off", interval_ms: 200},
  slo: {percentile: "p50"},
  gates: {min_samples: 5}
});

describe("the packed package (issue 17)", () => {
  it("holds the built CLI, its pinned dependency tree and no TypeScript source", () => {
    const pkg = join(consumer, "node_modules", "inferscope");
    expect(readdirSync(join(pkg, "collector"))).toEqual(["bin.mjs"]);
    expect(readdirSync(join(pkg, "dist", "collector"))).toEqual(["cli.mjs"]);
    const shrinkwrap = readFileSync(join(pkg, "npm-shrinkwrap.json"), "utf8");
    expect(shrinkwrap).toBe(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8"));
    // the site's stack stays with the checkout: the collector and analyzer do not need it
    const installed = readdirSync(join(consumer, "node_modules"));
    expect(installed).toContain("zod");
    expect(installed).not.toContain("astro");
  });

  it("runs from node_modules: --help, collect against the fake server, two shards and merge", async () => {
    const help = await inferscope(["--help"]);
    expect(help.code, help.err).toBe(0);
    expect(help.out).toMatch(/^ {2}merge \[options\] <bundles\.\.\.>/m);
    const cfg = writeConfig(consumer, "run.yaml", config());
    const one = await inferscope(["collect", "--config", cfg, "--out", "evidence", "--no-progress"]);
    // sealed and judged (VALID, or INCONCLUSIVE on a busy machine's client health: the verdict is not under test)
    expect([0, 4], one.err).toContain(one.code);
    const m = JSON.parse(readFileSync(join(last(one.out), "manifest.json"), "utf8")) as Manifest;
    // provenance of the installed collector: its pinned tree's digest, no commit of someone else's repository
    expect(m.collector.lockfileSha256).toBe(sha256Hex(readFileSync(join(REPO_ROOT, "package-lock.json"))));
    expect(m.collector.gitCommit).toBeNull();
    const startAt = String(Date.now() + 5000);
    const shards = await Promise.all(
      [0, 1].map((k) =>
        inferscope([
          "collect",
          "--config",
          cfg,
          "--out",
          "shards",
          "--no-progress",
          "--shard",
          `${k}/2`,
          "--start-at",
          startAt
        ])
      )
    );
    expect(shards.map((r) => r.code)).toEqual([4, 4]); // a shard alone is inconclusive
    const merged = await inferscope(["merge", ...shards.map((r) => last(r.out)), "--out", "evidence"]);
    expect([0, 4], merged.err).toContain(merged.code);
    expect(merged.err).toContain("merged 2 shards into");
    expect(last(merged.out)).toMatch(/-2shards-[0-9a-f]{6}$/);
  }, 120_000);

  it("says what needs a checkout instead of failing on a missing site", async () => {
    const r = await inferscope(["report", consumer, "--out", "r.html"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("needs a checkout of InferScope");
  });
});
