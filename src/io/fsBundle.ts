import {createReadStream, readdirSync, statSync} from "node:fs";
import {join, relative, sep} from "node:path";
import {StringDecoder} from "node:string_decoder";

import type {BundleSource, FileStream} from "../analysis/ingest/source.ts";
import {sha256Hasher} from "./hash.ts";
import {Utf8Check} from "./utf8Check.ts";

/**
 * Every regular file under `dir` (sorted relative paths, forward slashes), every other entry skipped, and the
 * folders walked (a manifest that lists a folder as a file is told so, not that the file is missing).
 */
export function listEntries(dir: string): {
  files: string[];
  skipped: {path: string; reason: string}[];
  folders: string[];
} {
  const files: string[] = [];
  const skipped: {path: string; reason: string}[] = [];
  const folders: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, {withFileTypes: true})) {
      const full = join(d, entry.name);
      const rel = relative(dir, full).split(sep).join("/");
      if (entry.isDirectory()) {
        folders.push(rel);
        walk(full);
      } else if (entry.isFile()) files.push(rel);
      else skipped.push({path: rel, reason: entry.isSymbolicLink() ? "a symbolic link" : "not a regular file"});
    }
  };
  walk(dir);
  return {files: files.sort(), skipped: skipped.sort((a, b) => a.path.localeCompare(b.path)), folders: folders.sort()};
}

/** Every regular file under `dir`, as sorted relative paths with forward slashes. */
export function listFiles(dir: string): string[] {
  return listEntries(dir).files;
}

/** Streams a file as UTF-8 text chunks while hashing its bytes (one pass, bounded memory). */
export function fileStream(path: string, highWaterMark = 1 << 22): FileStream {
  const hash = sha256Hasher();
  const utf8 = new Utf8Check();
  let bytes = 0;
  let done = false;
  async function* chunks(): AsyncGenerator<string> {
    const decoder = new StringDecoder("utf8");
    for await (const buf of createReadStream(path, {highWaterMark}) as AsyncIterable<Buffer>) {
      hash.update(buf);
      utf8.update(buf);
      bytes += buf.length;
      yield decoder.write(buf);
    }
    const rest = decoder.end();
    utf8.end();
    done = true;
    if (rest) yield rest;
  }
  let digest: {bytes: number; sha256: string} | null = null;
  const whenRead = <T>(f: () => T): T => {
    if (!done) throw new Error(`${path} was asked about before it was read`);
    return f();
  };
  return {
    chunks: chunks(),
    digest: () => whenRead(() => (digest ??= {bytes, sha256: hash.digest("hex")})),
    encodingError: () => whenRead(() => utf8.error)
  };
}

/** A bundle folder on disk as a source for the pure analyzer. */
export function fsBundle(dir: string): BundleSource {
  if (!statSync(dir).isDirectory()) throw new Error(`not a bundle folder: ${dir}`);
  const {files, skipped, folders} = listEntries(dir);
  const id = dir
    .replace(/[\\/]+$/, "")
    .split(/[\\/]/)
    .pop()!;
  return {
    id,
    files,
    skipped,
    folders,
    open: (path) => (files.includes(path) ? fileStream(join(dir, path)) : null)
  };
}
