import {describe, expect, it} from "vitest";

import {nonFiniteToNull, parseDoc, parseJsonExact} from "../../../src/analysis/peers/shared/parse.ts";

describe("peer parsing helpers", () => {
  it("parseJsonExact keeps integers beyond 2^53 exact as bigint and leaves the rest alone", () => {
    expect(parseJsonExact('{"t":1759522419154568925,"x":1.5,"n":12}')).toEqual({
      t: 1759522419154568925n,
      x: 1.5,
      n: 12
    });
  });

  it("nonFiniteToNull replaces Python's NaN/Infinity outside strings only", () => {
    expect(nonFiniteToNull('{"a":NaN,"b":-Infinity,"c":"NaN \\" Infinity","d":[Infinity]}')).toBe(
      '{"a":null,"b":null,"c":"NaN \\" Infinity","d":[null]}'
    );
  });

  it("parseDoc reads JSON, JSON Lines and YAML by content, and locates errors", () => {
    expect(parseDoc({name: "a.json", text: '{"a":1}\n{"a":2}\n'})).toMatchObject({ok: true, value: {kind: "jsonl"}});
    expect(parseDoc({name: "a.json", text: '{"a":\n1}'})).toMatchObject({ok: true, value: {kind: "json"}});
    expect(parseDoc({name: "c.yaml", text: "a: [1, 2"})).toMatchObject({ok: false, errors: [{file: "c.yaml"}]});
  });
});

describe("a file with Python's NaN/Infinity that is also broken", () => {
  it("names the real fault at its place in the text as written, not the first Infinity", () => {
    // the audit: a SGLang JSONL line with "request_rate": Infinity, cut short, read as "unexpected token 'I'"
    const cut = '{"request_rate": Infinity, "ttft": [0.1, 0.2';
    expect(() => parseJsonExact(cut)).toThrow(/truncated\?/);
    try {
      parseJsonExact(cut);
    } catch (e) {
      expect((e as {offset: number}).offset).toBe(cut.length);
    }
    // a stray "x" at offset 31 of the text as written; in the converted text ("null" for NaN is one longer,
    // "null" for -Infinity five shorter) it sits at 27
    const bad = '{"a": NaN, "b": -Infinity, "c":x}';
    expect(bad.indexOf("x")).toBe(31);
    try {
      parseJsonExact(bad);
      expect.unreachable();
    } catch (e) {
      expect((e as {offset: number}).offset).toBe(31);
      expect((e as Error).message).not.toMatch(/truncated/);
    }
  });
});
