import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterEach, describe, expect, it} from "vitest";

import {mkdirpSync, writeFileAtomic} from "../../collector/effects.ts";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "inferscope-atomic-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true});
});
const bytes = (s: string) => new TextEncoder().encode(s);

describe("writeFileAtomic", () => {
  it("writes every chunk in order, shows each to onChunk and returns the byte count", () => {
    const path = join(tempDir(), "out.bin");
    const seen: string[] = [];
    const n = writeFileAtomic(path, [bytes("ab"), bytes(""), bytes("cde")], (c) =>
      seen.push(new TextDecoder().decode(c))
    );
    expect(n).toBe(5);
    expect(readFileSync(path, "utf8")).toBe("abcde");
    expect(seen).toEqual(["ab", "", "cde"]);
  });

  it("a text is written as its UTF-8 bytes", () => {
    const path = join(tempDir(), "report.html");
    expect(writeFileAtomic(path, "héllo")).toBe(6);
    expect(readFileSync(path, "utf8")).toBe("héllo");
  });

  it("a failure while writing leaves the old file as it was and no temp file", () => {
    const dir = tempDir();
    const path = join(dir, "model.gguf");
    writeFileSync(path, "old");
    function* failing() {
      yield bytes("new, half");
      throw new Error("disk full");
    }
    expect(() => writeFileAtomic(path, failing())).toThrow("disk full");
    expect(readFileSync(path, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["model.gguf"]);
  });

  it("a failed rename (a folder is in the way) leaves no temp file either", () => {
    const dir = tempDir();
    const folder = join(dir, "taken");
    mkdirSync(folder);
    writeFileSync(join(folder, "inside"), "");
    expect(() => writeFileAtomic(folder, [bytes("x")])).toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});

describe("mkdirpSync", () => {
  it("makes every missing folder of a path; an existing folder is fine", () => {
    const dir = tempDir();
    mkdirpSync(join(dir, "a", "b", "c"));
    expect(readdirSync(join(dir, "a", "b"))).toEqual(["c"]);
    mkdirpSync(join(dir, "a", "b", "c"));
    mkdirpSync(dir);
    expect(readdirSync(join(dir, "a"))).toEqual(["b"]);
  });

  it("a file on the path is ENOTDIR naming it, and nothing is made", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "x");
    expect(() => mkdirpSync(join(dir, "f", "g", "h"))).toThrow(`ENOTDIR: not a directory, mkdir '${join(dir, "f")}'`);
    expect(readdirSync(dir)).toEqual(["f"]);
  });

  it.runIf(process.platform === "linux")(
    "under /proc it fails with ENOENT (node's recursive mkdir loops forever there)",
    () => {
      expect(() => mkdirpSync("/proc/inferscope-no-such-folder/x")).toThrow(/ENOENT/);
    }
  );
});
