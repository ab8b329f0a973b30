/**
 * `inferscope quick URL` (issue 18): ModelRun's "single speed test" — a quick look, not a benchmark. Finds
 * the model from /v1/models, sends a handful of streamed requests one at a time (a warmup first, excluded),
 * prints TTFT, pure decode t/s, ITL and E2E with their n (below a statistic's sample floor it says so), and
 * writes a normal sealed bundle labelled a quick look, which the site shows but never ranks. Exit 0 when
 * every request was answered, whatever the floors; 4 when one was not; 3 unreachable or refused; 2 usage.
 */
import type {Command} from "commander";

import {analyzeBundle, isSummary, QUICK_LOOK_LABEL, type Report} from "../../src/analysis/index.ts";
import {RunConfigSpec, type RunConfig} from "../../src/analysis/schema/config.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {HttpTextError} from "../httpText.ts";
import {collect} from "../run/collect.ts";
import {silentProgress} from "../load/progress.ts";
import {defaultCollectDeps, type CollectDeps} from "./collect.ts";
import {defaultIo, type Io} from "./io.ts";

export interface QuickOptions {
  model?: string;
  apiKeyEnv?: string;
  requests?: string;
  out?: string;
}

/** A base URL as given, with /v1 added when it names only a host (http://host:8000 → http://host:8000/v1). */
export function quickBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError(`quick: not a URL: "${url}" (e.g. http://127.0.0.1:8000/v1)`, {exitCode: EXIT.usage});
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new CliError(`quick: expected an http(s) URL, got "${url}"`, {exitCode: EXIT.usage});
  const path = u.pathname.replace(/\/+$/, "");
  return `${u.origin}${path === "" ? "/v1" : path}`;
}

/** The model to look at: --model, else the server's only (or first) model; a one-line reason otherwise. */
async function discoverModel(fx: Effects, base: string, apiKey: string | null, model: string | undefined) {
  let r;
  try {
    r = await fx.http({
      url: `${base}/models`,
      headers: apiKey === null ? {} : {authorization: `Bearer ${apiKey}`},
      timeoutMs: 10_000
    });
  } catch (e) {
    const why = e instanceof HttpTextError ? `${e.kind}: ${e.message}` : (e as Error).message;
    throw new CliError(`quick: ${base} is unreachable (${why})`, {exitCode: EXIT.unreachable});
  }
  if (r.status === 401 || r.status === 403)
    throw new CliError(
      `quick: ${base}/models refused the credentials (HTTP ${r.status}): ${apiKey === null ? "give the key's variable with --api-key-env NAME" : "check the key"}`,
      {exitCode: EXIT.unreachable}
    );
  if (model !== undefined) return model;
  let ids: string[] = [];
  try {
    const data = (JSON.parse(r.body) as {data?: {id?: unknown}[]}).data;
    ids = Array.isArray(data) ? data.map((m) => String(m.id ?? "")).filter(Boolean) : [];
  } catch {
    // not JSON: no model list
  }
  if (r.status < 200 || r.status >= 300 || ids.length === 0)
    throw new CliError(`quick: ${base}/models lists no model (HTTP ${r.status}): name one with --model`, {
      exitCode: EXIT.usage
    });
  return ids[0]!;
}

/** The run config of a quick look: concurrency 1, `requests` measured after one warmup, a short prompt. */
export function quickConfig(base: string, model: string, requests: number, apiKeyEnv?: string): RunConfig {
  return RunConfigSpec.parse({
    name: "quick",
    description: "inferscope quick: a quick look (concurrency 1, a handful of requests), not a benchmark",
    target: {base_url: base, model, ...(apiKeyEnv === undefined ? {} : {api_key_env: apiKeyEnv})},
    workload: {prompt_tokens: 128, max_tokens: 64},
    load: {mode: "concurrency", values: [1], requests, warmup: 1},
    telemetry: {gpu: "auto", server_metrics: "auto", interval_ms: 500},
    labels: {[QUICK_LOOK_LABEL]: "quick"},
    slo: {percentile: "p50"},
    gates: {min_samples: 5}
  });
}

const fmt = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? "—" : x.toFixed(d));

/** The look as a few lines: each metric's median and P95 with n, or why a statistic is withheld. */
export function quickSummary(report: Report): string[] {
  const p = report.load_points[0];
  if (p === undefined) return ["no measured requests"];
  const rows: [string, string, string][] = [
    ["TTFT", "ttft_ms", "ms"],
    ["decode", "decode_tok_s", "tok/s"],
    ["ITL", "itl_ms", "ms"],
    ["E2E", "e2e_ms", "ms"]
  ];
  const out = rows.map(([name, id, unit]) => {
    const m = p.metrics[id];
    if (m === undefined || !isSummary(m)) return `  ${name.padEnd(7)} —`;
    const withheld = m.withheld ?? {};
    const p50 = m.p50 === null ? `— (${withheld.p50 ?? `n=${m.n}`})` : `${fmt(m.p50)} ${unit}`;
    const p95 = m.p95 === null ? `— (${withheld.p95 ?? `n=${m.n}`})` : `${fmt(m.p95)} ${unit}`;
    return `  ${name.padEnd(7)} median ${p50}, P95 ${p95}  (n=${m.n})`;
  });
  return [
    ...out,
    `  ${p.n_success} of ${p.n} measured requests succeeded (concurrency 1, 1 warmup excluded)`,
    "a quick look, not a benchmark: one stream, a handful of requests; for numbers you can defend, run `collect` with a config (docs/collector.md)"
  ];
}

export async function quickCommand(
  url: string,
  o: QuickOptions,
  io: Io,
  fx: Effects = defaultEffects(),
  deps: CollectDeps = defaultCollectDeps
): Promise<string> {
  const requests = o.requests === undefined ? 5 : Number(o.requests);
  if (!Number.isInteger(requests) || requests < 1 || requests > 100)
    throw new CliError(`quick: --requests must be 1 … 100, got "${o.requests}"`, {exitCode: EXIT.usage});
  const base = quickBaseUrl(url);
  const apiKey = o.apiKeyEnv === undefined ? null : (fx.env[o.apiKeyEnv] ?? null);
  if (o.apiKeyEnv !== undefined && apiKey === null)
    throw new CliError(`quick: --api-key-env names ${o.apiKeyEnv}, which is not set`, {exitCode: EXIT.usage});
  const model = await discoverModel(fx, base, apiKey, o.model);
  io.err.info(`quick look at ${model} on ${base}: 1 warmup + ${requests} requests, one at a time`);
  const config = quickConfig(base, model, requests, o.apiKeyEnv);
  const outcome = await collect({
    config,
    fx,
    stream: deps.stream,
    pacer: deps.pacer,
    outParent: o.out ?? null,
    progress: silentProgress
  });
  if (outcome.writeFailure !== null) throw new CliError(outcome.writeFailure, {exitCode: EXIT.writeFailed});
  if (outcome.interrupted) {
    io.out(outcome.dir);
    throw new CliError(`interrupted: bundle sealed as interrupted`, {exitCode: EXIT.interrupted});
  }
  const report = await analyzeBundle(fsBundle(outcome.dir));
  for (const line of quickSummary(report)) io.err.info(line);
  io.out(outcome.dir);
  const p = report.load_points[0];
  if (p === undefined || p.n === 0 || p.n_success < p.n) {
    const first = p?.failures?.[0]?.message ?? Object.keys(p?.outcomes ?? {}).join(", ");
    // one line: a server that does not stream answers with a whole body, which is not the reason
    const why = first.length > 100 ? `${first.slice(0, first.indexOf(")") + 1 || 100)}…` : first;
    throw new CliError(
      `quick: ${p === undefined ? "no request was measured" : `${p.n - p.n_success} of ${p.n} requests were not answered`}${why ? ` (${why})` : ""}`,
      {exitCode: EXIT.notValid}
    );
  }
  return outcome.dir;
}

export function register(program: Command): void {
  program
    .command("quick")
    .description("a quick look at a server (no config): a few streamed requests, TTFT, decode t/s, ITL, E2E")
    .argument("<url>", "the server's OpenAI-compatible base URL (e.g. http://127.0.0.1:8000/v1)")
    .option("--model <name>", "the model (default: the first of /v1/models)")
    .option("--api-key-env <name>", "the environment variable holding the API key")
    .option("--requests <n>", "measured requests after one warmup (default 5)")
    .option("--out <dir>", "parent folder of the bundle (default: evidence/)")
    .action(async (url: string, o: QuickOptions) => {
      await quickCommand(url, o, defaultIo());
    });
}
