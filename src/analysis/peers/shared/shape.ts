import {printable} from "./jsonScan.ts";
import {isObject} from "./parse.ts";
import type {Doc} from "./types.ts";

const KEYS_SHOWN = 8;

function keysOf(v: Record<string, unknown>): string {
  const keys = Object.keys(v);
  if (keys.length === 0) return "no keys";
  const shown = keys.slice(0, KEYS_SHOWN).map((k) => printable(k, 32));
  return `keys ${shown.join(", ")}${keys.length > KEYS_SHOWN ? ` (+${keys.length - KEYS_SHOWN} more)` : ""}`;
}

function valueShape(v: unknown): string {
  if (isObject(v)) return `an object with ${keysOf(v)}`;
  if (Array.isArray(v)) {
    if (v.length === 0) return "an empty array";
    const first = v[0];
    return `an array of ${v.length} value${v.length === 1 ? "" : "s"}, the first ${isObject(first) ? `an object with ${keysOf(first)}` : Array.isArray(first) ? "an array" : `a ${first === null ? "null" : typeof first}`}`;
  }
  return v === null ? "null" : `a ${typeof v}`;
}

/** What a parsed file is, in one line (for "unknown format" errors): its kind and its top-level keys. */
export function describeShape(doc: Doc): string {
  if (doc.kind === "jsonl")
    return `JSON Lines of ${doc.lines.length} values, the first ${valueShape(doc.lines[0]?.value)}`;
  return `${doc.kind === "yaml" ? "YAML" : "JSON"}: ${valueShape(doc.value)}`;
}
