import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {fileStream} from "../../src/io/fsBundle.ts";
import {firstInvalid, Utf8Check} from "../../src/io/utf8Check.ts";

/** Feeds `bytes` in chunks of `size` and returns the first fault. */
function check(bytes: number[], size: number) {
  const c = new Utf8Check();
  for (let i = 0; i < bytes.length; i += size) c.update(Uint8Array.from(bytes.slice(i, i + size)));
  c.end();
  return c.error;
}

const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/**
 * A bundle's text is UTF-8 (docs/evidence-format.md). Node's decoder turns every ill-formed byte into U+FFFD
 * without a word, so the edge checks the bytes as they stream past. Sequences by RFC 3629 §4 (the table of
 * well-formed byte sequences); expected offsets and lines counted by hand.
 */
describe("UTF-8 check of a streamed file", () => {
  // "a\n" + "é" (C3 A9) + "\n" + "€" (E2 82 AC) + "😀" (F0 9F 98 80) + "\n"
  const good = [...ascii("a\n"), 0xc3, 0xa9, 10, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 10];

  it("accepts well-formed text however the chunks split its sequences", () => {
    for (const size of [1, 2, 3, 4, 5, 7, good.length]) expect(check(good, size), `chunks of ${size}`).toBeNull();
  });

  it("names the first bad byte, its offset and its line, whatever the chunking", () => {
    // line 1 "a\n", line 2 "é\n", line 3: 0xFF at offset 5
    const bad = [...ascii("a\n"), 0xc3, 0xa9, 10, 0xff, ...ascii("x\n")];
    for (const size of [1, 2, 3, 6, bad.length]) expect(check(bad, size)).toEqual({line: 3, offset: 5, byte: 0xff});
  });

  it("refuses overlong forms, surrogates, code points past U+10FFFF and stray continuation bytes", () => {
    expect(firstInvalid(Uint8Array.from([0xc0, 0xaf]))).toBe(0); // overlong "/"
    expect(firstInvalid(Uint8Array.from([0xe0, 0x80, 0xaf]))).toBe(0); // overlong 3-byte
    expect(firstInvalid(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0); // U+D800, a surrogate
    expect(firstInvalid(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // U+110000
    expect(firstInvalid(Uint8Array.from([0x41, 0x80]))).toBe(1); // a continuation byte with no lead
    expect(firstInvalid(Uint8Array.from([0xe2, 0x82, 0x41]))).toBe(0); // a sequence broken by ASCII
    expect(firstInvalid(Uint8Array.from([0xed, 0x9f, 0xbf]))).toBe(-1); // U+D7FF, the last before surrogates
    expect(firstInvalid(Uint8Array.from([0xf4, 0x8f, 0xbf, 0xbf]))).toBe(-1); // U+10FFFF
  });

  it("a file that ends inside a sequence is a fault at the sequence's first byte", () => {
    expect(check([...ascii("ok\n"), 0xe2, 0x82], 4)).toEqual({line: 2, offset: 3, byte: 0xe2});
  });

  it("fileStream reports it once the file is read, and the text still reads (with U+FFFD)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-utf8-"));
    try {
      const path = join(dir, "requests.jsonl");
      writeFileSync(path, Buffer.from([...ascii('{"a":"'), 0xfe, ...ascii('"}\n')]));
      const s = fileStream(path, 3);
      expect(() => s.encodingError!()).toThrow(/before it was read/);
      let text = "";
      for await (const chunk of s.chunks) text += chunk;
      expect(text).toBe('{"a":"\uFFFD"}\n');
      expect(s.encodingError!()).toEqual({line: 1, offset: 6, byte: 0xfe});
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
