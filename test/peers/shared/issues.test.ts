import {describe, expect, it} from "vitest";
import {z} from "zod";

import {NumLike} from "../../../src/analysis/peers/shared/numeric.ts";
import {validate} from "../../../src/analysis/peers/shared/parse.ts";

/** What `validate` says of one value, as the CLI prints it after the path. */
const said = (schema: z.ZodType, value: unknown): string[] => {
  const r = validate(schema, value, "f.json");
  return r.ok ? [] : r.errors.map((e) => `${e.path}: expected ${e.expected}`);
};

describe("a zod issue reads as a plain sentence with the value found (B8)", () => {
  it("zod's own wording is rebuilt: a bound, a type, a missing key, an array's length, an option", () => {
    // was "$.n: expected too small: expected number to be >=0"
    expect(said(z.object({n: z.number().min(0)}), {n: -5})).toEqual(["$.n: expected a number ≥ 0, got -5"]);
    expect(said(z.object({n: z.number().max(10)}), {n: 11})).toEqual(["$.n: expected a number ≤ 10, got 11"]);
    expect(said(z.object({n: z.number()}), {n: true})).toEqual(["$.n: expected a number, got true"]);
    expect(said(z.object({n: z.number().int()}), {n: 1.5})).toEqual(["$.n: expected an integer, got 1.5"]);
    // was "$.metrics: expected record, received undefined"
    expect(said(z.object({metrics: z.record(z.string(), z.number())}), {})).toEqual([
      "$.metrics: expected an object, got nothing (absent)"
    ]);
    expect(said(z.object({a: z.array(z.number()).min(2)}), {a: [1]})).toEqual([
      "$.a: expected at least 2 entries, got 1"
    ]);
    expect(said(z.object({k: z.enum(["a", "b"])}), {k: "c"})).toEqual([
      '$.k: expected one of "a", "b", got the string "c"'
    ]);
  });

  it("a union names the branch the value got furthest in: a numeric string that is not a number", () => {
    // was "$[3].ttft_s: expected invalid input"
    expect(said(z.array(NumLike), [1, 2, 3, "abc"])).toEqual(['$[3]: expected a number, got the string "abc"']);
    // no branch took the type: every type it could have been
    expect(said(z.union([z.number(), z.string()]), false)).toEqual(["$: expected a number or a string, got false"]);
  });

  it("a message the schema wrote itself is kept, with the value added when it names none", () => {
    const duration = z.object({duration: z.number({error: "expected the run duration in seconds (a number)"})});
    expect(said(duration, {duration: "1.5s"})).toEqual([
      '$.duration: expected the run duration in seconds (a number), got the string "1.5s"'
    ]);
    const named = z.object({d: z.number().min(0, {error: (i) => `expected a duration (≥ 0), got ${String(i.input)}`})});
    expect(said(named, {d: -1})).toEqual(["$.d: expected a duration (≥ 0), got -1"]);
  });

  it("null says it may have been Python's NaN or Infinity (the readers turn them into null)", () => {
    expect(said(z.object({t: z.array(z.number())}), {t: [0.1, null]})).toEqual([
      "$.t[1]: expected a number, got null (null, NaN or Infinity in the file)"
    ]);
  });
});
