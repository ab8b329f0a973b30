import {z} from "zod";

/**
 * Instruction following / structured output (case_11), scored mechanically as in IFEval: every
 * constraint is a deterministic check of the response text. Strict checks the response as it is (surrounding
 * whitespace aside); loose passes a constraint when any of IFEval's eight relaxed variants passes
 * (asterisks removed, first line removed, last line removed, both, and their combinations), which forgives
 * a markdown fence or a chatty first/last line.
 */

const JsonType = z.enum(["string", "number", "integer", "boolean", "array", "object", "null"]);
type JsonType = z.infer<typeof JsonType>;

const Path = z.string().describe('dotted path into the JSON value, e.g. "items" or "meta.tags.0"; "" is the root');

export const Constraint = z.discriminatedUnion("kind", [
  z.strictObject({kind: z.literal("json")}).describe("the whole response is valid JSON"),
  z
    .strictObject({kind: z.literal("json_keys"), keys: z.record(z.string(), JsonType)})
    .describe("the JSON has these (dotted) keys with these types"),
  z
    .strictObject({
      kind: z.literal("array_length"),
      path: Path.default(""),
      min: z.number().int().nonnegative().optional(),
      max: z.number().int().nonnegative().optional()
    })
    .describe("the JSON array at path has a length in [min, max]"),
  z
    .strictObject({kind: z.literal("forbidden_words"), words: z.array(z.string().min(1)).min(1)})
    .describe("none of these words appears (whole words, any case)"),
  z.strictObject({kind: z.literal("max_words"), max: z.number().int().positive()}).describe("at most N words"),
  z.strictObject({kind: z.literal("max_chars"), max: z.number().int().positive()}).describe("at most N characters"),
  z
    .strictObject({
      kind: z.literal("keyword"),
      keyword: z.string().min(1),
      min_count: z.number().int().positive().default(1)
    })
    .describe("the keyword appears at least min_count times (any case)"),
  z.strictObject({kind: z.literal("starts_with"), phrase: z.string().min(1)}).describe("begins with the phrase"),
  z.strictObject({kind: z.literal("ends_with"), phrase: z.string().min(1)}).describe("ends with the phrase"),
  z.strictObject({kind: z.literal("no_commas")}).describe("contains no comma"),
  z.strictObject({kind: z.literal("lowercase")}).describe("contains no uppercase letter"),
  z
    .strictObject({kind: z.literal("bullets"), count: z.number().int().nonnegative()})
    .describe('exactly N markdown bullet lines ("* " or "- ")')
]);
export type Constraint = z.infer<typeof Constraint>;
export type ConstraintKind = Constraint["kind"];
export const CONSTRAINT_KINDS: readonly ConstraintKind[] = Constraint.options.map((o) => o.shape.kind.value);

export const ConstraintList = z.array(Constraint).min(1);

export interface Check {
  pass: boolean;
  /** Why it failed (null when it passed). */
  reason: string | null;
}

const ok: Check = {pass: true, reason: null};
const no = (reason: string): Check => ({pass: false, reason});

function parseJson(text: string): {ok: true; value: unknown} | {ok: false; error: string} {
  try {
    return {ok: true, value: JSON.parse(text) as unknown};
  } catch (e) {
    return {ok: false, error: (e as Error).message};
  }
}

/** Follows a dotted path (object keys and array indices); undefined when absent. */
export function atPath(value: unknown, path: string): unknown {
  if (path === "") return value;
  let v: unknown = value;
  for (const part of path.split(".")) {
    if (Array.isArray(v) && /^\d+$/.test(part)) v = v[Number(part)];
    else if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, part))
      v = (v as Record<string, unknown>)[part];
    else return undefined;
  }
  return v;
}

export function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as JsonType;
}

const typeMatches = (v: unknown, want: JsonType): boolean => {
  const got = jsonTypeOf(v);
  return got === want || (want === "number" && got === "integer");
};

const words = (text: string): string[] => text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Checks one constraint against one text (the strict reading). */
export function checkConstraint(c: Constraint, text: string): Check {
  const t = text.trim();
  switch (c.kind) {
    case "json": {
      const p = parseJson(t);
      return p.ok ? ok : no(`not valid JSON: ${p.error}`);
    }
    case "json_keys": {
      const p = parseJson(t);
      if (!p.ok) return no(`not valid JSON: ${p.error}`);
      for (const [key, want] of Object.entries(c.keys)) {
        const v = atPath(p.value, key);
        if (v === undefined) return no(`missing key ${key}`);
        if (!typeMatches(v, want)) return no(`key ${key} is ${jsonTypeOf(v)}, expected ${want}`);
      }
      return ok;
    }
    case "array_length": {
      const p = parseJson(t);
      if (!p.ok) return no(`not valid JSON: ${p.error}`);
      const v = atPath(p.value, c.path);
      const where = c.path === "" ? "the root" : c.path;
      if (!Array.isArray(v)) return no(`${where} is ${v === undefined ? "missing" : jsonTypeOf(v)}, expected an array`);
      if (c.min !== undefined && v.length < c.min) return no(`${where} has ${v.length} items, expected ≥ ${c.min}`);
      if (c.max !== undefined && v.length > c.max) return no(`${where} has ${v.length} items, expected ≤ ${c.max}`);
      return ok;
    }
    case "forbidden_words": {
      const seen = c.words.filter((w) =>
        new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(w)}(?![\\p{L}\\p{N}])`, "iu").test(t)
      );
      return seen.length === 0 ? ok : no(`forbidden word(s): ${seen.join(", ")}`);
    }
    case "max_words": {
      const n = words(t).length;
      return n <= c.max ? ok : no(`${n} words, limit ${c.max}`);
    }
    case "max_chars": {
      const n = [...t].length;
      return n <= c.max ? ok : no(`${n} characters, limit ${c.max}`);
    }
    case "keyword": {
      const n = t.toLowerCase().split(c.keyword.toLowerCase()).length - 1;
      return n >= c.min_count ? ok : no(`keyword "${c.keyword}" appears ${n} times, expected ≥ ${c.min_count}`);
    }
    case "starts_with":
      return t.startsWith(c.phrase) ? ok : no(`does not start with "${c.phrase}"`);
    case "ends_with":
      return t.endsWith(c.phrase) ? ok : no(`does not end with "${c.phrase}"`);
    case "no_commas": {
      const n = (t.match(/[,，]/g) ?? []).length;
      return n === 0 ? ok : no(`${n} comma(s)`);
    }
    case "lowercase":
      return t === t.toLowerCase() ? ok : no("contains uppercase letters");
    case "bullets": {
      const n = t.split("\n").filter((l) => /^\s*[*-]\s+\S/.test(l)).length;
      return n === c.count ? ok : no(`${n} bullet lines, expected ${c.count}`);
    }
  }
}

/** IFEval's loose variants of a response: as is, `*` removed, first/last/both lines removed, and combinations. */
export function looseVariants(response: string): string[] {
  const cut = (r: string): string[] => {
    const lines = r.split("\n");
    return [
      r,
      lines.slice(1).join("\n").trim(),
      lines.slice(0, -1).join("\n").trim(),
      lines.slice(1, -1).join("\n").trim()
    ];
  };
  return [...cut(response), ...cut(response.replace(/\*/g, ""))];
}

/** Loose reading of one constraint: passes when any non-empty variant passes. */
export function checkLoose(c: Constraint, response: string): Check {
  const strict = checkConstraint(c, response);
  if (strict.pass) return strict;
  for (const v of looseVariants(response)) if (v.trim() !== "" && checkConstraint(c, v).pass) return ok;
  return strict;
}

export interface ConstraintResult {
  kind: ConstraintKind;
  /** Index of the constraint in the prompt's list. */
  index: number;
  strict: Check;
  loose: Check;
}

/** Every constraint of one prompt, strict and loose. */
export function checkAll(constraints: readonly Constraint[], response: string): ConstraintResult[] {
  return constraints.map((c, index) => ({
    kind: c.kind,
    index,
    strict: checkConstraint(c, response),
    loose: checkLoose(c, response)
  }));
}
