/**
 * One pass over a JSON text, before it is parsed, for what JSON.parse cannot say well: nesting too deep
 * for the code that walks the value afterwards, Python's NaN/Infinity (not JSON), integers beyond 2^53
 * (epoch nanoseconds, which a double would round) and binary data. Strings are skipped with their escapes.
 * The pass is a character loop (about 1 ns per character), so a result file of hundreds of MB costs well
 * under a second; it decides whether the slower exact parse (a reviver on every value) is needed at all.
 */
import {lineAndColumn} from "../../util/jsonCheck.ts";

/** Deeper than any result file of a benchmark tool (GuideLLM's reports nest about ten levels). */
export const MAX_JSON_DEPTH = 64;

export interface JsonScan {
  /** Offset of the bracket that opens level MAX_JSON_DEPTH + 1, or -1. */
  tooDeepAt: number;
  /** Offset of the first NUL character outside a string (binary data), or -1. */
  nulAt: number;
  /** NaN, Infinity or -Infinity appear outside strings. */
  nonFinite: boolean;
  /** An integer literal with 16 or more digits appears (it may exceed 2^53). */
  longInteger: boolean;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= DIGIT_9;
/** Characters after which a digit continues a number rather than starting its integer part. */
const continuesNumber = (c: number): boolean => isDigit(c) || c === 46 || c === 101 || c === 69 || c === 43;

export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonScan {
  let depth = 0;
  let tooDeepAt = -1;
  let nulAt = -1;
  let nonFinite = false;
  let longInteger = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote, past escapes
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
      }
      continue;
    }
    if (c === 91 || c === 123) {
      if (++depth > maxDepth && tooDeepAt < 0) tooDeepAt = i;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 0) {
      if (nulAt < 0) nulAt = i;
    } else if (c === 78 || c === 73) {
      // N(aN) or I(nfinity): outside a string only these literals start with them
      if (text.startsWith("NaN", i) || text.startsWith("Infinity", i)) nonFinite = true;
    } else if (isDigit(c) && !longInteger && (i === 0 || !continuesNumber(text.charCodeAt(i - 1)))) {
      let j = i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      const next = j < n ? text.charCodeAt(j) : 0;
      if (j - i >= 16 && next !== 46 && next !== 101 && next !== 69) longInteger = true;
      i = j - 1;
    }
  }
  return {tooDeepAt, nulAt, nonFinite, longInteger};
}

/** "line L column C" of an offset (1-based), for messages. */
export function lineColumn(text: string, offset: number): string {
  const {line, column} = lineAndColumn(text, offset);
  return `line ${line} column ${column}`;
}

/** A short, printable excerpt of untrusted text for a one-line message (control characters escaped). */
export function printable(s: string, max = 40): string {
  const cut = s.length > max ? `${s.slice(0, max)}…` : s;
  return JSON.stringify(cut);
}

/**
 * A value read from a result file as a message shows it after "got": a number as JavaScript writes it, a string
 * quoted (cut and escaped), the rest by kind. Null says it may have been Python's NaN or Infinity, which the
 * readers turn into null (parse.ts).
 */
export function shownValue(v: unknown): string {
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return `the string ${printable(v)}`;
  if (v === null) return "null (null, NaN or Infinity in the file)";
  if (v === undefined) return "nothing (absent)";
  if (Array.isArray(v)) return `an array of ${v.length}`;
  return typeof v === "object" ? "an object" : typeof v;
}
