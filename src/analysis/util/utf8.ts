/**
 * UTF-8 sizes of JavaScript strings, without encoding them: a bound stated in bytes (the collector keeps at most
 * 4 KiB of error text) is checked and kept the same way by the collector, the importers and the schema.
 */

/** The most bytes of UTF-8 an error text (a record's errorMessage) may hold: 4 KiB. */
export const ERROR_TEXT_BYTES = 4096;

/** Bytes of `s` in UTF-8, as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair: one code point above U+FFFF
      i++;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` with at most `max` bytes of UTF-8 that does not split a surrogate pair. */
function prefixOfBytes(s: string, max: number): string {
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + size > max) break;
    n += size;
    i += pair ? 2 : 1;
  }
  return s.slice(0, i);
}

/**
 * `s` cut to at most `max` bytes of UTF-8 (ERROR_TEXT_BYTES by default), ending with a note of how many bytes
 * were cut; unchanged when it fits. `max` must leave room for the note (≥ 64).
 */
export function boundText(s: string, max = ERROR_TEXT_BYTES): string {
  const total = utf8Bytes(s);
  if (total <= max) return s;
  // the note is ASCII but for the ellipsis (3 bytes) and at most 8 + 2 × 16 digits long: 48 bytes hold it
  const head = prefixOfBytes(s, max - 48);
  return `${head} … (${total - utf8Bytes(head)} of ${total} bytes cut)`;
}
