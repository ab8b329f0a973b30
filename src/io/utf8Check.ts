import {isUtf8} from "node:buffer";

/** Where a byte stream stops being UTF-8: 1-based line, byte offset, and the offending byte. */
export interface Utf8Error {
  line: number;
  offset: number;
  byte: number;
}

/** The length of the sequence a lead byte starts, 0 for a byte that cannot start one (RFC 3629). */
const sequenceLength = (b: number): number =>
  b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;

/** The range the second byte of a sequence must lie in (RFC 3629 §4: no overlongs, no surrogates, ≤ U+10FFFF). */
function secondRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** Index of the first byte of `data` that starts or breaks an ill-formed sequence, or -1. */
export function firstInvalid(data: Uint8Array): number {
  for (let i = 0; i < data.length;) {
    const n = sequenceLength(data[i]!);
    if (n === 0) return i;
    if (n === 1) {
      i++;
      continue;
    }
    const [lo, hi] = secondRange(data[i]!);
    if (i + n > data.length) return i;
    if (data[i + 1]! < lo || data[i + 1]! > hi) return i;
    for (let k = 2; k < n; k++) if ((data[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return -1;
}

/** Where a trailing sequence that the next chunk may complete begins (data.length when there is none). */
function incompleteTail(data: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, data.length); k++) {
    const b = data[data.length - k]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    return sequenceLength(b) > k ? data.length - k : data.length;
  }
  return data.length;
}

const countNewlines = (data: Uint8Array, end = data.length): number => {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1 && i < end; i = data.indexOf(10, i + 1)) n++;
  return n;
};

/**
 * Checks a file's bytes for UTF-8 as they stream past (chunk boundaries may split a sequence), keeping only the
 * first fault. The fast path is Node's native isUtf8 over each chunk; the byte-by-byte search runs only on a fault.
 */
export class Utf8Check {
  error: Utf8Error | null = null;
  #carry: Uint8Array = new Uint8Array(0);
  #offset = 0;
  #lines = 0;

  update(buf: Uint8Array): void {
    if (this.error) return;
    const data = this.#carry.length ? Buffer.concat([this.#carry, buf]) : buf;
    const cut = incompleteTail(data);
    const complete = data.subarray(0, cut);
    if (!isUtf8(complete)) {
      const i = firstInvalid(complete);
      this.error = {line: this.#lines + countNewlines(complete, i) + 1, offset: this.#offset + i, byte: complete[i]!};
      return;
    }
    this.#lines += countNewlines(complete);
    this.#offset += cut;
    this.#carry = Uint8Array.from(data.subarray(cut));
  }

  /** A sequence the file ends inside of is a fault too. */
  end(): void {
    if (!this.error && this.#carry.length)
      this.error = {line: this.#lines + 1, offset: this.#offset, byte: this.#carry[0]!};
  }
}
