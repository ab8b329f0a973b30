/**
 * A strict RFC 8259 reading of a JSON text for what JSON.parse does not say: where a rejected text goes wrong
 * (V8's "Unexpected token" messages carry no position) and which object names repeat (JSON.parse keeps the
 * last value without a word, so `{"outcome": "error", "outcome": "success"}` reads as a success). One pass,
 * no recursion (depth is a stack of frames); it costs 2–5× JSON.parse, so it runs on small files, on the
 * failure path and on JSONL lines not in JSON.stringify's form (ingest/jsonl.ts) only. Paths are written as util/zodIssues.ts's jsonPath writes them.
 */
import {jsonPath} from "./zodIssues.ts";

/** A name repeated inside one object: its JSON path ("$.files[2].path") and the offset of the repeat. */
export interface DuplicateKey {
  path: string;
  offset: number;
}

export interface JsonCheck {
  /** The first syntax error (offset into the text, and what was expected there), or null. */
  error: {offset: number; message: string} | null;
  /** Repeated names, in text order, at most `maxDuplicates`. */
  duplicates: DuplicateKey[];
}

/** Runs the scanner jumps over natively: plain string characters, whitespace, a well-formed number. */
// eslint-disable-next-line no-control-regex -- a string's plain run ends at a control character, by JSON's grammar
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const SPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** One open container: an object's seen names (null for an array), its path and its next member's index. */
interface Frame {
  names: Set<string> | null;
  path: string;
  index: number;
}

class Fail extends Error {
  readonly offset: number;
  constructor(offset: number, message: string) {
    super(message);
    this.offset = offset;
  }
}

const describe = (text: string, i: number) =>
  i >= text.length ? "the end of the text" : JSON.stringify(String.fromCodePoint(text.codePointAt(i)!));

const memberPath = (path: string, name: string) => jsonPath([name], path);

/** The scanner's tokens: each reads at `i` and leaves `i` after what it read, or throws Fail at the fault. */
class Scanner {
  i = 0;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  fail(expected: string): never {
    throw new Fail(this.i, `expected ${expected}, found ${describe(this.text, this.i)}`);
  }

  skipWs(): void {
    const c = this.text.charCodeAt(this.i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return;
    SPACE.lastIndex = this.i;
    SPACE.test(this.text);
    this.i = SPACE.lastIndex;
  }

  /** A string at i (its opening quote); its decoded value only when `decode`, else "". */
  string(decode: boolean): string {
    const {text} = this;
    const start = this.i++;
    let escaped = false;
    for (;;) {
      PLAIN.lastIndex = this.i;
      PLAIN.test(text);
      this.i = PLAIN.lastIndex;
      if (this.i >= text.length)
        throw new Fail(start, "expected a closing quote for the string that opens here, found the end of the text");
      const c = text.charCodeAt(this.i);
      if (c === 0x22) break;
      if (c < 0x20) this.fail("a character of a string (control characters must be escaped)");
      escaped = true;
      this.escape();
    }
    this.i++;
    if (!decode) return "";
    const raw = text.slice(start + 1, this.i - 1);
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** A backslash escape at i. */
  escape(): void {
    const e = this.text.charCodeAt(this.i + 1);
    if (e === 0x75) {
      for (let k = 2; k < 6; k++)
        if (!isHex(this.text.charCodeAt(this.i + k))) {
          this.i += k;
          this.fail("four hex digits after \\u");
        }
      this.i += 6;
      return;
    }
    if (!ESCAPES.has(e)) {
      this.i++;
      this.fail('an escape (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
    }
    this.i += 2;
  }

  number(): void {
    const {text} = this;
    NUMBER.lastIndex = this.i;
    if (NUMBER.test(text)) {
      const end = NUMBER.lastIndex;
      // a well-formed number, unless a stray digit, point or exponent follows (JSON's "01", "1.", "1e")
      const next = text.charCodeAt(end);
      if (!(isDigit(next) || next === 0x2e || next === 0x65 || next === 0x45)) {
        this.i = end;
        return;
      }
    }
    // not well formed: walk it to the character at fault
    if (text.charCodeAt(this.i) === 0x2d) this.i++;
    if (text.charCodeAt(this.i) === 0x30) this.i++;
    else if (isDigit(text.charCodeAt(this.i))) this.digits();
    else this.fail("a digit");
    if (text.charCodeAt(this.i) === 0x2e) {
      this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.fail("a digit after the decimal point");
      this.digits();
    }
    const e = text.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const s = text.charCodeAt(this.i);
      if (s === 0x2b || s === 0x2d) this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.fail("a digit of the exponent");
      this.digits();
    }
    if (isDigit(text.charCodeAt(this.i))) this.fail("no digit after a leading 0");
  }

  digits(): void {
    while (isDigit(this.text.charCodeAt(this.i))) this.i++;
  }

  literal(word: string): void {
    for (let k = 0; k < word.length; k++)
      if (this.text.charCodeAt(this.i + k) !== word.charCodeAt(k)) {
        this.i += k;
        this.fail(`"${word}"`);
      }
    this.i += word.length;
  }

  /** A scalar, or the opening of a container (pushed on `stack`); true when a non-empty container opened. */
  valueStart(stack: Frame[], path: string): boolean {
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b || c === 0x5b) {
      stack.push({names: c === 0x7b ? new Set() : null, path, index: 0});
      this.i++;
      this.skipWs();
      if (this.text.charCodeAt(this.i) !== (c === 0x7b ? 0x7d : 0x5d)) return true;
      this.i++;
      stack.pop();
    } else if (c === 0x22) this.string(false);
    else if (c === 0x2d || isDigit(c)) this.number();
    else if (c === 0x74) this.literal("true");
    else if (c === 0x66) this.literal("false");
    else if (c === 0x6e) this.literal("null");
    else this.fail("a value (object, array, string, number, true, false or null)");
    return false;
  }
}

/**
 * `offsets`, when given, receives the offset of every value by its path (jsonPath's form), so that a later
 * complaint about a value (a schema error) can name its line. A repeated name keeps its first value's offset.
 */
export function checkJson(text: string, maxDuplicates = 10, offsets?: Map<string, number>): JsonCheck {
  const duplicates: DuplicateKey[] = [];
  const s = new Scanner(text);
  const stack: Frame[] = [];
  /** The path of the value about to be read. */
  let valuePath = "$";
  try {
    s.skipWs();
    for (;;) {
      if (offsets !== undefined && !offsets.has(valuePath)) offsets.set(valuePath, s.i);
      let opened = s.valueStart(stack, valuePath);
      // after a value: a separator or a close, then the next member's name (or index)
      for (;;) {
        const frame = stack.at(-1);
        if (frame === undefined) {
          s.skipWs();
          if (s.i < text.length) s.fail("the end of the text after the value");
          return {error: null, duplicates};
        }
        if (!opened) {
          s.skipWs();
          const sep = text.charCodeAt(s.i);
          if (sep === (frame.names ? 0x7d : 0x5d)) {
            s.i++;
            stack.pop();
            continue;
          }
          if (sep !== 0x2c)
            s.fail(frame.names ? "',' or '}' after an object member" : "',' or ']' after an array element");
          s.i++;
          s.skipWs();
          frame.index++;
        }
        opened = false;
        valuePath = frame.names ? member(s, frame, duplicates, maxDuplicates) : `${frame.path}[${frame.index}]`;
        s.skipWs();
        break;
      }
    }
  } catch (e) {
    if (e instanceof Fail) return {error: {offset: e.offset, message: e.message}, duplicates};
    throw e;
  }
}

/** An object member's name and colon; returns the member's path, noting a name the object already has. */
function member(s: Scanner, frame: Frame, duplicates: DuplicateKey[], max: number): string {
  if (s.text.charCodeAt(s.i) !== 0x22) s.fail("a double-quoted member name");
  const at = s.i;
  const name = s.string(true);
  if (!frame.names!.has(name)) frame.names!.add(name);
  else if (duplicates.length < max) duplicates.push({path: memberPath(frame.path, name), offset: at});
  s.skipWs();
  if (s.text.charCodeAt(s.i) !== 0x3a) s.fail("':' after a member name");
  s.i++;
  return memberPath(frame.path, name);
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): {line: number; column: number} {
  let line = 1;
  let last = -1;
  for (let k = text.indexOf("\n"); k !== -1 && k < offset; k = text.indexOf("\n", k + 1)) {
    line++;
    last = k;
  }
  return {line, column: offset - last};
}
