import {mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {z} from "zod";

import {analyzeBundle, type BundleSource} from "../../../src/analysis/index.ts";
import {JsonlValidator} from "../../../src/analysis/ingest/jsonl.ts";
import {MAX_LINE_CHARS} from "../../../src/analysis/util/lines.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {bundleFiles, request, tokenEvents} from "../../support/bundle.ts";

/** Issue 11 items 9 and 12: files too large to be records, and entries that are not files. */
const CHUNK = 4 * 2 ** 20;

/** A memory source whose extra file streams `chunks` pieces of 4 MiB, generated lazily (never held whole). */
function withHugeFile(path: string, chunks: number, piece: (i: number) => string): BundleSource {
  const files = bundleFiles({requests: [request("a", 0, tokenEvents(3, 10, 5))]});
  const all = [...Object.keys(files), path].sort();
  return {
    id: "huge",
    files: all,
    open: (p) => {
      if (p === path)
        return {
          chunks: (function* () {
            for (let i = 0; i < chunks; i++) yield piece(i);
          })(),
          digest: () => ({bytes: chunks * CHUNK, sha256: "0".repeat(64)})
        };
      const text = files[p];
      return text === undefined ? null : {chunks: [text], digest: () => ({bytes: text.length, sha256: "0".repeat(64)})};
    }
  };
}

describe("bounded reading", () => {
  it("a stray 600 MiB file in a bundle folder is hashed as a stream, never read into one string", async () => {
    const block = "\0".repeat(CHUNK);
    const r = await analyzeBundle(withHugeFile("core.1234", 150, () => block));
    const f = r.files.find((x) => x.path === "core.1234")!;
    expect(f.declared).toBeNull();
    expect(f.observed).not.toBeNull(); // reported as a file not in the manifest
    expect(r.issues.some((i) => /Invalid string length/.test(i.message))).toBe(false);
  });

  it("a JSONL line over the record bound is one error naming the file and line, not a crash", async () => {
    const over = Math.ceil((MAX_LINE_CHARS + 1) / CHUNK); // one line of ~68 MiB in 4 MiB pieces, then a newline
    const x = "x".repeat(CHUNK);
    const r = await analyzeBundle(withHugeFile("schedule.jsonl", over + 1, (i) => (i < over ? x : `\n{"seq":1}\n`)));
    const e = r.issues.find((i) => i.code === "record_too_large")!;
    expect(e).toMatchObject({severity: "error", file: "schedule.jsonl", line: 1});
    expect(e.message).toMatch(/exceeds the 67,108,864-character bound/);
  });
});

describe("deeply nested records", () => {
  it("a record nested 100,000 levels deep is one error naming the file, line, depth and column, not a stack overflow", () => {
    // A record is refused where the reader's recursive walks (the duplicate-name check, zod) overflow the stack:
    // from about 5,000 levels on a main thread's stack, about 40,000 in a worker thread's (vitest's thread pool,
    // which a mutation run uses). 100,000 levels is past both, so the outcome does not depend on where it runs.
    // The record's own object is level 1, then 100,000 arrays: 100,001 levels; the deepest "[" follows
    // `{"deep":` and 99,999 other brackets, so it is character 8 + 100,000 = 100,008 (column 100,008)
    const v = new JsonlValidator("requests.jsonl", z.looseObject({seq: z.number()}));
    expect(v.line(`{"seq":0}`)).toEqual({seq: 0});
    const deep = v.line(`{"deep":${"[".repeat(100_000)}${"]".repeat(100_000)},"seq":1}`);
    expect(deep === undefined).toBe(true); // not toBeUndefined: its failure message would print the deep value
    expect(v.line(`{"seq":2}`)).toEqual({seq: 2});
    v.finish(true);
    expect(v.issues.map((i) => [i.severity, i.code, i.file, i.line])).toEqual([
      ["error", "too_deep", "requests.jsonl", 2]
    ]);
    expect(v.issues[0]!.message).toBe(
      "nested 100,001 levels deep (the deepest level opens at column 100008): too deep to read; a record nests a few levels"
    );
  });
});

describe("entries that are not regular files", () => {
  it("a symbolic link in a bundle folder is reported, not followed and not silently ignored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-symlink-"));
    try {
      for (const [name, text] of Object.entries(bundleFiles({requests: [request("a", 0, tokenEvents(3, 10, 5))]})))
        writeFileSync(join(dir, name), text);
      symlinkSync("/etc/passwd", join(dir, "notes.txt"));
      const r = await analyzeBundle(fsBundle(dir));
      expect(r.issues).toContainEqual(
        expect.objectContaining({code: "not_a_file", severity: "warning", file: "notes.txt"})
      );
      expect(r.files.map((f) => f.path)).not.toContain("notes.txt");
      expect(r.gates.find((g) => g.id === "G1")).toMatchObject({
        status: "warn",
        reason: "entries that are not regular files (not read): notes.txt"
      });
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
  it("a listed file that is a folder or a link fails G1 as not a regular file, not as missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-folder-"));
    try {
      for (const [name, text] of Object.entries(bundleFiles({requests: [request("a", 0, tokenEvents(3, 10, 5))]})))
        writeFileSync(join(dir, name), text);
      renameSync(join(dir, "requests.jsonl"), join(dir, "kept.bak"));
      mkdirSync(join(dir, "requests.jsonl"));
      // another entry that is not a file, reported first: the reason must be the listed file's own
      symlinkSync("/etc/passwd", join(dir, "a-link.txt"));
      const folder = await analyzeBundle(fsBundle(dir));
      const g1 = folder.gates.find((g) => g.id === "G1")!;
      expect(g1.status).toBe("fail");
      expect(g1.reason).toBe("digest mismatch: requests.jsonl is not a regular file (a folder)");
      rmSync(join(dir, "requests.jsonl"), {recursive: true});
      symlinkSync(join(dir, "kept.bak"), join(dir, "requests.jsonl"));
      const link = await analyzeBundle(fsBundle(dir));
      expect(link.gates.find((g) => g.id === "G1")!.reason).toBe(
        "digest mismatch: requests.jsonl is not a regular file (a symbolic link)"
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
