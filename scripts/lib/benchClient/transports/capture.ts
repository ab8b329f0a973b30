import type {SseEvent} from "../../../../src/analysis/schema/records.ts";
import {sha256Hex} from "../../../../src/io/hash.ts";
import {StreamAccumulator} from "../../../../collector/http/events.ts";
import {SseReader, type SseSink} from "../../../../collector/http/sse.ts";
import {DEFAULT_MAX_EVENT_BYTES, type StreamResult} from "../../../../collector/http/streamTypes.ts";
import {nowNs} from "../common.ts";

/**
 * The collector's raw capture on any transport: bytes → SseReader (UTF-8 decode + eventsource-parser) →
 * StreamAccumulator (classify, usage, deltas) → one event tuple per event, stamped with the arrival time of the
 * chunk that completed it; the request's time points as the collector's request builder records them; and the
 * same StreamResult, so each candidate's output is serialised and checked exactly as the collector's is.
 * What differs between candidates is only how bytes get from the socket to `data`.
 */
export class Capture implements SseSink {
  readonly events: SseEvent[] = [];
  readonly tCall = nowNs();
  tConn: number | null = null;
  tDisp: number | null = null;
  tHdr: number | null = null;
  private tByte1: number | null = null;
  private tChunk = 0;
  private status: number | null = null;
  private reused = false;
  private tooLarge: string | null = null;
  private readonly acc = new StreamAccumulator(true);
  private readonly reader = new SseReader(DEFAULT_MAX_EVENT_BYTES, this);

  /** The response head arrived at `t` (ns); `reused`: on a keep-alive socket. */
  head(status: number, t: number, reused: boolean): void {
    this.status = status;
    this.tHdr = t;
    this.reused = reused;
  }

  /** Body bytes that reached JavaScript at `t` (ns). */
  data(b: Buffer, t: number): void {
    if (this.tByte1 === null) this.tByte1 = t;
    this.tChunk = t;
    this.reader.write(b);
  }

  onEvent(data: string, eventType: string | undefined, bytes: number): void {
    const kind = this.acc.push(data, eventType);
    this.events.push([this.tChunk, bytes, kind, this.acc.delta]);
  }

  onTooLarge(what: string): void {
    this.tooLarge = what;
  }

  /** The body ended (or failed with `error`); the record the collector would write. */
  end(error: string | null = null): StreamResult {
    this.reader.end();
    const fin = this.acc.finish(this.events);
    const message = error ?? this.tooLarge;
    return {
      tCallNs: this.tCall,
      tConnNs: this.tConn,
      tTlsNs: null,
      tDispNs: this.tDisp,
      tHdrNs: this.tHdr,
      tByte1Ns: this.tByte1,
      tEndNs: nowNs(),
      events: this.events,
      httpStatus: this.status,
      finishReason: this.acc.finishReason,
      usage: fin.usage,
      usageSource: fin.usageSource,
      serverTimings: fin.serverTimings,
      transportError: message === null ? null : "conn_reset",
      errorMessage: message,
      responseText: this.acc.content,
      reasoningText: this.acc.reasoning,
      responseDigest: this.acc.content === "" ? null : sha256Hex(this.acc.content),
      toolCalls: this.acc.toolCalls,
      socketReused: this.reused,
      requestWritten: this.tDisp !== null,
      body: null
    };
  }
}
