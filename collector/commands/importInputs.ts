/**
 * The input side of `inferscope import`: folders expanded, names made unique, each file read as text —
 * or, above STREAM_ABOVE_BYTES, parsed while it is read — with its digest.
 */
import {closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync} from "node:fs";
import {basename, dirname, join, resolve, sep} from "node:path";
import {StringDecoder} from "node:string_decoder";

import {StreamingDoc, type PeerFile} from "../../src/analysis/index.ts";
import {appendAll} from "../../src/analysis/util/append.ts";
import {sha256Hasher, sha256Hex} from "../../src/io/hash.ts";
import {CliError, EXIT} from "../cliError.ts";

const READABLE = /\.(json|jsonl|ya?ml)$/i;
const MAX_DEPTH = 3;

export interface InputFile {
  /** Unique display name: the base name, or enough parent folders to tell it apart. */
  name: string;
  path: string;
  text: string;
  /** A large file's document, parsed while it was read (then `text` is empty). */
  parsed?: PeerFile["parsed"];
  bytes: number;
  sha256: string;
  mtimeMs: number;
}

/** Files under a folder (JSON, JSON Lines, YAML), sorted, at most MAX_DEPTH levels deep. */
function walk(dir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory() && depth < MAX_DEPTH && !e.name.startsWith(".")) appendAll(out, walk(full, depth + 1));
    else if (e.isFile() && READABLE.test(e.name)) out.push(full);
  }
  return out;
}

/**
 * An InferScope v1 raw run folder (`results/raw/<run-id>/`) has its aggregate under
 * `results/processed/<run-id>/aggregate.json`: include it when it exists.
 */
function v1Sibling(dir: string): string[] {
  const abs = resolve(dir);
  const id = basename(abs);
  if (basename(dirname(abs)) !== "raw") return [];
  const agg = join(dirname(dirname(abs)), "processed", id, "aggregate.json");
  return existsSync(agg) ? [agg] : [];
}

/** Shortest path suffixes that tell the files apart (`groq_70b.json` twice → `individual/…`, `summary/…`). */
export function uniqueNames(paths: readonly string[]): string[] {
  const parts = paths.map((p) => resolve(p).split(sep));
  return parts.map((ps, i) => {
    for (let k = 1; k <= ps.length; k++) {
      const name = ps.slice(-k).join("/");
      if (parts.every((qs, j) => j === i || qs.slice(-k).join("/") !== name)) return name;
    }
    return ps.join("/");
  });
}

/**
 * JSON files above this size are parsed while they are read (a streaming parser) instead of as one
 * string: V8's strings end at ~512 M characters, and the whole-text parse would hold text and value at once.
 */
export const STREAM_ABOVE_BYTES = 480 * 2 ** 20;
const CHUNK_BYTES = 8 * 2 ** 20;

/** Reads a large file in chunks into the streaming parser, hashing its bytes on the way. */
function streamFile(path: string, name: string): {parsed: PeerFile["parsed"]; bytes: number; sha256: string} {
  const hash = sha256Hasher();
  const doc = new StreamingDoc(name);
  const decoder = new StringDecoder("utf8");
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let bytes = 0;
  try {
    for (let n = readSync(fd, buf, 0, CHUNK_BYTES, null); n > 0; n = readSync(fd, buf, 0, CHUNK_BYTES, null)) {
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      bytes += n;
      doc.write(decoder.write(chunk));
    }
    doc.write(decoder.end());
  } finally {
    closeSync(fd);
  }
  return {parsed: doc.end(), bytes, sha256: hash.digest("hex")};
}

/** Reads the inputs (folders expanded); every unreadable path is a usage error naming it. */
export function readInputs(paths: readonly string[], streamAbove = STREAM_ABOVE_BYTES): InputFile[] {
  const files: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new CliError(`no such file or folder: ${p}`, {exitCode: EXIT.usage});
    }
    if (st.isDirectory()) {
      const found = [...walk(p), ...v1Sibling(p)];
      if (found.length === 0) throw new CliError(`no .json, .jsonl or .yaml files in ${p}`, {exitCode: EXIT.usage});
      appendAll(files, found);
    } else files.push(p);
  }
  const unique = [...new Set(files.map((f) => resolve(f)))];
  const names = uniqueNames(unique);
  return unique.map((path, i) => {
    const size = statSync(path).size;
    if (size > streamAbove && !/\.ya?ml$/i.test(path)) {
      const s = streamFile(path, names[i]!);
      return {
        name: names[i]!,
        path,
        text: "",
        parsed: s.parsed,
        bytes: s.bytes,
        sha256: s.sha256,
        mtimeMs: statSync(path).mtimeMs
      };
    }
    const buf = readFileSync(path);
    return {
      name: names[i]!,
      path,
      text: buf.toString("utf8"),
      bytes: buf.length,
      sha256: sha256Hex(buf),
      mtimeMs: statSync(path).mtimeMs
    };
  });
}
