/**
 * npm run bench:analyze [-- --requests N --events E --keep --no-payloads]
 * Generates a synthetic bundle (default 1,000,000 requests × ~50 SSE events, each event with its raw
 * payload as bundle v2 keeps it: a chat chunk of ~170 bytes) outside the repository,
 * then measures, each in a fresh child process: (a) a bare baseline that reads the same bytes and
 * JSON.parses every line; (b) the analyzer's full recompute (digests, schema validation, every metric
 * and gate). Prints both times, their ratio and each process's peak RSS. Targets: ratio ≤ 3, peak ≤ 1.5 GB.
 */
import {execFileSync} from "node:child_process";
import {createReadStream, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync} from "node:fs";
import {tmpdir, cpus} from "node:os";
import {join} from "node:path";
import {StringDecoder} from "node:string_decoder";

import {stringify as toYaml} from "yaml";

import {sealBundle} from "../collector/bundle/seal.ts";
import {analyzeBundle} from "../src/analysis/index.ts";
import {MEASURE_VERSION, RunConfigSpec, SCHEMA_VERSION} from "../src/analysis/schema/index.ts";
import {fsBundle, sha256} from "../src/io/fsBundle.ts";
import {SYNTH_ENVIRONMENT, loadPoint} from "./lib/synth.ts";

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

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
      n: p.n,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      ttftP50: (p.metrics["ttft_ms"] as {p50: number}).p50
    })
  );
}

/** Raw payloads as a vLLM chat stream sends them (bundle v2 keeps up to output.payload_bytes of each). */
const payload = (i: number, kind: "role" | "content" | "finish" | "usage" | "done"): string => {
  const head = `{"id":"chatcmpl-r${i}","object":"chat.completion.chunk","created":1764547200,"model":"synthetic","choices":`;
  if (kind === "done") return "[DONE]";
  if (kind === "usage") return `${head}[],"usage":{"prompt_tokens":512,"total_tokens":558,"completion_tokens":46}}`;
  const delta =
    kind === "role" ? '{"role":"assistant","content":""}' : kind === "finish" ? "{}" : '{"content":" word"}';
  return `${head}[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${kind === "finish" ? '"length"' : "null"}}]}`;
};

/** Writes requests.jsonl; returns the bytes the payloads took (0 without them). */
function generate(dir: string, requests: number, events: number, payloads: boolean): number {
  let payloadBytes = 0;
  const withPayload = (tuple: string, i: number, kind: Parameters<typeof payload>[1]): string => {
    if (!payloads) return `[${tuple}]`;
    const p = `,${JSON.stringify(payload(i, kind))}`;
    payloadBytes += p.length;
    return `[${tuple}${p}]`;
  };
  const fd = openSync(join(dir, "requests.jsonl"), "w");
  let buf = "";
  let state = 12345;
  const rnd = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const c = 64;
  const free = new Float64Array(c);
  for (let i = 0; i < requests; i++) {
    let slot = 0;
    for (let s = 1; s < c; s++) if (free[s]! < free[slot]!) slot = s;
    const sched = Math.round(free[slot]!);
    const disp = sched + 20_000 + Math.floor(rnd() * 20_000);
    const hdr = disp + 1_000_000;
    let t = disp + 30_000_000 + Math.floor(rnd() * 20_000_000);
    const ev: string[] = [withPayload(`${hdr + 50_000},80,"role",0`, i, "role")];
    for (let k = 0; k < events - 4; k++) {
      ev.push(withPayload(`${t},124,"content",1`, i, "content"));
      t += 8_000_000 + Math.floor(rnd() * 4_000_000);
    }
    ev.push(
      withPayload(`${t},90,"finish",0`, i, "finish"),
      withPayload(`${t + 100_000},160,"usage",0`, i, "usage"),
      withPayload(`${t + 200_000},14,"done",null`, i, "done")
    );
    const end = t + 300_000;
    free[slot] = end;
    const tokens = events - 4;
    buf += `{"seq":${i},"id":"r${i}","point":"concurrency-64","repeat":0,"index":${i},"phase":"measure","timeBase":"run","tSchedNs":${sched},"tDispNs":${disp},"tHdrNs":${hdr},"tByte1Ns":${hdr + 40_000},"tEndNs":${end},"events":[${ev.join(",")}],"httpStatus":200,"finishReason":"length","usage":{"promptTokens":512,"completionTokens":${tokens},"reasoningTokens":null,"cachedTokens":0},"usageSource":"server_continuous","serverTimings":null,"transportError":null,"errorMessage":null,"promptDigest":"${"a".repeat(64)}","responseDigest":"${"b".repeat(64)}","promptTokensIntended":512,"maxTokens":${tokens},"salt":"s${i}"}\n`;
    if (buf.length > 1 << 22) {
      writeSync(fd, buf);
      buf = "";
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  return payloadBytes;
}

async function main(): Promise<void> {
  if (args[0] === "--measure") {
    await (args[1] === "baseline" ? measureBaseline(args[2]!) : measureAnalyze(args[2]!));
    return;
  }
  const requests = opt("requests", 1_000_000);
  const events = opt("events", 50);
  const root = mkdtempSync(join(tmpdir(), "inferscope-bench-"));
  const dir = join(root, "bench-bundle");
  mkdirSync(dir);
  try {
    const g0 = Date.now();
    const config = RunConfigSpec.parse({
      name: "bench",
      target: {base_url: "http://127.0.0.1:8000/v1", model: "synthetic"},
      workload: {prompt_tokens: 512, max_tokens: events - 4},
      load: {mode: "concurrency", values: [64], requests, warmup: 0}
    });
    const configText = toYaml(config);
    const cfd = openSync(join(dir, "config.resolved.yaml"), "w");
    writeSync(cfd, configText);
    closeSync(cfd);
    const payloadBytes = generate(dir, requests, events, !args.includes("--no-payloads"));
    await sealBundle(
      dir,
      {
        schemaVersion: SCHEMA_VERSION,
        bundleId: "bench-bundle",
        measureVersion: MEASURE_VERSION,
        status: "complete",
        statusReason: null,
        startedAt: "2026-11-01T00:00:00.000Z",
        finishedAt: "2026-11-01T01:00:00.000Z",
        monotonicOriginNs: "1000",
        timeUnit: "ns",
        clockAnchors: [],
        collector: {name: "inferscope-bench", version: "0", lockfileSha256: null, gitCommit: null, node: null},
        configSha256: sha256(configText),
        durability: {fsyncIntervalMs: null},
        prng: null,
        loadPoints: [loadPoint("concurrency", 64, requests)],
        labels: {},
        environment: SYNTH_ENVIRONMENT,
        provenance: {kind: "synthetic", note: "benchmark input generated by scripts/benchAnalyze.ts"}
      },
      ["config.resolved.yaml", "requests.jsonl"]
    );
    const bytes = statSync(join(dir, "requests.jsonl")).size;
    console.log(
      `generated ${requests.toLocaleString("en")} requests × ${events} events: ${(bytes / 2 ** 20).toFixed(0)} MiB in ${((Date.now() - g0) / 1000).toFixed(1)} s`
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
    console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, node ${process.version}`);
    console.log(
      `baseline (read + JSON.parse per line): ${(base.ms / 1000).toFixed(2)} s, peak RSS ${base.maxRssMB.toFixed(0)} MB`
    );
    console.log(
      `analyzer (digest + schema + metrics + gates): ${(full.ms / 1000).toFixed(2)} s, peak RSS ${full.maxRssMB.toFixed(0)} MB, verdict ${full.verdict}, n ${full.n}`
    );
    console.log(
      `ratio analyzer/baseline: ${(full.ms / base.ms).toFixed(2)} (target ≤ 3.00); peak ${(full.maxRssMB / 1024).toFixed(2)} GB (target ≤ 1.5 GB)`
    );
  } finally {
    if (!args.includes("--keep")) rmSync(root, {recursive: true, force: true});
    else console.log(`kept ${dir}`);
  }
}

await main();
