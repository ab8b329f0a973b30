#!/usr/bin/env node
/**
 * `npm run bench:gate [-- --runs N]` (issue 18): how often the regression gate's rule fails by chance, and
 * how often it catches a real regression, on this machine. N re-runs of one fake server (20 ms to the first
 * token, 8 tokens 2 ms apart, 40 requests at concurrency 2) are each judged against the first run — every
 * FAIL is a false failure — and N runs of a 20 % slower server against the same baseline — every PASS is a
 * miss. The rules: ttft_ms and e2e_ms at p50 and p95, 5 % allowed (the CLI's rule, compare/regression.ts).
 * Prints the measured rates; nothing is asserted (a benchmark, not a test). Bounded: about 2 s per run.
 */
import {spawn} from "node:child_process";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {max, min} from "d3-array";
import {stringify} from "yaml";

import {analyzeBundle, parseRule, regressionGate, type RegressionRule} from "../src/analysis/index.ts";
import {fsBundle} from "../src/io/fsBundle.ts";
import {startFakeServer, type FakeServer} from "../collector/fake/index.ts";

const argRuns = process.argv.indexOf("--runs");
const RUNS = argRuns > 0 ? Number(process.argv[argRuns + 1]) : 10;
const RULES = ["ttft_ms:p50", "e2e_ms:p50", "ttft_ms:p95", "e2e_ms:p95"].map((m) => parseRule(m, 5) as RegressionRule);

function collect(work: string, server: FakeServer, k: string): Promise<string> {
  const cfg = join(work, `${k}.yaml`);
  writeFileSync(
    cfg,
    stringify({
      name: "bench-gate",
      target: {base_url: server.url, model: "fake-model"},
      workload: {prompt_tokens: 16, max_tokens: 8},
      load: {mode: "concurrency", values: [2], requests: 40, warmup: 2},
      telemetry: {gpu: "off", server_metrics: "off", interval_ms: 200},
      slo: {percentile: "p50"},
      gates: {min_samples: 5, max_loop_delay_p99_ms: 1000, max_dispatch_lag_p99_ms: 1000, max_stall_share: 1}
    })
  );
  const child = spawn(
    process.execPath,
    ["collector/cli.ts", "collect", "--config", cfg, "--out", join(work, k), "--no-progress"],
    {
      stdio: ["ignore", "pipe", "ignore"]
    }
  );
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
  return new Promise((resolve) => child.on("close", () => resolve(out.trim().split("\n").pop() ?? "")));
}

const fast = await startFakeServer({port: 0, options: {ttftMs: 20, tokenIntervalMs: 2}});
const slow = await startFakeServer({port: 0, options: {ttftMs: 24, tokenIntervalMs: 2.4}});
const work = mkdtempSync(join(tmpdir(), "bench-gate-"));
try {
  const t0 = Date.now();
  const baseline = await analyzeBundle(fsBundle(await collect(work, fast, "base")), {keepRows: true});
  let falseFail = 0;
  let caught = 0;
  const regs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const same = await analyzeBundle(fsBundle(await collect(work, fast, `same${i}`)), {keepRows: true});
    const worse = await analyzeBundle(fsBundle(await collect(work, slow, `slow${i}`)), {keepRows: true});
    const a = regressionGate(baseline, same, RULES);
    const b = regressionGate(baseline, worse, RULES);
    if (a.status === "fail") falseFail++;
    if (b.status === "fail") caught++;
    regs.push(...a.checks.map((c) => c.regressionPct ?? 0));
    console.log(
      `run ${i + 1}: re-run ${a.status.toUpperCase()} (${a.checks.map((c) => `${c.metric} ${c.stat} ${(c.regressionPct ?? 0).toFixed(1)} %`).join(", ")}); 20 % slower ${b.status.toUpperCase()}`
    );
  }
  console.log(
    `\nfalse failures: ${falseFail} of ${RUNS} re-runs of the same server (${((falseFail / RUNS) * 100).toFixed(0)} %); caught: ${caught} of ${RUNS} runs of a 20 % slower server (${((caught / RUNS) * 100).toFixed(0)} %); rules ${RULES.map((r) => `${r.metric}:${r.stat}`).join(", ")}, 5 % allowed; re-run regressions ranged ${(min(regs) ?? 0).toFixed(1)} … ${(max(regs) ?? 0).toFixed(1)} %; ${((Date.now() - t0) / 1000).toFixed(0)} s`
  );
} finally {
  await fast.close();
  await slow.close();
  rmSync(work, {recursive: true, force: true});
}
