import {describe, expect, it} from "vitest";

import {
  atPath,
  checkAll,
  checkConstraint,
  checkLoose,
  CONSTRAINT_KINDS,
  Constraint,
  looseVariants
} from "../../src/analysis/quality/instructions.ts";

const c = (spec: Record<string, unknown>) => Constraint.parse(spec);
const pass = (spec: Record<string, unknown>, text: string) => checkConstraint(c(spec), text).pass;

describe("constraint kinds", () => {
  it("offers at least 8 mechanically checkable kinds", () => {
    expect(CONSTRAINT_KINDS.length).toBeGreaterThanOrEqual(8);
    expect(CONSTRAINT_KINDS).toEqual(
      expect.arrayContaining([
        "json",
        "json_keys",
        "array_length",
        "forbidden_words",
        "max_words",
        "keyword",
        "starts_with",
        "ends_with",
        "no_commas"
      ])
    );
  });

  it("json: the whole response parses", () => {
    expect(pass({kind: "json"}, ' {"a": 1} ')).toBe(true);
    expect(pass({kind: "json"}, '```json\n{"a": 1}\n```')).toBe(false);
    expect(pass({kind: "json"}, "{'a': 1}")).toBe(false);
  });

  it("json_keys: dotted paths into nested objects and arrays, with types", () => {
    const doc = JSON.stringify({meta: {version: 2, tags: ["x", "y"]}, n: 1.5, ok: true, items: [{id: 7}]});
    expect(
      pass({kind: "json_keys", keys: {"meta.version": "integer", "meta.tags": "array", "items.0.id": "number"}}, doc)
    ).toBe(true);
    expect(pass({kind: "json_keys", keys: {n: "integer"}}, doc)).toBe(false);
    expect(pass({kind: "json_keys", keys: {n: "number", ok: "boolean"}}, doc)).toBe(true);
    expect(checkConstraint(c({kind: "json_keys", keys: {"meta.author": "string"}}), doc).reason).toBe(
      "missing key meta.author"
    );
    expect(checkConstraint(c({kind: "json_keys", keys: {ok: "string"}}), doc).reason).toBe(
      "key ok is boolean, expected string"
    );
  });

  it("array_length: at the root or a path, bounds inclusive", () => {
    expect(pass({kind: "array_length", min: 3, max: 3}, "[1, 2, 3]")).toBe(true);
    expect(pass({kind: "array_length", path: "a.b", min: 2}, '{"a": {"b": [1]}}')).toBe(false);
    expect(checkConstraint(c({kind: "array_length", path: "a", max: 1}), '{"a": "x"}').reason).toBe(
      "a is string, expected an array"
    );
  });

  it("forbidden_words: whole words, any case, Unicode letters", () => {
    expect(pass({kind: "forbidden_words", words: ["sun"]}, "Sunday is sunny")).toBe(true);
    expect(pass({kind: "forbidden_words", words: ["sun"]}, "The SUN rises.")).toBe(false);
    expect(pass({kind: "forbidden_words", words: ["café"]}, "un café noir")).toBe(false);
    expect(pass({kind: "forbidden_words", words: ["café"]}, "cafés")).toBe(true);
  });

  it("max_words and max_chars count words and Unicode characters", () => {
    expect(pass({kind: "max_words", max: 3}, "one two three")).toBe(true);
    expect(pass({kind: "max_words", max: 3}, "one two three four")).toBe(false);
    expect(pass({kind: "max_chars", max: 3}, "日本語")).toBe(true);
    expect(pass({kind: "max_chars", max: 2}, "🙂🙂🙂")).toBe(false);
  });

  it("keyword counts occurrences, any case", () => {
    expect(pass({kind: "keyword", keyword: "durable", min_count: 2}, "Durable and durable.")).toBe(true);
    expect(checkConstraint(c({kind: "keyword", keyword: "durable", min_count: 2}), "durable").reason).toBe(
      'keyword "durable" appears 1 times, expected ≥ 2'
    );
  });

  it("starts_with / ends_with check the trimmed response exactly", () => {
    expect(pass({kind: "starts_with", phrase: "In short:"}, "  In short: yes")).toBe(true);
    expect(pass({kind: "starts_with", phrase: "In short:"}, "in short: yes")).toBe(false);
    expect(pass({kind: "ends_with", phrase: "Stay safe."}, "Back up. Stay safe.\n")).toBe(true);
    expect(pass({kind: "ends_with", phrase: "Stay safe."}, "Stay safe!")).toBe(false);
  });

  it("no_commas counts ASCII and fullwidth commas; lowercase; bullets", () => {
    expect(pass({kind: "no_commas"}, "no commas here")).toBe(true);
    expect(pass({kind: "no_commas"}, "a，b")).toBe(false);
    expect(pass({kind: "lowercase"}, "all lower 123")).toBe(true);
    expect(pass({kind: "lowercase"}, "Ünïcode")).toBe(false);
    expect(pass({kind: "bullets", count: 2}, "- a\n* b\nplain")).toBe(true);
    expect(pass({kind: "bullets", count: 2}, "- a\n-b")).toBe(false);
  });

  it("rejects unknown kinds and bad parameters", () => {
    expect(Constraint.safeParse({kind: "rhymes"}).success).toBe(false);
    expect(Constraint.safeParse({kind: "max_words", max: 0}).success).toBe(false);
    expect(Constraint.safeParse({kind: "json", extra: 1}).success).toBe(false);
  });
});

describe("loose scoring (IFEval)", () => {
  it("has eight variants: as is, * removed, first/last/both lines removed", () => {
    const v = looseVariants('Sure!\n**{"a": 1}**\nDone.');
    expect(v).toHaveLength(8);
    expect(v).toContain('{"a": 1}');
  });

  it("forgives a markdown fence or a chatty first line, never a real violation", () => {
    const fenced = '```json\n{"benefits": ["a", "b", "c"]}\n```';
    const list = [
      c({kind: "json"}),
      c({kind: "array_length", path: "benefits", min: 3, max: 3}),
      c({kind: "no_commas"})
    ];
    const r = checkAll(list, fenced);
    expect(r.map((x) => [x.kind, x.strict.pass, x.loose.pass])).toEqual([
      ["json", false, true],
      ["array_length", false, true],
      ["no_commas", false, false]
    ]);
    expect(checkLoose(c({kind: "starts_with", phrase: "In short:"}), "Here you go:\nIn short: yes").pass).toBe(true);
  });

  it("reads paths through objects only, not prototype keys", () => {
    expect(atPath({a: [1, {b: 2}]}, "a.1.b")).toBe(2);
    expect(atPath({}, "toString")).toBeUndefined();
  });
});
