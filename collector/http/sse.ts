import {StringDecoder} from "node:string_decoder";

import {createParser, type EventSourceMessage, type EventSourceParser, type ParseError} from "eventsource-parser";

export interface SseSink {
  /** One dispatched event: its data (lines joined by "\n"), the `event:` field if any, and the data's UTF-8 byte length. */
  onEvent(data: string, eventType: string | undefined, bytes: number): void;
  /** An event (or a line still being buffered) grew past the limit; the reader stops. */
  onTooLarge(what: string): void;
}

/**
 * Bytes → SSE events: a streaming UTF-8 decoder (a multi-byte character split across chunks is
 * held back, invalid bytes become U+FFFD) feeding eventsource-parser (WHATWG rules: LF, CRLF and
 * lone CR endings, comments, event/id/retry fields, multi-line data, BOM). An event without its
 * terminating blank line at the end of the stream is discarded, as the spec says.
 * Memory is bounded by `maxEventBytes` (the parser's buffer limit counts UTF-16 units, which never
 * exceed the byte count; the byte limit itself is checked on each dispatched event).
 */
export class SseReader {
  readonly maxEventBytes: number;
  private readonly sink: SseSink;
  private readonly decoder = new StringDecoder("utf8");
  private readonly parser: EventSourceParser;
  private stopped = false;

  constructor(maxEventBytes: number, sink: SseSink) {
    this.maxEventBytes = maxEventBytes;
    this.sink = sink;
    this.parser = createParser({
      maxBufferSize: maxEventBytes,
      onEvent: (m: EventSourceMessage) => this.dispatch(m),
      onError: (e: ParseError) => {
        if (e.type === "max-buffer-size-exceeded" && !this.stopped) {
          this.stopped = true;
          this.sink.onTooLarge(`sse line or event longer than ${this.maxEventBytes} bytes`);
        }
      }
    });
  }

  write(b: Buffer): void {
    if (this.stopped) return;
    const s = this.decoder.write(b);
    if (s !== "") this.parser.feed(s);
  }

  /** End of the body: flushes a dangling partial UTF-8 sequence (as U+FFFD). */
  end(): void {
    if (this.stopped) return;
    const s = this.decoder.end();
    if (s !== "") this.parser.feed(s);
  }

  private dispatch(m: EventSourceMessage): void {
    if (this.stopped) return;
    const bytes = Buffer.byteLength(m.data, "utf8");
    if (bytes > this.maxEventBytes) {
      this.stopped = true;
      return this.sink.onTooLarge(`sse event of ${bytes} bytes exceeds ${this.maxEventBytes}`);
    }
    this.sink.onEvent(m.data, m.event, bytes);
  }
}
