import {join} from "node:path";

import {z} from "zod";

import {LineSplitter, type Oversized} from "../../src/analysis/util/lines.ts";
import {zodIssueList} from "../../src/analysis/util/zodIssues.ts";
import type {Effects} from "../effects.ts";
import {cacheDir} from "../env/cacheDir.ts";
import type {CaseItem} from "./types.ts";
import {sha256Hex} from "../../src/io/hash.ts";

/**
 * GSM8K test set (OpenAI grade-school-math, MIT licence): read from a path the user gives, or from the
 * cache, or downloaded once from the public source and checked against a pinned sha256 before it is cached.
 */
export interface Gsm8kSource {
  url: string;
  sha256: string;
  /** File name in the cache folder. */
  cacheName: string;
}

export const GSM8K_SOURCE: Gsm8kSource = {
  url: "https://raw.githubusercontent.com/openai/grade-school-math/master/grade_school_math/data/test.jsonl",
  sha256: "3730d312f6e3440559ace48831e51066acaca737f6eabec99bccb9e4b3c39d14",
  cacheName: "gsm8k-test-3730d312f6e3.jsonl"
};

export interface Gsm8kItem {
  /** 0-based line index in the file. */
  index: number;
  question: string;
  /** The final answer after "####", as written (e.g. "70000"). */
  answer: string;
}

export interface Gsm8kData {
  items: Gsm8kItem[];
  /** Where the data came from, recorded in the bundle. */
  origin: {kind: "path" | "cache" | "download"; path: string; sha256: string; pinned: boolean};
}

/** A data problem the user must fix (bad path, bad line, checksum mismatch, no network). */
export class Gsm8kError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Gsm8kError";
  }
}

/** The dataset file's digest (recorded in the bundle): the one sha256 of src/io/hash.ts. */
export const sha256Of = (text: string | Buffer): string => sha256Hex(text);

const Gsm8kLine = z.looseObject({question: z.string(), answer: z.string()});

/** One GSM8K line (0-based `index`) as an item; a bad line throws naming file:line and what was expected. */
function parseItem(raw: string | Oversized, index: number, file: string): Gsm8kItem {
  const where = `${file}:${index + 1}`;
  if (typeof raw !== "string") throw new Gsm8kError(`${where}: line of ${raw.oversized} characters is too long`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    throw new Gsm8kError(
      `${where}: not JSON (${(e as Error).message}); expected {"question": …, "answer": "… #### N"}`
    );
  }
  const p = Gsm8kLine.safeParse(v);
  if (!p.success) {
    const first = zodIssueList(p.error)[0]!;
    throw new Gsm8kError(
      `${where}: expected {"question": string, "answer": string} (${first.path === "" ? "(line)" : first.path}: ${first.message})`
    );
  }
  const tail = p.data.answer.split("####");
  const answer = tail.length > 1 ? tail.at(-1)!.trim() : "";
  if (!/^-?[\d,]*\.?\d+$/.test(answer))
    throw new Gsm8kError(
      `${where}: answer must end with "#### <number>", got ${JSON.stringify(p.data.answer.slice(-40))}`
    );
  return {index, question: p.data.question, answer: answer.replace(/,/g, "")};
}

/** Parses GSM8K JSONL (lines split as bundle JSONL is); every bad line is an error naming file:line. */
export function parseGsm8k(text: string, file: string): Gsm8kItem[] {
  const splitter = new LineSplitter();
  const lines = splitter.push(text);
  const {last} = splitter.finish();
  if (last !== null) lines.push(last);
  const items: Gsm8kItem[] = [];
  lines.forEach((line, i) => {
    if (typeof line === "string" && line.trim() === "") return;
    items.push(parseItem(line, i, file));
  });
  if (items.length === 0) throw new Gsm8kError(`${file}: no GSM8K items`);
  return items;
}

/**
 * The GSM8K items: `path` when given (any content, its sha256 recorded), else the cached copy of the
 * pinned source, else (download allowed) the source fetched once, verified and cached atomically.
 */
export async function loadGsm8k(
  o: {path?: string | undefined; download: boolean},
  fx: Pick<Effects, "files" | "http" | "env">,
  source: Gsm8kSource = GSM8K_SOURCE
): Promise<Gsm8kData> {
  if (o.path !== undefined) {
    let buf: Buffer;
    try {
      buf = await fx.files.readFile(o.path);
    } catch (e) {
      throw new Gsm8kError(`cannot read the GSM8K file ${o.path}: ${(e as Error).message}`);
    }
    const sha = sha256Of(buf);
    return {
      items: parseGsm8k(buf.toString("utf8"), o.path),
      origin: {kind: "path", path: o.path, sha256: sha, pinned: sha === source.sha256}
    };
  }
  const dir = join(cacheDir(fx.env) ?? "/tmp/.cache/inferscope", "gsm8k");
  const cached = join(dir, source.cacheName);
  if (await fx.files.exists(cached)) {
    const buf = await fx.files.readFile(cached);
    const sha = sha256Of(buf);
    if (sha === source.sha256)
      return {
        items: parseGsm8k(buf.toString("utf8"), cached),
        origin: {kind: "cache", path: cached, sha256: sha, pinned: true}
      };
    // a corrupted cache is replaced below (or reported when downloading is off)
    if (!o.download)
      throw new Gsm8kError(`the cached GSM8K file ${cached} has sha256 ${sha}, expected ${source.sha256}`);
  }
  if (!o.download)
    throw new Gsm8kError(
      `GSM8K is not cached at ${cached} and suite_options.gsm8k.download is false: give suite_options.gsm8k.path`
    );
  let body: string;
  try {
    const r = await fx.http({url: source.url, timeoutMs: 120_000, maxBytes: 32 << 20});
    if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
    if (r.truncated) throw new Error("response larger than 32 MiB");
    body = r.body;
  } catch (e) {
    throw new Gsm8kError(
      `cannot download GSM8K from ${source.url}: ${(e as Error).message}; download it yourself and give suite_options.gsm8k.path`
    );
  }
  const sha = sha256Of(body);
  if (sha !== source.sha256)
    throw new Gsm8kError(`downloaded GSM8K has sha256 ${sha}, expected ${source.sha256} (${source.url}): not cached`);
  const items = parseGsm8k(body, source.url);
  await fx.files.mkdirp(dir);
  await fx.files.writeAtomic(cached, body);
  return {items, origin: {kind: "download", path: cached, sha256: sha, pinned: true}};
}

export const GSM8K_INSTRUCTION =
  'Solve the following math problem. Reason step by step, then give the final answer on its own last line in the form "#### <number>".';

export function gsm8kItems(data: Gsm8kData, o: {limit?: number | undefined; max_tokens: number}): CaseItem[] {
  const items = o.limit === undefined ? data.items : data.items.slice(0, o.limit);
  return items.map((it) => ({
    itemId: `gsm8k-${it.index}`,
    tier: null,
    concurrency: 1,
    turns: [
      {
        user: `${GSM8K_INSTRUCTION}\n\nQuestion: ${it.question}`,
        tier: null,
        maxTokens: o.max_tokens,
        ignoreEos: false,
        score: {scorer: "gsm8k", expected: it.answer},
        details: {line: it.index + 1, datasetSha256: data.origin.sha256}
      }
    ]
  }));
}
