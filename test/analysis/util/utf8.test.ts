import {describe, expect, it} from "vitest";

import {boundText, ERROR_TEXT_BYTES, utf8Bytes} from "../../../src/analysis/util/utf8.ts";

/**
 * UTF-8 sizes are checked against Node's own encoder (Buffer.byteLength), and the cut texts against sizes worked
 * out by hand: 1 byte per ASCII character, 2 for é, 3 for € and for a lone surrogate (written as U+FFFD), 4 for 😀.
 */
describe("utf8Bytes", () => {
  it("counts 1, 2, 3 and 4 byte characters and a lone surrogate as the encoder writes them", () => {
    for (const [s, n] of [
      ["", 0],
      ["a", 1],
      ["é", 2],
      ["€", 3],
      ["😀", 4],
      ["\ud800", 3],
      ["\udc00x", 4],
      ["a€😀é", 10]
    ] as const) {
      expect(utf8Bytes(s), JSON.stringify(s)).toBe(n);
      expect(Buffer.byteLength(s, "utf8"), JSON.stringify(s)).toBe(n);
    }
  });
});

describe("boundText", () => {
  it("keeps a text of exactly 4,096 bytes as it is", () => {
    expect(ERROR_TEXT_BYTES).toBe(4096);
    const s = "x".repeat(4094) + "é";
    expect(boundText(s)).toBe(s);
  });

  it("cuts 5,000 ASCII bytes to 4,048 and says that 952 of 5,000 were cut, within 4 KiB", () => {
    const out = boundText("x".repeat(5000));
    expect(out).toBe(`${"x".repeat(4048)} … (952 of 5000 bytes cut)`);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(4096);
  });

  it("never splits a four-byte character: 1,100 emoji (4,400 bytes) keep 1,012 (4,048 bytes)", () => {
    const out = boundText("😀".repeat(1100));
    expect(out).toBe(`${"😀".repeat(1012)} … (352 of 4400 bytes cut)`);
    // a three-byte character after 4,047 ASCII bytes would end at 4,050: it is left out whole
    expect(boundText("x".repeat(4047) + "€".repeat(100))).toBe(`${"x".repeat(4047)} … (300 of 4347 bytes cut)`);
  });

  it("takes a smaller bound", () => {
    expect(boundText("y".repeat(100), 64)).toBe(`${"y".repeat(16)} … (84 of 100 bytes cut)`);
  });
});
