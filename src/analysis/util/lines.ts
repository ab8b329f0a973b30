/**
 * Splits a stream of text chunks into lines (LF, with a CR before it stripped), remembering whether
 * the text ended with a newline. Pure: the caller feeds chunks and reads lines.
 */
export class LineSplitter {
  #rest = "";
  #sawAny = false;

  /** Lines completed by this chunk. */
  push(chunk: string): string[] {
    if (chunk.length === 0) return [];
    this.#sawAny = true;
    const text = this.#rest + chunk;
    const parts = text.split("\n");
    this.#rest = parts.pop()!;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.endsWith("\r")) parts[i] = p.slice(0, -1);
    }
    return parts;
  }

  /** The unterminated final line, if any (a torn tail candidate). */
  finish(): {last: string | null; endedWithNewline: boolean} {
    const last = this.#rest.length > 0 ? this.#rest : null;
    this.#rest = "";
    return {last, endedWithNewline: this.#sawAny ? last === null : true};
  }
}
