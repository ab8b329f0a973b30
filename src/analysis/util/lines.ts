/**
 * Longest record a bundle's JSONL may hold: a request with every event and its payload is kilobytes to a
 * few megabytes; hundreds of megabytes on one line is not a record (and would not fit in a string).
 */
export const MAX_LINE_CHARS = 64 * 2 ** 20;

/** An oversized line: its length so far (it was not kept). */
export interface Oversized {
  oversized: number;
}

/**
 * Splits a stream of text chunks into lines (LF, with a CR before it stripped), remembering whether
 * the text ended with a newline. A line longer than `maxChars` is not accumulated: it comes out as an
 * `Oversized` marker (its characters are counted and dropped), so memory stays bounded. Pure: the caller
 * feeds chunks and reads lines.
 */
export class LineSplitter {
  #rest = "";
  #sawAny = false;
  /** Characters of the current line dropped so far (> 0 while inside an oversized line). */
  #dropped = 0;
  readonly #max: number;
  readonly #keepCr: boolean;

  /** `keepCr`: leave a CR before the LF on the line (a bundle's reader flags it; other readers strip it). */
  constructor(maxChars: number = MAX_LINE_CHARS, o: {keepCr?: boolean} = {}) {
    this.#max = maxChars;
    this.#keepCr = o.keepCr ?? false;
  }

  /** Lines completed by this chunk. */
  push(chunk: string): (string | Oversized)[] {
    if (chunk.length === 0) return [];
    this.#sawAny = true;
    const out: (string | Oversized)[] = [];
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", from);
      if (nl === -1) break;
      this.#line(chunk.slice(from, nl), out);
      from = nl + 1;
    }
    const tail = chunk.slice(from);
    if (this.#dropped > 0) this.#dropped += tail.length;
    else if (this.#rest.length + tail.length > this.#max) {
      this.#dropped = this.#rest.length + tail.length;
      this.#rest = "";
    } else this.#rest += tail;
    return out;
  }

  #line(piece: string, out: (string | Oversized)[]): void {
    if (this.#dropped > 0 || this.#rest.length + piece.length > this.#max) {
      out.push({oversized: this.#dropped + this.#rest.length + piece.length});
      this.#dropped = 0;
      this.#rest = "";
      return;
    }
    const line = this.#rest + piece;
    this.#rest = "";
    out.push(!this.#keepCr && line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  /** The unterminated final line, if any (a torn tail candidate). */
  finish(): {last: string | Oversized | null; endedWithNewline: boolean} {
    let last: string | Oversized | null = null;
    if (this.#dropped > 0) last = {oversized: this.#dropped};
    else if (this.#rest.length > 0) last = this.#rest;
    this.#rest = "";
    this.#dropped = 0;
    return {last, endedWithNewline: this.#sawAny ? last === null : true};
  }
}
