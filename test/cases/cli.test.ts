import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {ClientRecord, RequestRecord} from "../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../collector/fake/index.ts";
import {spawnCli, tempDir, writeConfig} from "../collector/helpers.ts";

/** `collect --suites … --skip-heavy` through the real CLI, and the case suite on the run report page. */
let server: FakeServer;
const t = tempDir("inferscope-cases-cli-");
beforeAll(async () => {
  server = await startFakeServer({port: 0, options: {ttftMs: 20, tokenIntervalMs: 4}}); // ~50 ms a request: a busy machine's gaps between requests stay a small share of G5's achieved load
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

function config(extra: Record<string, unknown> = {}) {
  return writeConfig(t.dir, `c${Math.random().toString(36).slice(2)}.yaml`, {
    name: "cases",
    labels: {weights: "random"},
    target: {base_url: server.url, model: "fake-model", timeouts: {connect_ms: 2000, headers_ms: 5000, idle_ms: 3000}},
    workload: {prompt_tokens: 16, max_tokens: 8},
    load: {mode: "concurrency", values: [1], requests: 5, warmup: 0},
    telemetry: {gpu: "off", server_metrics: "off"},
    slo: {percentile: "p50"}, // judged at the median: 5 samples suffice
    gates: {min_samples: 5, max_loop_delay_p99_ms: 1000, max_dispatch_lag_p99_ms: 1000, min_achieved_load: 0.5},
    suite_options: {repeats: 1, long_context_tiers: [64], needle: {lengths: [64, 96], depths: [0, 1]}},
    ...extra
  });
}

describe("collect --suites and --skip-heavy", () => {
  let bundle: string;

  it("runs the named cases and skips the heavy ones, never the quality ones", async () => {
    const c = spawnCli([
      "collect",
      "--config",
      config(),
      "--out",
      t.dir,
      "--no-progress",
      "--suites",
      "case_01_generation,case_05_long_context,case_10_needle,case_11_instruction",
      "--skip-heavy"
    ]);
    const {code} = await c.exit;
    expect(code, c.stderr()).toBe(0);
    bundle = c.stdout().trim().split("\n").at(-1)!;
    const requests = readJsonl<RequestRecord>(join(bundle, "requests.jsonl"));
    expect([...new Set(requests.map((r) => r.caseId ?? "load"))]).toEqual([
      "load",
      "case_01_generation",
      "case_10_needle",
      "case_11_instruction"
    ]);
    const notes = readJsonl<ClientRecord>(join(bundle, "client_metrics.jsonl"));
    const start = notes.find((n) => n.kind === "note" && n.event === "suite_start") as {
      detail: Record<string, unknown>;
    };
    expect(start.detail.skipped_heavy).toEqual(["case_05_long_context"]);
    // the resolved config records every suite default and the override
    const resolved = readFileSync(join(bundle, "config.resolved.yaml"), "utf8");
    expect(resolved).toMatch(/skip_heavy: true/);
    expect(resolved).toMatch(/quality_repeats: 1/);
    expect(resolved).toMatch(/- case_10_needle/);
  }, 60_000);

  it("refuses unknown suites and a quality_load point that does not exist (exit 2, nothing written)", async () => {
    const a = spawnCli(["collect", "--config", config(), "--out", join(t.dir, "none"), "--suites", "case_99"]);
    expect((await a.exit).code).toBe(2);
    expect(a.stderr()).toMatch(/unknown suite "case_99"/);
    const b = spawnCli([
      "collect",
      "--config",
      config({suites: ["case_10_needle"], suite_options: {quality_load: {point: "concurrency-8"}}}),
      "--out",
      join(t.dir, "none")
    ]);
    expect((await b.exit).code).toBe(2);
    expect(b.stderr()).toMatch(
      /quality_load.point "concurrency-8" is not a load point of this config \(concurrency-1\)/
    );
    expect(existsSync(join(t.dir, "none"))).toBe(false);
  }, 30_000);

  it("shows the case suite on the run report: tiers, constraints, the heatmap, and the random-weights statement", async () => {
    const out = join(t.dir, "report.html");
    const r = spawnCli(["report", bundle, "--out", out]);
    expect((await r.exit).code, r.stderr()).toBe(0);
    const html = readFileSync(out, "utf8");
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("quality score is near zero by construction");
    expect(text).toContain("Case performance by tier");
    expect(text).toContain("Per constraint");
    expect(text).toContain("Needle retrieval by context length × depth");
    expect(text).toMatch(/not evaluated \(1\)/); // case_01 has no assertion: shown as such, not as 0 %
    expect(html).toMatch(/<svg[^>]*class="plot-[^"]*"/);
  }, 120_000);
});
