import JSONParser from "@streamparser/json/jsonparser.js";

import {MAX_JSON_DEPTH} from "./jsonScan.ts";
import type {Doc, Result} from "./types.ts";

/**
 * A JSON document, or concatenated JSON values (JSON Lines), parsed from text chunks as they are read —
 * for result files too large for one string (V8 strings end at ~512 M characters; a 500k-request vLLM
 * detailed result can pass that). Same rules as the whole-text parse (parse.ts): integers beyond 2^53
 * exact as bigint, Python's NaN/Infinity read as null, binary data and nesting deeper than the limit
 * refused with the offset. Pure: the edge feeds `write` and calls `end`.
 */
const LITERALS = ["-Infinity", "Infinity", "NaN"] as const;
const BIG_INTEGER = /^-?\d{16,}$/;

export class StreamingDoc {
  readonly #name: string;
  readonly #parser: JSONParser;
  readonly #values: unknown[] = [];
  #offset = 0;
  #depth = 0;
  #inString = false;
  #escape = false;
  #carry = "";
  /** Newlines seen before #offset, and the offset just after the last one (for line and column). */
  #lines = 0;
  #lineStart = 0;
  #error: {message: string; where: string} | null = null;

  constructor(name: string) {
    this.#name = name;
    this.#parser = new JSONParser({separator: "", stringBufferSize: 64 * 1024});
    const tokenizer = (this.#parser as unknown as {tokenizer: {parseNumber: (s: string) => unknown}}).tokenizer;
    tokenizer.parseNumber = (s: string) => {
      const n = Number(s);
      return BIG_INTEGER.test(s) && !Number.isSafeInteger(n) ? BigInt(s) : n;
    };
    this.#parser.onValue = ({value, stack}: {value?: unknown; stack: readonly unknown[]}) => {
      if (stack.length === 0) this.#values.push(value);
    };
  }

  /** Feeds the next chunk of text (chunks may split anything: a string, an escape, a literal). */
  write(chunk: string): void {
    if (this.#error) return;
    const text = this.#carry + chunk;
    const base = this.#offset - this.#carry.length;
    this.#carry = "";
    let out = "";
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        this.#lines++;
        this.#lineStart = base + i + 1;
      }
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (c === 92) this.#escape = true;
        else if (c === 34) this.#inString = false;
        continue;
      }
      if (c === 34) this.#inString = true;
      else if (c === 91 || c === 123) {
        if (++this.#depth > MAX_JSON_DEPTH)
          return this.#fail(
            `at most ${MAX_JSON_DEPTH} levels of nested arrays and objects; level ${MAX_JSON_DEPTH + 1} opens here`,
            base + i
          );
      } else if (c === 93 || c === 125) this.#depth--;
      else if (c === 0)
        return this.#fail("a text result file (JSON, JSON Lines or YAML), got binary data (a NUL byte)", base + i);
      else if (c === 78 || c === 73 || c === 45) {
        const rest = text.slice(i, i + 9);
        const lit = LITERALS.find((l) => rest.startsWith(l));
        if (lit) {
          out += text.slice(from, i) + "null";
          i += lit.length - 1;
          from = i + 1;
        } else if (i + 9 > text.length && LITERALS.some((l) => l.startsWith(rest) && rest.length < l.length)) {
          // a literal may continue in the next chunk: keep this tail for it
          this.#carry = text.slice(i);
          out += text.slice(from, i);
          from = text.length;
          break;
        }
      }
    }
    out += text.slice(from);
    this.#offset = base + text.length;
    try {
      if (out) this.#parser.write(out);
    } catch (e) {
      this.#fail(`valid JSON (${(e as Error).message.replace(/\s+/g, " ").slice(0, 160)})`, -1);
    }
  }

  #fail(message: string, offset: number): void {
    const where = offset < 0 ? "$" : `line ${this.#lines + 1} column ${offset - this.#lineStart + 1}`;
    this.#error = {message, where};
  }

  /** The parsed document: one value (json), several (jsonl, numbered in order), or the located error. */
  end(): Result<Doc> {
    if (this.#carry) this.write("");
    if (!this.#error && this.#inString)
      this.#fail("valid JSON (the file ends inside a string: truncated?)", this.#offset);
    if (!this.#error && this.#depth > 0)
      this.#fail("valid JSON (the file ends inside an unclosed value: truncated?)", this.#offset);
    if (!this.#error)
      try {
        if (!this.#parser.isEnded) this.#parser.end();
      } catch (e) {
        this.#fail(`valid JSON (${(e as Error).message.replace(/\s+/g, " ").slice(0, 160)})`, this.#offset);
      }
    const name = this.#name;
    if (this.#error)
      return {
        ok: false,
        errors: [
          {
            file: name,
            path: this.#error.where,
            expected: this.#error.message
          }
        ]
      };
    if (this.#values.length === 0)
      return {ok: false, errors: [{file: name, path: "$", expected: "a JSON document, got an empty file"}]};
    if (this.#values.length === 1) return {ok: true, value: {name, kind: "json", value: this.#values[0]}};
    return {ok: true, value: {name, kind: "jsonl", lines: this.#values.map((value, i) => ({line: i + 1, value}))}};
  }
}
