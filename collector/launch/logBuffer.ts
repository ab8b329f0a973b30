/** Bytes of a server's output kept from its start and from its end; the middle of a longer log is dropped. */
export const LOG_HEAD_BYTES = 1 << 20;
export const LOG_TAIL_BYTES = 4 << 20;

/** A server's output, bounded: the first MiB and the last 4 MiB, with the count of what was dropped between. */
export class LogBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;

  append(text: string): void {
    if (this.head.length < LOG_HEAD_BYTES) {
      const room = LOG_HEAD_BYTES - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === "") return;
    this.tail += text;
    if (this.tail.length > 2 * LOG_TAIL_BYTES) {
      const cut = this.tail.length - LOG_TAIL_BYTES;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  text(): string {
    const tail = this.tail.length > LOG_TAIL_BYTES ? this.tail.slice(this.tail.length - LOG_TAIL_BYTES) : this.tail;
    const dropped = this.dropped + (this.tail.length - tail.length);
    return dropped === 0
      ? this.head + tail
      : `${this.head}\n[inferscope: ${dropped} characters of server output dropped here]\n${tail}`;
  }
}

/** The last `lines` lines of a log (for start failures). */
export function logTail(text: string, lines = 40): string {
  const all = text.trimEnd().split("\n");
  return all.slice(Math.max(0, all.length - lines)).join("\n");
}
