/**
 * npm run bench:site — build time of the static site for 100 synthetic bundles (scripts/lib/synth.ts via
 * test/site/synthSite.ts), and the transferred size of its report pages.
 *
 * 10 models × 10 configurations (5 hardware/engine/--parallel variants × 2 output lengths), 4 concurrency
 * points × 50 requests each, telemetry on every other bundle. Everything is generated outside the repository.
 * Usage: npm run bench:site [-- --bundles 100 --keep]
 */
import {readdirSync, readFileSync, rmSync, statSync} from "node:fs";
import {join} from "node:path";
import {gzipSync} from "node:zlib";

import {max, sum} from "d3-array";
import {globSync} from "glob";

import {buildSite, htmlPages, resolvePath, tempDir} from "../test/site/harness.ts";
import {writeSiteBundle, type SiteBundleSpec} from "../test/site/synthSite.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const count = Number(arg("bundles", "100"));
const keep = process.argv.includes("--keep");

const HARDWARE = [
  {gpu: {name: "NVIDIA H100 80GB HBM3", count: 1}, engine: "vllm", slowdown: 1},
  {gpu: {name: "NVIDIA H100 80GB HBM3", count: 2}, engine: "vllm", slowdown: 0.8},
  {gpu: {name: "NVIDIA H100 80GB HBM3", count: 1}, engine: "sglang", slowdown: 0.95},
  {gpu: {name: "NVIDIA L40S", count: 1}, engine: "vllm", slowdown: 1.7},
  {gpu: {name: "NVIDIA A100-SXM4-80GB", count: 1}, engine: "vllm", slowdown: 1.4}
];

function spec(i: number): SiteBundleSpec {
  const model = `bench-model-${String(Math.floor(i / 10)).padStart(2, "0")}`;
  const hw = HARDWARE[i % HARDWARE.length]!;
  const tokens = i % 10 < 5 ? 64 : 128;
  return {
    id: `20261201-synthetic-bench-${String(i).padStart(3, "0")}`,
    model,
    gpu: hw.gpu,
    engine: hw.engine,
    labels: {variant: String(i % 5)},
    concurrency: [1, 2, 4, 8],
    requests: 50,
    slowdown: hw.slowdown * (1 + Math.floor(i / 10) * 0.1),
    tokens,
    telemetry: i % 2 === 0,
    startedAt: `2026-12-01T${String(i % 24).padStart(2, "0")}:00:00.000Z`,
    note: "SYNTHETIC bench:site input (scripts/benchSite.ts): not a measurement"
  };
}

/** Bytes of every file under `dir`. */
function dirBytes(dir: string): number {
  return sum(globSync("**", {cwd: dir, nodir: true, dot: true, absolute: true}), (f) => statSync(f).size);
}

const work = tempDir("inferscope-bench-site-");
const evidence = join(work, "evidence");
const dist = join(work, "dist");
try {
  let t = performance.now();
  for (let i = 0; i < count; i++) await writeSiteBundle(evidence, spec(i));
  const genS = (performance.now() - t) / 1000;
  const evidenceMiB = dirBytes(evidence) / 2 ** 20;
  console.log(`generated ${count} synthetic bundles (${evidenceMiB.toFixed(1)} MiB) in ${genS.toFixed(1)} s`);

  t = performance.now();
  let peakKiB = 0;
  const poll = setInterval(() => {
    // Peak resident memory of the build process (Linux), sampled.
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d)))
      try {
        const s = readFileSync(`/proc/${pid}/status`, "utf8");
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("astro.mjs")) continue;
        const hwm = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0);
        peakKiB = Math.max(peakKiB, hwm);
      } catch {
        // the process ended between listing and reading
      }
  }, 250);
  const {ms} = await buildSite(evidence, dist, {base: "/inferscope/"});
  clearInterval(poll);
  const pages = htmlPages(dist, "/inferscope/");
  const css = gzipSync(readFileSync(join(dist, "styles.css"))).length;
  const reports = pages
    .filter((p) => p.includes("/runs/"))
    .map((p) => (gzipSync(readFileSync(resolvePath(dist, "/inferscope/", p)!)).length + css) / 1024)
    .sort((a, b) => a - b);
  const rows = [
    ["bundles", String(count)],
    ["pages built", String(pages.length)],
    ["build wall time", `${(ms / 1000).toFixed(1)} s`],
    ["pages per second", (pages.length / (ms / 1000)).toFixed(1)],
    ["peak RSS of the build", peakKiB > 0 ? `${(peakKiB / 1024).toFixed(0)} MiB` : "n/a"],
    ["site size (incl. raw evidence copies)", `${(dirBytes(dist) / 2 ** 20).toFixed(1)} MiB`],
    ["report page, transferred (gzip HTML + CSS): median", `${reports[Math.floor(reports.length / 2)]!.toFixed(1)} KB`],
    ["report page, transferred (gzip HTML + CSS): largest", `${reports.at(-1)!.toFixed(1)} KB (budget 200 KB)`]
  ];
  const w = max(rows, (r) => r[0]!.length)!;
  for (const [k, v] of rows) console.log(`${k!.padEnd(w)}  ${v}`);
  if (reports.at(-1)! > 200) process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, {recursive: true, force: true});
}
