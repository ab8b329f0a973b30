/**
 * npm run bench:analyze [-- --requests N --events E --shapes concurrency,rate,poisson,gamma --keep --no-payloads]
 * For every load shape (closed loop at concurrency 64; constant rate, Poisson and gamma arrivals at
 * 500 req/s with their schedule.jsonl), generates a synthetic bundle (default 1,000,000 requests × 50 SSE
 * events, each event with its raw payload as bundle v2 keeps it: a chat chunk of ~170 bytes) outside the
 * repository with scripts/lib/largeBundle.ts, then measures, each in a fresh child process: (a) a bare
 * baseline that reads the same requests.jsonl bytes and JSON.parses every line; (b) the analyzer's full
 * recompute (digests, schema validation, request accounting, every metric and gate). Prints both times,
 * their ratio and each process's peak RSS per shape. Targets: ratio ≤ 3, peak ≤ 1.5 GB. One bundle is on
 * disk at a time.
 */
import {execFileSync} from "node:child_process";
import {createReadStream, mkdtempSync, rmSync, statSync} from "node:fs";
import {cpus, tmpdir} from "node:os";
import {join} from "node:path";
import {StringDecoder} from "node:string_decoder";

import {analyzeBundle} from "../src/analysis/index.ts";
import type {LoadMode} from "../src/analysis/schema/index.ts";
import {fsBundle} from "../src/io/fsBundle.ts";
import {writeLargeBundle} from "./lib/largeBundle.ts";

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const SHAPES: readonly LoadMode[] = ["concurrency", "rate", "poisson", "gamma"];

async function measureBaseline(dir: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  let lines = 0;
  let rest = "";
  const decoder = new StringDecoder("utf8");
  for await (const buf of createReadStream(join(dir, "requests.jsonl"), {
    highWaterMark: 1 << 22
  }) as AsyncIterable<Buffer>) {
    const parts = (rest + decoder.write(buf)).split("\n");
    rest = parts.pop()!;
    for (const p of parts) {
      JSON.parse(p);
      lines++;
    }
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(JSON.stringify({ms, lines, maxRssMB: process.resourceUsage().maxRSS / 1024}));
}

async function measureAnalyze(dir: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  const report = await analyzeBundle(fsBundle(dir));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const p = report.load_points[0]!;
  console.log(
    JSON.stringify({
      ms,
      verdict: report.verdict,
      reasons: report.verdict_reasons,
      n: p.n,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      ttftP50: (p.metrics["ttft_ms"] as {p50: number}).p50
    })
  );
}

async function benchShape(shape: LoadMode, requests: number, events: number, payloads: boolean): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "inferscope-bench-"));
  const dir = join(root, `bench-${shape}`);
  try {
    const g0 = Date.now();
    const value = shape === "concurrency" ? 64 : 500;
    const {payloadBytes} = await writeLargeBundle({dir, requests, events, shape, value, payloads});
    const bytes = statSync(join(dir, "requests.jsonl")).size;
    console.log(
      `\n[${shape} ${value}] generated ${requests.toLocaleString("en")} requests × ${events} events: ${(bytes / 2 ** 20).toFixed(0)} MiB in ${((Date.now() - g0) / 1000).toFixed(1)} s`
    );
    if (payloadBytes > 0)
      console.log(
        `raw event payloads (bundle v2): ${(payloadBytes / 2 ** 20).toFixed(0)} MiB of it, ${(payloadBytes / (requests * events)).toFixed(0)} bytes per event; without them the file would be ${((bytes - payloadBytes) / 2 ** 20).toFixed(0)} MiB (payloads add ${((100 * payloadBytes) / (bytes - payloadBytes)).toFixed(0)} %)`
      );
    const run = (what: string) =>
      JSON.parse(
        execFileSync(process.execPath, ["--max-old-space-size=4096", import.meta.filename, "--measure", what, dir], {
          encoding: "utf8"
        })
          .trim()
          .split("\n")
          .pop()!
      );
    const base = run("baseline");
    const full = run("analyze");
    console.log(
      `baseline (read + JSON.parse per line): ${(base.ms / 1000).toFixed(2)} s, peak RSS ${base.maxRssMB.toFixed(0)} MB`
    );
    console.log(
      `analyzer (digest + schema + accounting + metrics + gates): ${(full.ms / 1000).toFixed(2)} s, peak RSS ${full.maxRssMB.toFixed(0)} MB, verdict ${full.verdict}, n ${full.n}${full.reasons.length ? ` (${full.reasons.join("; ").slice(0, 200)})` : ""}`
    );
    console.log(
      `ratio analyzer/baseline: ${(full.ms / base.ms).toFixed(2)} (target ≤ 3.00); peak ${(full.maxRssMB / 1024).toFixed(2)} GB (target ≤ 1.5 GB)`
    );
  } finally {
    if (!args.includes("--keep")) rmSync(root, {recursive: true, force: true});
    else console.log(`kept ${dir}`);
  }
}

async function main(): Promise<void> {
  if (args[0] === "--measure") {
    await (args[1] === "baseline" ? measureBaseline(args[2]!) : measureAnalyze(args[2]!));
    return;
  }
  const requests = opt("requests", 1_000_000);
  const events = opt("events", 50);
  const i = args.indexOf("--shapes");
  const shapes = i >= 0 ? (args[i + 1]!.split(",") as LoadMode[]) : SHAPES;
  const unknown = shapes.filter((s) => !SHAPES.includes(s));
  if (unknown.length > 0) throw new Error(`unknown load shape(s) ${unknown.join(", ")}: use ${SHAPES.join(", ")}`);
  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, node ${process.version}`);
  for (const shape of shapes) await benchShape(shape, requests, events, !args.includes("--no-payloads"));
}

await main();
