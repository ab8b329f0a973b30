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
