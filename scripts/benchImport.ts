/**
 * `npm run bench:import [-- REQUESTS TOKENS]`: imports a generated vLLM `--save-detailed` result of
 * REQUESTS requests (default 500000) with TOKENS output tokens each (default 32) — one JSON document on
 * one line, as vLLM writes it — through the CLI, and prints the file size, the wall time, the peak
 * resident memory (from /proc, sampled) and whether the streaming parse was used (files above 480 MiB).
 * Writes only under the system temp folder and removes it. No timing goal is asserted here.
 */
import {spawn} from "node:child_process";
import {createWriteStream, mkdtempSync, readFileSync, rmSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {STREAM_ABOVE_BYTES} from "../collector/commands/importInputs.ts";

const N = Number(process.argv[2] ?? 500_000);
const OUT = Number(process.argv[3] ?? 32);
const dir = mkdtempSync(join(tmpdir(), "inferscope-bench-import-"));
const file = join(dir, "vllm-detailed.json");

/** Deterministic values (LCG), numbers written as vLLM's json.dump writes floats. */
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

async function generate(): Promise<void> {
  const w = createWriteStream(file);
  const put = async (s: string) => {
    if (!w.write(s)) await new Promise<void>((r) => w.once("drain", () => r()));
  };
  const head = {
    date: "20260101-000000",
    backend: "vllm",
    model_id: "bench/model",
    num_prompts: N,
    request_rate: "inf",
    max_concurrency: 256,
    duration: 1000.0,
    completed: N,
    total_input_tokens: N * 100,
    total_output_tokens: N * OUT,
    request_throughput: N / 1000,
    output_throughput: (N * OUT) / 1000,
    mean_ttft_ms: 100,
    median_ttft_ms: 100,
    p99_ttft_ms: 149,
    mean_tpot_ms: 15,
    median_tpot_ms: 15,
    p99_tpot_ms: 20,
    mean_itl_ms: 15,
    median_itl_ms: 15,
    p99_itl_ms: 20,
    mean_e2el_ms: 600,
    median_e2el_ms: 600,
    p99_e2el_ms: 700
  };
  await put(JSON.stringify(head).slice(0, -1));
  const arr = async (key: string, f: () => string) => {
    await put(`,"${key}":[`);
    let buf = "";
    for (let i = 0; i < N; i++) {
      buf += (i ? "," : "") + f();
      if (buf.length > 1 << 20) {
        await put(buf);
        buf = "";
      }
    }
    await put(`${buf}]`);
  };
  await arr("input_lens", () => "100");
  await arr("output_lens", () => String(OUT));
  await arr("ttfts", () => String(0.05 + rnd() * 0.1));
  await arr("itls", () => `[${Array.from({length: OUT - 1}, () => String(0.01 + rnd() * 0.01)).join(",")}]`);
  await arr("errors", () => '""');
  await new Promise<void>((r) => w.end("}\n", r));
}

/** Peak resident memory of a process and its children, sampled from /proc every 200 ms (kB). */
function rssOf(pid: number): number {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    const own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    return own + kids.reduce((s, k) => s + rssOf(k), 0);
  } catch {
    return 0;
  }
}

await generate();
const bytes = statSync(file).size;
const t0 = performance.now();
let peak = 0;
const child = spawn(process.execPath, ["collector/cli.ts", "import", "vllm", file, "--out", join(dir, "out")], {
  stdio: ["ignore", "pipe", "pipe"]
});
let err = "";
child.stderr.on("data", (b: Buffer) => (err += b.toString()));
const timer = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 200);
const code = await new Promise<number | null>((r) => child.on("exit", r));
clearInterval(timer);
const s = (performance.now() - t0) / 1000;
console.log(`| requests | tokens/request | file | parse | exit | wall | peak RSS |`);
console.log(`| -------- | -------------- | ---- | ----- | ---- | ---- | -------- |`);
console.log(
  `| ${N} | ${OUT} | ${(bytes / 2 ** 20).toFixed(0)} MiB | ${bytes > STREAM_ABOVE_BYTES ? "streaming" : "whole text"} | ${code} | ${s.toFixed(1)} s | ${(peak / 2 ** 20).toFixed(2)} GiB |`
);
if (code !== 0) console.log(err.split("\n").slice(-5).join("\n"));
rmSync(dir, {recursive: true, force: true});
