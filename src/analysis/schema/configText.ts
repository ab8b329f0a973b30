import {isMap, isSeq, LineCounter, parseDocument, visit, type Document, type Node} from "yaml";
import type {z} from "zod";

import {keyPath} from "../util/zodIssues.ts";
import {RunConfigSpec, type RunConfig} from "./config.ts";

/** One problem of a run config text, located by file, line and column (1-based) and key path. */
export interface ConfigProblem {
  file: string;
  line: number | null;
  column: number | null;
  path: string;
  message: string;
}

export function formatProblem(p: ConfigProblem): string {
  const at = p.line === null ? p.file : `${p.file}:${p.line}${p.column === null ? "" : `:${p.column}`}`;
  return `${at}: ${p.path ? `${p.path}: ` : ""}${p.message}`;
}

/** Line and column of a key path in the text (for checks the schema cannot make, e.g. a URL's scheme). */
export type Locate = (path: readonly (string | number)[]) => {line: number | null; column: number | null};

export interface ParsedSpecText<T> {
  /** The validated value with every default filled in, or null when there are problems. */
  config: T | null;
  /** Every problem, sorted by line; whether from the YAML or the schema, each says where it is. */
  problems: ConfigProblem[];
  /** "yaml" when the text did not parse as YAML, "schema" when it parsed but did not validate. */
  stage: "yaml" | "schema" | null;
  locate: Locate;
}
export type ParsedConfigText = ParsedSpecText<RunConfig>;

type Key = string | number;

/** The YAML node at a path, or the deepest existing ancestor (so a missing key points at its parent). */
function nodeAt(doc: Document, path: readonly Key[]): Node | null {
  let node: unknown = doc.contents;
  let found: Node | null = (node as Node) ?? null;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String((p.key as {value?: unknown})?.value ?? p.key) === String(key));
      if (!pair) return found;
      node = pair.value;
    } else if (isSeq(node) && typeof key === "number") {
      node = node.items[key];
    } else return found;
    if (node && typeof node === "object" && "range" in node) found = node as Node;
  }
  return found;
}

/** The key node of `key` inside the map at `path` (for unknown keys: point at the key itself). */
function keyNodeAt(doc: Document, path: readonly Key[], key: string): Node | null {
  const parent = path.length === 0 ? doc.contents : nodeAt(doc, path);
  if (!isMap(parent)) return null;
  // a null key (`: value`) reaches zod as "" (its JS form)
  const pair = parent.items.find((p) => String((p.key as {value?: unknown})?.value ?? p.key ?? "") === key);
  const at = (n: unknown): Node | null => (n && typeof n === "object" && "range" in n ? (n as Node) : null);
  return at(pair?.key) ?? at(pair?.value) ?? null;
}

type Issue = z.core.$ZodIssue;

/**
 * Replaces a union failure by the issues of the branch the input was meant for: branches whose only
 * complaint is a type mismatch at the union itself (object vs list) are dropped, and a branch that took
 * the input's `mode` is preferred.
 */
/** A branch whose only complaint is the value's type (object vs list), nested unions included. */
const typeMismatch = (b: readonly Issue[]): boolean =>
  b.every(
    (x) =>
      x.path.length === 0 && (x.code === "invalid_type" || (x.code === "invalid_union" && x.errors.every(typeMismatch)))
  );

function flattenUnions(issues: readonly Issue[], prefix: readonly PropertyKey[]): Issue[] {
  const out: Issue[] = [];
  for (const i of issues) {
    const path = [...prefix, ...i.path];
    if (i.code === "invalid_union" && i.errors.length > 0) {
      const branches = i.errors.filter((b) => !typeMismatch(b));
      // a branch that accepted the block's `mode` (load points vs a search) is the one the input meant
      const modeOk = branches.filter((b) => !b.some((x) => x.path.length === 1 && x.path[0] === "mode"));
      const chosen = modeOk.length > 0 ? modeOk[0]! : branches.length > 0 ? branches[0]! : i.errors[0]!;
      for (const u of flattenUnions(chosen, path)) out.push(u);
    } else out.push({...i, path} as Issue);
  }
  return out;
}

/** Most alias expansions a config may use (the yaml package's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 1000;

/** Where an alias bomb starts: the first alias of a node that holds aliases itself, else the first alias. */
function aliasBombStart(doc: Document): number | undefined {
  let first: number | undefined;
  let nested: number | undefined;
  visit(doc, {
    Alias(_, alias) {
      first ??= alias.range?.[0];
      let holds = false;
      visit(alias.resolve(doc) ?? null, {
        Alias() {
          holds = true;
          return visit.BREAK;
        }
      });
      if (!holds) return undefined;
      nested = alias.range?.[0];
      return visit.BREAK;
    }
  });
  return nested ?? first;
}

/**
 * The one run-config parser (the collector's loader and the analyzer's reader of a bundle's config
 * both call it): YAML text → RunConfig, or every problem with file:line:column and the key path. Never
 * throws, whatever the text.
 */
export function parseConfigText(text: string, file: string): ParsedConfigText {
  return parseSpecText(text, file, RunConfigSpec, "expected a mapping with target and load");
}

/**
 * Any YAML file validated by a zod schema (the run config, an experiment plan): the value, or every problem
 * with file:line:column and the key path. Never throws, whatever the text.
 */
export function parseSpecText<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  expected: string
): ParsedSpecText<z.output<S>> {
  const lc = new LineCounter();
  const doc = parseDocument(text, {lineCounter: lc, uniqueKeys: true, prettyErrors: false});
  const pos = (offset: number | undefined) => {
    if (offset === undefined) return {line: null, column: null};
    const p = lc.linePos(offset);
    return {line: p.line, column: p.col};
  };
  const locate: Locate = (path) => pos(nodeAt(doc, path)?.range?.[0]);
  const fail = (stage: "yaml" | "schema", problems: ConfigProblem[]): ParsedSpecText<z.output<S>> => ({
    config: null,
    problems,
    stage,
    locate
  });
  if (doc.errors.length > 0)
    return fail(
      "yaml",
      doc.errors.map((e) => ({
        file,
        ...pos(e.pos[0]),
        path: "",
        message: `invalid yaml: ${e.message.split("\n")[0]!.toLowerCase()}`
      }))
    );
  let value: unknown;
  try {
    // a YAML alias bomb (aliases of aliases expanding to billions of nodes) is refused, not expanded
    value = doc.toJS({maxAliasCount: MAX_ALIAS_COUNT}) as unknown;
  } catch (e) {
    const message = `invalid yaml: ${(e as Error).message.toLowerCase()}`;
    const at = /alias/.test(message) ? aliasBombStart(doc) : undefined;
    return fail("yaml", [{file, ...pos(at), path: "", message}]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return fail("schema", [{file, line: 1, column: 1, path: "", message: expected}]);
  const parsed = schema.safeParse(value);
  if (!parsed.success) return fail("schema", zodProblems(parsed.error, doc, file, pos));
  return {config: parsed.data, problems: [], stage: null, locate};
}

function zodProblems(
  error: z.ZodError,
  doc: Document,
  file: string,
  pos: (offset: number | undefined) => {line: number | null; column: number | null}
): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of flattenUnions(error.issues, [])) {
    const path = issue.path.filter((k): k is Key => typeof k === "string" || typeof k === "number");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const node = keyNodeAt(doc, path, key) ?? nodeAt(doc, path);
        out.push({
          file,
          ...pos(node?.range?.[0] ?? 0),
          path: keyPath([...path, key]),
          message: key === "" ? "an empty (null) key" : `unknown key "${key}"`
        });
      }
      continue;
    }
    const node = nodeAt(doc, path);
    const present = doc.hasIn(path);
    // only the first letter is lowered (a sentence inside a line): a pattern, a name or a value keeps its case
    const text = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
    const message = present || path.length === 0 ? text : `missing: ${text}`;
    out.push({file, ...pos(node?.range?.[0]), path: keyPath(path), message});
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
