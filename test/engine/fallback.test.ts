import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {engineRunConfig} from "../../scripts/engine/collectRun.ts";
import {ensureDemoEngine, type Engine} from "../../scripts/engine/engine.ts";
import {FALLBACK_ENGINE, startFallbackServer} from "../../scripts/engine/fallback.ts";
import type {LlamaServerHandle} from "../../scripts/engine/supervisor.ts";
import {spawnCli} from "../collector/helpers.ts";

/**
 * Issue 18: the demo's engine on a machine that cannot build llama-server — the build tools hidden from PATH,
 * not root, an empty engine cache — is node-llama-cpp's prebuilt addon (installed from the npm registry into
 * the cache) behind scripts/engine/fallbackServer.ts, and every run on it says so.
 */

const cache = mkdtempSync(join(tmpdir(), "inferscope-fallback-"));
const empty = mkdtempSync(join(tmpdir(), "inferscope-nopath-"));
let engine: Engine;
let server: LlamaServerHandle;
const lines: string[] = [];

beforeAll(async () => {
  process.env.INFERSCOPE_CACHE_DIR = cache;
  engine = await ensureDemoEngine({
    preset: "tiny",
    log: (l) => lines.push(l),
    prerequisites: {env: {PATH: empty}, isRoot: false}
  });
  server = await startFallbackServer({
    addon: engine.binary.path,
    model: engine.info.modelPath,
    parallel: 2,
    threads: 1,
    alias: "random-tiny"
  });
}, 240_000);
afterAll(async () => {
  await server?.stop();
  rmSync(cache, {recursive: true, force: true});
  rmSync(empty, {recursive: true, force: true});
});

describe("the no-compile fallback engine (issue 18)", () => {
  it("is chosen when the tools are missing and cannot be installed, and says how to get llama-server", () => {
    expect(engine.binary.source).toBe("fallback");
    expect(engine.info.engine).toBe(FALLBACK_ENGINE);
    expect(lines.join("\n")).toContain("missing build tools: cmake, g++, ninja, git (not root: not installing them)");
    expect(lines.join("\n")).toMatch(/For the compiled llama-server: apt-get install -y cmake g\+\+ ninja-build git/);
  });

  it("serves a streamed chat completion with usage, max_tokens exact under ignore_eos", async () => {
    const res = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        messages: [{role: "user", content: "hello"}],
        stream: true,
        max_tokens: 6,
        ignore_eos: true,
        stream_options: {include_usage: true}
      })
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: "))
      .map((e) => e.slice(6));
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e) as {
          choices: {delta?: {content?: string | null}; finish_reason: string | null}[];
          usage?: {completion_tokens: number};
        }
    );
    expect(chunks.filter((c) => typeof c.choices[0]?.delta?.content === "string")).toHaveLength(6);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe("length");
    expect(chunks.at(-1)!.usage!.completion_tokens).toBe(6);
  }, 60_000);

  it("is measured like any server (inferscope quick), and a run's config says which engine it was", async () => {
    const child = spawnCli(["quick", `${server.baseUrl}/v1`, "--out", join(cache, "quick")]);
    const {code} = await child.exit;
    expect(code, child.stderr()).toBe(0);
    const cfg = engineRunConfig({
      engine,
      server,
      parallel: 2,
      threads: 1,
      name: "fallback",
      workload: {prompt_tokens: 32, max_tokens: 8},
      load: [{mode: "concurrency", values: [1], requests: 5, warmup: 1}]
    } as never) as {description: string; labels: Record<string, string>; target: {launch_args: string[]}};
    expect(cfg.description).toMatch(/^FALLBACK ENGINE, NOT llama-server: node-llama-cpp 3\.21\.1 prebuilt addon/);
    expect(cfg.labels.engine).toBe("node-llama-cpp (fallback)");
    expect(cfg.target.launch_args.slice(0, 4)).toEqual([
      "node",
      "scripts/engine/fallbackServer.ts",
      "--addon",
      "<engine cache>/node-llama-cpp"
    ]);
  }, 60_000);
});
