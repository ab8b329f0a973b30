import {basename} from "node:path";

import {pointBlocks, type RunConfig} from "../../src/analysis/schema/config.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {fillerWords, saltFor, type PromptPlan, type TokenCounter} from "../request/prompt.ts";
import {corpusWords, parseDatasetItems} from "./dataset.ts";
import {datasetWorkload} from "./datasetSource.ts";
import {sessionsWorkload} from "./sessions.ts";
import {sharedPrefixWorkload} from "./sharedPrefix.ts";
import type {BuildContext, Workload} from "./source.ts";
import {syntheticWorkload} from "./synthetic.ts";
import {parseTrace} from "./trace.ts";
import {traceWorkload, type TraceFile} from "./traceSource.ts";

export type {RequestAt, RequestPlan, Workload} from "./source.ts";

/** Words of filler tokenized to check that one filler word is one token on the server. */
const EXACT_PROBE_WORDS = 64;

/**
 * Filler words per token from the prompt calibration (1 without a tokenizer), and whether a block of filler
 * is exactly as many tokens as words on the server's tokenizer (then segment lengths are token-exact).
 */
async function wordsPerToken(
  prompt: PromptPlan,
  count: TokenCounter | null,
  seed: number
): Promise<{ratio: number; exact: boolean}> {
  const c = prompt.calibration;
  const ratio = c.method === "tokenize" && c.words !== null && c.measuredTokens ? c.words / c.measuredTokens : 1;
  if (count === null) return {ratio, exact: false};
  const n = await count(fillerWords(EXACT_PROBE_WORDS, seed));
  return {ratio: n === EXACT_PROBE_WORDS ? 1 : ratio, exact: n === EXACT_PROBE_WORDS};
}

/** A file of the workload: read through the caller (the collector's effects), digested. */
async function readSource(read: (path: string) => Promise<Buffer>, path: string) {
  let buf: Buffer;
  try {
    buf = await read(path);
  } catch (e) {
    throw new Error(
      `workload.source.path: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      {cause: e}
    );
  }
  return {name: basename(path), sha256: sha256Hex(buf), bytes: buf.length, text: buf.toString("utf8")};
}

/** Trace lines a block needs: offset + warmup + requests ≤ the lines the trace has. */
function checkTraceLength(config: RunConfig, file: TraceFile, offset: number): void {
  for (const b of pointBlocks(config)) {
    if (b.requests === undefined) continue;
    const need = offset + b.warmup + b.requests;
    if (need > file.lines.length)
      throw new Error(
        `${file.name}: the trace has ${file.lines.length} lines, but offset ${offset} + warmup ${b.warmup} + requests ${b.requests} = ${need}: lower requests (or use duration_s)`
      );
  }
}

/** The workload of a run's load points (config.workload.source), with its files read and checked. */
export async function buildWorkload(o: {
  config: RunConfig;
  bundleId: string;
  prompt: PromptPlan;
  count: TokenCounter | null;
  read: (path: string) => Promise<Buffer>;
}): Promise<Workload> {
  const {config} = o;
  const w = config.workload;
  const seed = pointBlocks(config)[0]?.seed ?? 42;
  const {ratio, exact} = await wordsPerToken(o.prompt, w.source === undefined ? null : o.count, seed);
  const ctx: BuildContext = {
    config,
    bundleId: o.bundleId,
    runSalt: w.salt ? saltFor(o.bundleId, "run") : null,
    wordsPerToken: ratio,
    exact,
    promptSeed: seed
  };
  const s = w.source;
  if (s === undefined || s.kind === "synthetic") return syntheticWorkload(ctx, o.prompt);
  if (s.kind === "shared_prefix") return sharedPrefixWorkload(ctx, s);
  if (s.kind === "sessions") return sessionsWorkload(ctx, s);
  const f = await readSource(o.read, s.path);
  if (s.kind === "trace") {
    const file: TraceFile = {...f, lines: parseTrace(f.text, f.name)};
    checkTraceLength(config, file, s.offset);
    return traceWorkload(ctx, s, file);
  }
  if (s.format === "text")
    return datasetWorkload(ctx, s, {...f, items: null, corpus: corpusWords(f.text, f.name).words, skipped: 0});
  const {items, skipped} = parseDatasetItems(f.text, s.format, f.name);
  return datasetWorkload(ctx, s, {...f, items, corpus: null, skipped});
}
