import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterEach, describe, expect, it} from "vitest";

import {sha256File, sha256Hasher, sha256Hex} from "../../src/io/hash.ts";

const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true});
});

describe("the one sha256", () => {
  it("sha256Hex hashes a string's UTF-8 bytes and bytes alike, as lowercase hex", () => {
    expect(sha256Hex("abc")).toBe(ABC);
    expect(sha256Hex(new TextEncoder().encode("abc"))).toBe(ABC);
    expect(sha256Hex("é")).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
  });

  it("sha256Hasher gives the same digest fed in pieces", () => {
    const h = sha256Hasher();
    h.update("a");
    h.update(Buffer.from("bc"));
    expect(h.digest("hex")).toBe(ABC);
  });

  it("sha256File streams a file: size, digest, and every chunk shown in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-hash-"));
    dirs.push(dir);
    const path = join(dir, "big.bin");
    const text = "line\n".repeat(200_000); // 1 MB: several chunks of createReadStream's 64 KiB
    writeFileSync(path, text);
    const chunks: Buffer[] = [];
    const d = await sha256File(path, (c) => chunks.push(c));
    expect(d).toEqual({bytes: text.length, sha256: sha256Hex(text)});
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString()).toBe(text);
    await expect(sha256File(join(dir, "missing.bin"))).rejects.toThrow(/ENOENT.*missing\.bin/);
  });
});
