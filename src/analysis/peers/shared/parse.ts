import {checkJson} from "../../util/jsonCheck.ts";
import {parseDocument as parseYamlDocument} from "yaml";
import type {z} from "zod";

import {appendAll} from "../../util/append.ts";
import {jsonLines} from "../../util/jsonLines.ts";
import {expectation, jsonPath} from "../../util/zodIssues.ts";
import {csvExportError} from "./csvExport.ts";
import {lineColumn, MAX_JSON_DEPTH, scanJson, shownValue} from "./jsonScan.ts";
import type {Doc, PeerError, PeerFile, Result} from "./types.ts";

const lower = (s: string): string => (s ? s[0]!.toLowerCase() + s.slice(1) : s);

type Issue = z.core.$ZodIssue;

/** What a zod type name stands for in a sentence. */
const TYPE_WORDS: Record<string, string> = {
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  string: "a string",
  boolean: "true or false",
  array: "an array",
  tuple: "an array",
  object: "an object",
  record: "an object",
  map: "an object",
  null: "null",
  nonoptional: "a value"
};

const primitive = (v: unknown): boolean => v === null || (typeof v !== "object" && typeof v !== "function");
const plural = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 || n === 1n ? one : many}`;

/** A bound of a too_small/too_big issue: "a number ≥ 0", "at least 1 entry". */
function bound(i: Issue & {code: "too_small" | "too_big"}, lowest: boolean): string {
  const n = lowest ? (i as {minimum: number | bigint}).minimum : (i as {maximum: number | bigint}).maximum;
  if (i.origin === "array" || i.origin === "set")
    return `${i.exact ? "exactly" : lowest ? "at least" : "at most"} ${plural(n, "entry", "entries")}`;
  if (i.origin === "string")
    return `${i.exact ? "exactly" : lowest ? "at least" : "at most"} ${plural(n, "character", "characters")}`;
  const op = lowest ? (i.inclusive === false ? ">" : "≥") : i.inclusive === false ? "<" : "≤";
  return `${i.origin === "int" ? "an integer" : "a number"} ${op} ${String(n)}`;
}

/** The branch of a failed union that got furthest: one whose value had the right type but failed a check. */
function unionExpectation(i: Issue & {code: "invalid_union"}): string {
  const branches = i.errors.filter((b) => b.length > 0);
  const matched = branches.find((b) => !(b[0]!.code === "invalid_type" && b[0]!.path.length === 0));
  if (matched && matched[0]!.path.length === 0) return issueExpectation({...matched[0]!, input: i.input} as Issue);
  const types = [...new Set(branches.flatMap((b) => (b[0]!.code === "invalid_type" ? [b[0]!.expected] : [])))];
  const words = types.map((t) => TYPE_WORDS[t] ?? t);
  return `${words.length ? words.join(" or ") : "a value of another shape"}, got ${shownValue(i.input)}`;
}

/**
 * A zod issue as the continuation of "expected …", with the value found: "a number ≥ 0, got -5",
 * "a number, got the string "abc"". A message a schema wrote itself ("expected the run duration in
 * seconds (a number)") is kept, the value added when it names none; zod's own wording ("Too small: expected
 * number to be >=0") is rebuilt from the issue, whatever the code.
 */
export function issueExpectation(i: Issue): string {
  const got = `got ${shownValue(i.input)}`;
  if (/^expected /.test(i.message))
    return primitive(i.input) && "input" in i && !/\bgot\b/.test(i.message)
      ? `${expectation(i.message)}, ${got}`
      : expectation(i.message);
  switch (i.code) {
    case "invalid_type":
      return `${TYPE_WORDS[i.expected] ?? i.expected}, ${got}`;
    case "too_small":
    case "too_big": {
      const n = Array.isArray(i.input) ? `${i.input.length}` : typeof i.input === "string" ? `${i.input.length}` : null;
      return `${bound(i, i.code === "too_small")}, got ${n ?? shownValue(i.input)}`;
    }
    case "invalid_value":
      return `${i.values.length === 1 ? "" : "one of "}${i.values.map((v) => (typeof v === "string" ? JSON.stringify(v) : String(v))).join(", ")}, ${got}`;
    case "invalid_format":
      return `${i.format === "regex" ? `a string matching ${i.pattern ?? "its pattern"}` : `a valid ${i.format}`}, ${got}`;
    case "not_multiple_of":
      return `a multiple of ${i.divisor}, ${got}`;
    case "unrecognized_keys":
      return `no key ${i.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    case "invalid_union":
      return unionExpectation(i);
    case "invalid_key":
    case "invalid_element":
      return i.issues[0] ? issueExpectation(i.issues[0]) : `a valid ${i.code === "invalid_key" ? "key" : "entry"}`;
    default:
      return primitive(i.input) ? `a valid value, ${got}` : expectation(i.message);
  }
}

/** Converts zod issues into located errors; `where` prefixes the path (e.g. "line 12 "). */
export function zodErrors(file: string, error: z.ZodError, base = "$", where = ""): PeerError[] {
  return error.issues.map((i) => ({file, path: `${where}${jsonPath(i.path, base)}`, expected: issueExpectation(i)}));
}

/** Validates a value against a schema, returning located errors that show the value found. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, file: string, base = "$", where = ""): Result<T> {
  const r = schema.safeParse(value, {reportInput: true});
  return r.success ? {ok: true, value: r.data} : {ok: false, errors: zodErrors(file, r.error, base, where)};
}

function reviveExact(this: unknown, _key: string, value: unknown, context?: {source?: string}): unknown {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source))
    return BigInt(context.source);
  return value;
}

/**
 * Python's json module writes NaN, Infinity and -Infinity (numpy statistics of empty lists) which are not
 * JSON: they are read as null (unknown), never as numbers.
 */
export function nonFiniteToNull(text: string, shifts?: {at: number; by: number}[]): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
    if (m) {
      out += "null";
      // from here on, an offset in the output lies `by` characters before the same place in the text
      shifts?.push({at: out.length, by: m[0].length - 4});
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/** A JSON text rejected before or by the parser, with the offset where it went wrong (-1: unknown). */
export class JsonTextError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * JSON.parse that keeps integers beyond 2^53 exact as bigint (Node ≥ 21 passes the source text to revivers),
 * reads Python's NaN/Infinity as null, and refuses binary data and nesting deeper than MAX_JSON_DEPTH
 * (the code that walks a value recurses) with a JsonTextError at the offending offset. The reviver runs only
 * when the text has an integer long enough to need it: it costs several times the plain parse.
 */
export function parseJsonExact(text: string): unknown {
  const scan = scanJson(text);
  if (scan.nulAt >= 0) throw new JsonTextError(BINARY, scan.nulAt);
  if (scan.tooDeepAt >= 0)
    throw new JsonTextError(
      `at most ${MAX_JSON_DEPTH} levels of nested arrays and objects; level ${MAX_JSON_DEPTH + 1} opens here`,
      scan.tooDeepAt
    );
  const reviver = scan.longInteger
    ? (reviveExact as (this: unknown, key: string, value: unknown) => unknown)
    : undefined;
  if (!scan.nonFinite) return JSON.parse(text, reviver);
  const shifts: {at: number; by: number}[] = [];
  const converted = nonFiniteToNull(text, shifts);
  try {
    return JSON.parse(converted, reviver);
  } catch (e) {
    // the text as written fails at its first NaN or Infinity, which hides the real fault (a truncated file read as
    // "unexpected token I"): name the converted text's fault, at its place in the text as written
    const message = (e as Error).message;
    const pos = /position (\d+)/.exec(message);
    const end = pos === null && /end of (json )?input|unterminated/i.test(message);
    // V8 names no position for an unexpected token: the strict reader finds it (only on this failure path)
    const found = pos !== null ? Number(pos[1]) : end ? null : (checkJson(converted, 0).error?.offset ?? null);
    const at = found === null ? (end ? text.length : -1) : originalOffset(found, shifts);
    const truncated = end || (at >= 0 && at >= text.trimEnd().length);
    throw new JsonTextError(
      `valid JSON (${jsonErrorText(message)}${truncated ? "; the file ends inside an unclosed value: truncated?" : ""})`,
      at
    );
  }
}

class RepeatedNameError extends JsonTextError {}

/** parseJsonExact refusing a name given twice in one object (JSON.parse keeps the last value without a word). */

function parseJsonOnce(text: string): unknown {
  const value = parseJsonExact(text);
  const twice = checkJson(text, 1).duplicates[0];
  if (twice !== undefined)
    throw new RepeatedNameError(
      `each name once per object: "${twice.path}" is given twice (a reader would keep one value and lose the other)`,
      twice.offset
    );
  return value;
}

/** An offset in nonFiniteToNull's output, as an offset in its input. */
function originalOffset(offset: number, shifts: readonly {at: number; by: number}[]): number {
  let by = 0;
  for (const s of shifts) if (s.at <= offset) by += s.by;
  return offset + by;
}

/** Bad lines reported one by one per file; the rest are counted. */
const MAX_LINE_ERRORS = 10;

const BINARY = "a text result file (JSON, JSON Lines or YAML), got binary data (a NUL byte)";

/** Binary data: a NUL byte, or mostly undecodable bytes (U+FFFD) at the start; -1 when neither. */
function binaryAt(text: string): number {
  const nul = text.indexOf("\0");
  if (nul >= 0) return nul;
  const head = text.slice(0, 8192);
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return head.length > 0 && bad / head.length > 0.05 ? head.indexOf("\ufffd") : -1;
}

/** Where a JSON.parse failure happened, as "line L column C" (or "end of file"). */
function jsonErrorWhere(text: string, e: Error): string {
  if (e instanceof JsonTextError && e.offset >= 0) return lineColumn(text, e.offset);
  const message = e.message;
  const pos = /position (\d+)/.exec(message);
  if (pos) {
    const at = Number(pos[1]);
    return at >= text.trimEnd().length ? `end of file (${lineColumn(text, at)})` : lineColumn(text, at);
  }
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return `line ${lc[1]} column ${lc[2]}`;
  if (/end of (json )?input|unterminated/i.test(message)) return `end of file (${lineColumn(text, text.length)})`;
  // V8 names no position for "Unexpected token": the strict reader finds it (only on this failure path)
  const at = checkJson(text, 0).error;
  return at === null ? "$" : lineColumn(text, at.offset);
}

/** The parser's message without its position and its excerpt of the input (untrusted, maybe binary). */
const jsonErrorText = (message: string): string =>
  lower(
    message
      .replace(/\s*\(line \d+ column \d+\)/, "")
      .replace(/ in JSON at position \d+/, "")
      .replace(/,? "[\s\S]*"(\.\.\.)? is not valid JSON$/, "")
      .replace(
        // eslint-disable-next-line no-control-regex -- escaping control characters means matching them
        /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
      )
  );

/**
 * Parses one input file: YAML for .yaml/.yml, else a single JSON value, else JSON Lines (one value per
 * line). A file that is neither gives an error naming the position and what was expected.
 */
export function parseDoc(file: PeerFile): Result<Doc> {
  if (file.parsed) return file.parsed;
  const {name} = file;
  // a byte-order mark (Windows editors, PowerShell's Out-File) is not part of the document
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  const binary = binaryAt(text);
  if (binary >= 0) return {ok: false, errors: [{file: name, path: lineColumn(text, binary), expected: BINARY}]};
  if (/\.ya?ml$/i.test(name)) return parseYamlDoc(name, text);
  const csv = csvExportError(name, text);
  if (csv !== null) return {ok: false, errors: [csv]};
  if (text.trim() === "")
    return {ok: false, errors: [{file: name, path: "$", expected: "a JSON document, got an empty file"}]};
  let whole: Error;
  try {
    return {ok: true, value: {name, kind: "json", value: parseJsonOnce(text)}};
  } catch (e) {
    whole = e as Error;
  }
  // valid JSON with a repeated name is one document, not JSON Lines: its own error, at its line
  if (whole instanceof RepeatedNameError)
    return {ok: false, errors: [{file: name, path: jsonErrorWhere(text, whole), expected: whole.message}]};
  const parsed = jsonLines(text, parseJsonOnce);
  const lastContent = parsed.at(-1)?.line;
  const lines: {line: number; value: unknown}[] = [];
  const errors: PeerError[] = [];
  let bad = 0;
  for (const l of parsed) {
    if (l.error === null) lines.push({line: l.line, value: l.value});
    else {
      const last = l.line === lastContent; // once per file, not a copy of the rest per bad line
      if (errors.length < MAX_LINE_ERRORS)
        errors.push({
          file: name,
          path: `line ${l.line}`,
          expected:
            l.error instanceof JsonTextError
              ? l.error.message
              : `a complete JSON value per line (${jsonErrorText(l.error.message)}${last ? "; the last line looks truncated" : ""})`
        });
      else bad++;
    }
  }
  // Not JSON Lines either (no line parses, or a single line): report the whole-document error.
  if (lines.length === 0 || lines.length + errors.length < 2)
    return {
      ok: false,
      errors: [
        {
          file: name,
          path: jsonErrorWhere(text, whole),
          expected:
            whole instanceof JsonTextError
              ? whole.message
              : `valid JSON (${jsonErrorText(whole.message)}${jsonErrorWhere(text, whole).startsWith("end of file") && !/end of (json )?input/i.test(whole.message) ? "; the file ends inside an unclosed value: truncated?" : ""})`
        }
      ]
    };
  if (bad > 0)
    errors.push({file: name, path: `${bad} more lines`, expected: "a complete JSON value per line (not shown)"});
  if (errors.length > 0) return {ok: false, errors};
  return {ok: true, value: {name, kind: "jsonl", lines}};
}

/**
 * YAML read strictly (yaml's parseDocument): every error and every warning is refused with its line and
 * column (a repeated key, a second document, a tab indent, an unknown tag such as PyYAML's !!python/…),
 * never the last value kept or the tag dropped in silence. Values come out as the JSON reader gives them:
 * integers beyond 2^53 exact as bigint, and .nan/.inf (numpy statistics of empty lists) null, not numbers.
 */
export function parseYamlDoc(name: string, text: string): Result<Doc> {
  const doc = parseYamlDocument(text, {intAsBigInt: true, prettyErrors: true, strict: true, uniqueKeys: true});
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) {
    const errors: PeerError[] = problems.slice(0, MAX_LINE_ERRORS).map((e) => {
      const at = e.linePos?.[0];
      return {
        file: name,
        path: at ? `line ${at.line} column ${at.col}` : "$",
        expected: `valid YAML (${lower(e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, ""))})`
      };
    });
    if (problems.length > MAX_LINE_ERRORS)
      errors.push({file: name, path: `${problems.length - MAX_LINE_ERRORS} more`, expected: "valid YAML (not shown)"});
    return {ok: false, errors};
  }
  try {
    return {ok: true, value: {name, kind: "yaml", value: yamlValue(doc.toJS({maxAliasCount: 100}))}};
  } catch (e) {
    // an alias before its anchor, or aliases that expand past maxAliasCount (a "billion laughs" file)
    return {ok: false, errors: [{file: name, path: "$", expected: `valid YAML (${lower((e as Error).message)})`}]};
  }
}

/** A YAML value as JSON's reader gives it: safe integers as numbers, others exact, non-finite numbers null. */
function yamlValue(v: unknown): unknown {
  if (typeof v === "bigint") return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : v;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map(yamlValue);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, yamlValue(x)]));
  return v;
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Parses every file; all errors of all files are returned together. */
export function parseDocs(files: readonly PeerFile[]): Result<Doc[]> {
  const docs: Doc[] = [];
  const errors: PeerError[] = [];
  for (const f of files) {
    const r = parseDoc(f);
    if (r.ok) docs.push(r.value);
    else appendAll(errors, r.errors);
  }
  return errors.length ? {ok: false, errors} : {ok: true, value: docs};
}

/** The JSON values of a document: the value of a JSON file, or each line of a JSON Lines file. */
export function docValues(doc: Doc): {value: unknown; where: string}[] {
  if (doc.kind === "jsonl") return doc.lines.map((l) => ({value: l.value, where: `line ${l.line} `}));
  return [{value: doc.value, where: ""}];
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** bigint or number to number (bigint only arises for integers beyond 2^53: timestamps). */
export const toNumber = (v: number | bigint): number => (typeof v === "bigint" ? Number(v) : v);

/** Converts bigint values (exact big integers) to numbers for storage as verbatim aggregates. */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}
