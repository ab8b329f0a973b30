import {isMap, isSeq, LineCounter, parseDocument, stringify, type Document, type Node} from "yaml";
import type {z} from "zod";

import {redactArgs} from "../../src/analysis/redact/args.ts";
import {RunConfigSpec, type RunConfig} from "../../src/analysis/schema/config.ts";
import {redactionMark, type Redactor} from "../redact.ts";

export interface ConfigProblem {
  file: string;
  line: number | null;
  column: number | null;
  path: string;
  message: string;
}

/** Thrown for a config that does not parse or validate; carries every problem with its position. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export function formatProblem(p: ConfigProblem): string {
  const at = p.line === null ? p.file : `${p.file}:${p.line}${p.column === null ? "" : `:${p.column}`}`;
  return `${at}: ${p.path ? `${p.path}: ` : ""}${p.message}`;
}

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
 * complaint is a type mismatch at the union itself (object vs list) are dropped.
 */
function flattenUnions(issues: readonly Issue[], prefix: readonly PropertyKey[]): Issue[] {
  const out: Issue[] = [];
  for (const i of issues) {
    const path = [...prefix, ...i.path];
    if (i.code === "invalid_union" && i.errors.length > 0) {
      const branches = i.errors.filter((b) => !b.every((x) => x.code === "invalid_type" && x.path.length === 0));
      const chosen = branches.length > 0 ? branches[0]! : i.errors[0]!;
      for (const u of flattenUnions(chosen, path)) out.push(u);
    } else out.push({...i, path} as Issue);
  }
  return out;
}

const joinPath = (path: readonly Key[]): string =>
  path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");

/** Most alias expansions a config may use (the yaml package's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 1000;

/** Parses and validates a run config from YAML text; every problem carries file:line:column and the key path. */
export function parseRunConfig(text: string, file: string): RunConfig {
  const lc = new LineCounter();
  const doc = parseDocument(text, {lineCounter: lc, uniqueKeys: true, prettyErrors: false});
  const pos = (offset: number | undefined) => {
    if (offset === undefined) return {line: null, column: null};
    const p = lc.linePos(offset);
    return {line: p.line, column: p.col};
  };
  if (doc.errors.length > 0)
    throw new ConfigError(
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
    throw new ConfigError([
      {file, line: null, column: null, path: "", message: `invalid yaml: ${(e as Error).message.toLowerCase()}`}
    ]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ConfigError([{file, line: 1, column: 1, path: "", message: "expected a mapping with target and load"}]);
  const parsed = RunConfigSpec.safeParse(value);
  if (!parsed.success) throw new ConfigError(zodProblems(parsed.error, doc, file, pos));
  // where requests go must be an http(s) URL: "not a url" or file:///… is a config error, not "unreachable"
  const problems: ConfigProblem[] = [];
  for (const key of ["base_url", "metrics_url"] as const) {
    const u = parsed.data.target[key];
    if (u === undefined) continue;
    const why = urlProblem(u);
    if (why !== null)
      problems.push({file, ...pos(nodeAt(doc, ["target", key])?.range?.[0]), path: `target.${key}`, message: why});
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

/** Why a target URL cannot be used, or null. */
function urlProblem(u: string): string | null {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return `expected an http:// or https:// URL, got ${JSON.stringify(u)}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `expected an http:// or https:// URL, got the ${url.protocol.slice(0, -1)} scheme in ${JSON.stringify(u)}`;
  if (url.hostname === "") return `expected a host in ${JSON.stringify(u)}`;
  return null;
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
          path: joinPath([...path, key]),
          message: key === "" ? "an empty (null) key" : `unknown key "${key}"`
        });
      }
      continue;
    }
    const node = nodeAt(doc, path);
    const present = doc.hasIn(path);
    const message =
      present || path.length === 0 ? issue.message.toLowerCase() : `missing: ${issue.message.toLowerCase()}`;
    out.push({file, ...pos(node?.range?.[0]), path: joinPath(path), message});
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/**
 * The config as written into a bundle (`config.resolved.yaml`): every default filled in, header values
 * replaced by redaction marks, URLs stripped of userinfo and query tokens. Re-parses with RunConfigSpec.
 */
export function resolvedConfigYaml(config: RunConfig, redact: Redactor): string {
  const safe: RunConfig = {
    ...config,
    target: {
      ...config.target,
      base_url: redact.url(config.target.base_url),
      ...(config.target.metrics_url === undefined ? {} : {metrics_url: redact.url(config.target.metrics_url)}),
      headers: Object.fromEntries(Object.entries(config.target.headers).map(([k, v]) => [k, redactionMark(v)])),
      ...(config.target.launch_args === undefined ? {} : {launch_args: redactArgs(config.target.launch_args)})
    }
  };
  const text = stringify(redact.value(safe), {lineWidth: 0});
  return `# resolved by inferscope: every default filled in, secrets redacted\n${text}`;
}
