import type {z} from "zod";

import {checkJson, type DuplicateKey} from "../util/jsonCheck.ts";
import {issue, type Issue} from "../util/issues.ts";
import {MAX_LINE_CHARS, type Oversized} from "../util/lines.ts";
import {dottedPath} from "../util/zodIssues.ts";

/** Issues listed per file; beyond that they are counted per code (a file of a million bad lines stays readable). */
export const MAX_LISTED_ISSUES = 100;

/** Formats zod issues of one record as `path: message` pairs (the path dotted by util/zodIssues.ts, null for the record itself). */
export function zodIssues(file: string, line: number, error: z.ZodError): Issue[] {
  return error.issues.map((i) =>
    issue("error", "schema", file, i.message, line, i.path.length ? dottedPath(i.path) : null)
  );
}

/**
 * Why a line is not JSON, at its column: V8's own message names no position for most syntax errors (and quotes
 * untrusted text), so the strict reader's account is used wherever it finds the fault.
 */
function jsonFailure(text: string, e: Error): string {
  const at = checkJson(text, 0).error;
  return at === null ? e.message : `${at.message} (column ${at.offset + 1})`;
}

/**
 * The first name a record's object gives twice (JSON.parse keeps the last without a word), or null. A line that
 * is exactly JSON.stringify of what it parsed to has none — stringify never writes a name twice — so the strict
 * reader (2–5× the parse) runs only on lines not written that way: every shipped record is, and a hand-edited
 * one (spaces, reordered escapes) costs the strict reading.
 */
function repeatedName(text: string, value: unknown): DuplicateKey | null {
  if (JSON.stringify(value) === text) return null;
  return checkJson(text, 1).duplicates[0] ?? null;
}

/** How deep a JSON text nests its arrays and objects (outside strings), and where its deepest level opens. */
function nesting(text: string): {depth: number; offset: number} {
  let depth = 0;
  let deepest = {depth: 0, offset: 0};
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest.depth) deepest = {depth, offset: i};
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Validates JSONL records one line at a time and keeps going after a bad line.
 * A bad line is an error, except an unparseable final line without a newline after it, which may be torn by a
 * crash: it is reported as a warning and dropped. `seq` must run 0, 1, 2… without gaps or repeats.
 */
export class JsonlValidator<T extends {seq: number}> {
  readonly issues: Issue[] = [];
  /** Issues beyond MAX_LISTED_ISSUES, per code: how many, and the first one's line. */
  readonly #unlisted = new Map<string, {n: number; severity: Issue["severity"]; line: number | null}>();
  #file: string;
  #schema: z.ZodType<T, unknown>;
  #line = 0;
  #expectedSeq: number | null = 0;
  #pending: {line: number; issues: Issue[]; text: string} | null = null;
  records = 0;

  constructor(file: string, schema: z.ZodType<T, unknown>) {
    this.#file = file;
    this.#schema = schema;
  }

  /** Parses and validates one line; returns the record, or undefined for a blank or bad line. */
  line(text: string | Oversized): T | undefined {
    this.#line++;
    this.#flushPending();
    if (typeof text !== "string") {
      // never parsed: a bundle record is never hundreds of megabytes (an attachment or a core dump is)
      this.#add(
        issue(
          "error",
          "record_too_large",
          this.#file,
          `a line of ${text.oversized.toLocaleString("en")} characters exceeds the ${MAX_LINE_CHARS.toLocaleString("en")}-character bound of one record; not read`,
          this.#line
        )
      );
      this.#expectedSeq = null;
      return undefined;
    }
    if (text.trim() === "") {
      this.#add(issue("error", "blank_line", this.#file, "blank line inside a JSONL file", this.#line));
      return undefined;
    }
    // a bundle's lines end in "\n" alone (docs/evidence-format.md): a CR before it means the file was rewritten
    if (text.charCodeAt(text.length - 1) === 13)
      this.#add(
        issue("error", "crlf", this.#file, "line ends in CR LF: a bundle's JSONL lines end in LF alone", this.#line)
      );
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.#pending = {
        line: this.#line,
        text,
        issues: [issue("error", "json", this.#file, `invalid JSON: ${jsonFailure(text, e as Error)}`, this.#line)]
      };
      this.#expectedSeq = null; // its seq is unknown: accept whatever follows
      return undefined;
    }
    let repeated: DuplicateKey | null;
    let parsed: z.ZodSafeParseResult<T> | null = null;
    try {
      repeated = repeatedName(text, value);
      if (repeated === null) parsed = this.#schema.safeParse(value);
    } catch (e) {
      // a value nested thousands of levels deep overflows the stack of every recursive walk (stringify, zod)
      if (!(e instanceof RangeError)) throw e;
      const deepest = nesting(text);
      this.#add(
        issue(
          "error",
          "too_deep",
          this.#file,
          `nested ${deepest.depth.toLocaleString("en")} levels deep (the deepest level opens at column ${deepest.offset + 1}): too deep to read; a record nests a few levels`,
          this.#line
        )
      );
      this.#expectedSeq = null;
      return undefined;
    }
    if (repeated !== null) {
      this.#add(
        issue(
          "error",
          "duplicate_key",
          this.#file,
          `"${repeated.path}" is given twice (column ${repeated.offset + 1}); the reader would keep the last`,
          this.#line
        )
      );
      // which seq is meant is unknown where seq itself repeats: accept whatever follows, as after a bad line
      if (repeated.path === "$.seq") this.#expectedSeq = null;
      else this.#checkSeqOf(value);
      return undefined;
    }
    if (parsed === null) return undefined;
    if (!parsed.success) {
      // Valid JSON that breaks the schema is an error wherever it is (only unparseable text can be a torn tail);
      // its seq still counts so one bad record does not cascade into sequence errors.
      for (const i of zodIssues(this.#file, this.#line, parsed.error)) this.#add(i);
      this.#checkSeqOf(value);
      return undefined;
    }
    this.#checkSeq(parsed.data.seq);
    this.records++;
    return parsed.data;
  }

  /** Call after the last line; `endedWithNewline` tells whether the file's final byte was a newline. */
  finish(endedWithNewline: boolean): void {
    const p = this.#pending;
    this.#pending = null;
    // a write cut short by a crash leaves part of a record and no newline after it: a bad final line that ends in
    // a newline was written whole, so it is an error like any other bad line
    if (p && p.line === this.#line && !endedWithNewline) {
      this.#add(
        issue(
          "warning",
          "torn_tail",
          this.#file,
          `final line is torn (${p.text.length} bytes, without newline) and was dropped: ${p.issues[0]?.message ?? ""}`,
          p.line
        )
      );
    } else if (p) {
      for (const i of p.issues) this.#add(i);
    } else if (!endedWithNewline && this.#line > 0) {
      this.#add(
        issue(
          "info",
          "no_final_newline",
          this.#file,
          "file does not end with a newline (kept: the line is valid)",
          this.#line
        )
      );
    }
    this.#summarizeUnlisted();
  }

  get lines(): number {
    return this.#line;
  }

  #add(i: Issue): void {
    if (this.issues.length < MAX_LISTED_ISSUES) {
      this.issues.push(i);
      return;
    }
    const u = this.#unlisted.get(i.code);
    if (u) u.n++;
    else this.#unlisted.set(i.code, {n: 1, severity: i.severity, line: i.line});
  }

  /** One issue per code that went unlisted, saying how many (call once, after finish). */
  #summarizeUnlisted(): void {
    for (const [code, u] of this.#unlisted)
      this.issues.push(
        issue(
          u.severity,
          code,
          this.#file,
          `${u.n.toLocaleString("en")} more "${code}" issue(s) from this line on, not listed (the first ${MAX_LISTED_ISSUES} issues of the file are)`,
          u.line
        )
      );
    this.#unlisted.clear();
  }

  #flushPending(): void {
    if (this.#pending) {
      for (const i of this.#pending.issues) this.#add(i);
      this.#pending = null;
    }
  }

  /** Checks the seq of a record read but not accepted, where it has an integer one. */
  #checkSeqOf(value: unknown): void {
    const seq = (value as {seq?: unknown} | null)?.seq;
    if (typeof seq === "number" && Number.isInteger(seq)) this.#checkSeq(seq);
  }

  #checkSeq(seq: number): void {
    if (this.#expectedSeq !== null && seq !== this.#expectedSeq) {
      const what =
        seq > this.#expectedSeq
          ? `gap: expected seq ${this.#expectedSeq}, got ${seq}`
          : `seq ${seq} repeats or goes back (expected ${this.#expectedSeq})`;
      this.#add(issue("error", "seq", this.#file, what, this.#line, "seq"));
    }
    this.#expectedSeq = seq + 1;
  }
}
