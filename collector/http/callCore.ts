import type {SseEvent, TransportError} from "../../src/analysis/schema/records.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {realClock} from "../effects.ts";
import {deadline, type Deadline, type Phase} from "./deadline.ts";
import {classifyError} from "./errors.ts";
import {StreamAccumulator} from "./events.ts";
import {readJsonAnswer, type JsonAnswer} from "./jsonBody.ts";
import {headBytes} from "./payload.ts";
import {SseReader, type SseSink} from "./sse.ts";
import {DEFAULT_MAX_EVENT_BYTES, type StreamRequest, type StreamResult} from "./streamTypes.ts";

const EXCERPT_BYTES = 4096;
const identity = (s: string): string => s;

/** How a response body is read: as an event stream, as one JSON answer, or kept as an excerpt only. */
type BodyMode = "sse" | "json" | "other";

/**
 * What one streamed request records, whatever carries its bytes: the time points, the events of the body,
 * the deadlines and the result. A transport (call.ts over node:http, socketCall.ts over a bare socket) feeds
 * it: `connected`, `secured`, `dispatched`, `head`, `bodyData`, `bodyEnd`, `transportError`, and releases
 * its connection in `release`. Nothing is allocated per chunk except the event tuple.
 */
export abstract class CallCore implements SseSink {
  protected readonly r: StreamRequest;
  protected readonly url: URL;
  private readonly resolve: (r: StreamResult) => void;
  protected readonly reject: (e: Error) => void;
  private readonly clock: () => bigint;
  private readonly origin: bigint;
  private readonly redact: (s: string) => string;
  private readonly maxEventBytes: number;
  private readonly acc: StreamAccumulator;
  private readonly events: SseEvent[] = [];
  protected phase: Phase = "connect";
  private timer: ReturnType<typeof setTimeout> | null = null;
  private tStart = 0;
  protected tConn: number | null = null;
  private tTls: number | null = null;
  /** The whole request reached the operating system. */
  protected written = false;
  /** Time of the terminal marker ([DONE] or a finish_reason), or null. */
  private tTerminal: number | null = null;
  private readonly payloadBytes: number;
  protected tDisp: number | null = null;
  private tHdr: number | null = null;
  private tByte1: number | null = null;
  private tEnd: number | null = null;
  /** Arrival time of the chunk being parsed. */
  private tChunk = 0;
  /** When the socket last delivered bytes, read before any HTTP parser runs on them (null: not yet). */
  protected tSock: number | null = null;
  private tLastData = 0;
  private status: number | null = null;
  private mode: BodyMode = "other";
  private sawDone = false;
  private reader: SseReader | null = null;
  private excerpt: Buffer[] = [];
  private excerptBytes = 0;
  protected reused = false;
  private retryAfter: string | null = null;
  private contentType: string | null = null;
  /** A 2xx body of a non-streamed request (`r.json`), read whole (bounded by maxEventBytes); null otherwise. */
  private jsonParts: Buffer[] | null = null;
  private jsonBytes = 0;

  private readonly onTimerBound = (): void => this.onTimer();
  private readonly onAbortBound = (): void => this.fail("client_abort", "aborted by the client");

  constructor(r: StreamRequest, url: URL, resolve: (r: StreamResult) => void, reject: (e: Error) => void) {
    this.r = r;
    this.url = url;
    this.resolve = resolve;
    this.reject = reject;
    this.clock = r.clock ?? realClock.nowNs;
    this.origin = r.origin;
    this.redact = r.redact ?? identity;
    this.maxEventBytes = r.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.acc = new StreamAccumulator(r.keepText === true);
    this.payloadBytes = r.payloadBytes ?? 0;
  }

  protected now(): number {
    return Number(this.clock() - this.origin);
  }

  /** Starts the request: the call's time, the abort signal, then the transport's `open`. */
  start(): void {
    this.tStart = this.now();
    const signal = this.r.signal;
    if (signal?.aborted) return this.fail("client_abort", "aborted by the client before dispatch");
    signal?.addEventListener("abort", this.onAbortBound, {once: true});
    let headers: Record<string, string | number>;
    try {
      headers = this.requestHeaders();
    } catch (e) {
      return this.setupFailed(e as Error);
    }
    if (this.open(headers)) this.arm();
  }

  /** The request's headers: the caller's, with the body's real content-length and a default content-type. */
  private requestHeaders(): Record<string, string | number> {
    const headers: Record<string, string | number> = {};
    let contentType = false;
    for (const [k, v] of Object.entries(this.r.headers)) {
      const lower = k.toLowerCase();
      if (lower === "content-length") continue; // always the body's real length, set below
      if (lower === "content-type") contentType = true;
      headers[k] = v;
    }
    if (!contentType) headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(this.r.body);
    return headers;
  }

  /** Opens the transport's request; false when it failed at once (then `setupFailed` was called). */
  protected abstract open(headers: Record<string, string | number>): boolean;

  /** Gives the connection back: to the pool when `clean` (the response was read to its end), else destroyed. */
  protected abstract release(clean: boolean): void;

  /** Deterministic setup errors (an invalid header name or value): a caller bug, not a server fault. */
  protected setupFailed(e: Error): void {
    this.phase = "done";
    this.r.signal?.removeEventListener("abort", this.onAbortBound);
    this.reject(new Error(`streamRequest: request setup failed: ${e.message}`));
  }

  /** The fresh socket is connected (TCP). */
  protected connected(): void {
    this.tConn = this.now();
  }

  /** The fresh socket's TLS handshake is done. */
  protected secured(): void {
    this.tTls = this.now();
  }

  /** Headers and body were handed to the connected (and, for https, secured) socket. */
  protected dispatched(): void {
    this.tDisp = this.now();
    this.phase = "headers";
    this.arm();
  }

  /**
   * Arrival time of the bytes being handled: the socket chunk's clock reading. A response chunk that the HTTP
   * parser hands over later than its socket chunk gets a later reading, never an earlier one.
   */
  private arrival(): number {
    return this.tSock ?? this.now();
  }

  /** The response head: how its body is read from here on. */
  protected head(status: number | null, contentType: string | null, retryAfter: string | null): void {
    const t = this.arrival();
    this.tHdr = t;
    this.tLastData = t;
    this.phase = "body";
    this.status = status;
    this.retryAfter = retryAfter;
    this.contentType = contentType;
    const ok = status !== null && status >= 200 && status < 300;
    if (this.r.json !== undefined && ok) {
      this.mode = "json";
      this.jsonParts = [];
    } else if (ok && contentType !== null && /text\/event-stream/i.test(contentType)) {
      this.mode = "sse";
      this.reader = new SseReader(this.maxEventBytes, this);
    } else this.mode = "other";
    this.arm();
  }

  /** A chunk of the response body (after any transfer coding is removed). */
  protected bodyData(b: Buffer): void {
    if (this.phase === "done") return;
    const t = this.arrival();
    if (this.tByte1 === null) this.tByte1 = t;
    this.tLastData = t;
    if (this.mode === "sse") {
      this.tChunk = t;
      this.reader!.write(b);
    } else if (this.mode === "json") {
      this.jsonBytes += b.length;
      if (this.jsonBytes > this.maxEventBytes)
        return this.fail("event_too_large", `JSON body over ${this.maxEventBytes} bytes`);
      this.jsonParts!.push(b);
    } else if (this.excerptBytes < EXCERPT_BYTES) {
      const part = b.subarray(0, EXCERPT_BYTES - this.excerptBytes);
      this.excerpt.push(part);
      this.excerptBytes += part.length;
    }
  }

  onEvent(data: string, eventType: string | undefined, bytes: number): void {
    if (this.phase === "done") return;
    const kind = this.acc.push(data, eventType);
    if (this.payloadBytes > 0)
      this.events.push([this.tChunk, bytes, kind, this.acc.delta, headBytes(data, bytes, this.payloadBytes)]);
    else this.events.push([this.tChunk, bytes, kind, this.acc.delta]);
    if (kind === "done") this.sawDone = true;
    if (this.tTerminal === null && (kind === "done" || this.acc.finishReason !== null)) {
      this.tTerminal = this.tChunk;
      this.arm();
    }
  }

  onTooLarge(what: string): void {
    this.fail("event_too_large", what);
  }

  /**
   * The body ended as its framing says (`clean`: the connection may serve another request); `t`: when the
   * bytes that ended it arrived, if the transport parses them later than that.
   */
  protected bodyEnd(clean: boolean, t: number = this.now()): void {
    if (this.phase === "done") return;
    this.tEnd = t;
    // An event without its terminating blank line is discarded (SSE spec).
    this.reader?.end();
    if ((this.phase as Phase) !== "done") this.finish(null, null, clean);
  }

  /**
   * The connection closed cleanly (a FIN) before the body was complete: not a transport error (the analyzer
   * sees no terminal marker: truncated_stream); a partial event is dropped unread.
   */
  protected bodyCut(): void {
    if (this.phase === "done") return;
    this.tEnd = this.now();
    this.finish(null, null, false);
  }

  /** A transport error: classified by its code and by whether the request had gone out. */
  protected transportError(e: Error): void {
    if (this.phase === "done") return;
    const cls = classifyError(e, this.phase === "body" || this.tDisp !== null);
    this.fail(cls, e.message);
  }

  protected get done(): boolean {
    return this.phase === "done";
  }

  private deadline(): Deadline {
    return deadline(this.r.timeouts, {
      phase: this.phase,
      tStart: this.tStart,
      tDisp: this.tDisp,
      tLastData: this.tLastData,
      tTerminal: this.tTerminal,
      sawDone: this.sawDone
    });
  }

  /** One timer per request; the idle deadline moves with every chunk but the timer is only re-armed when it fires. */
  protected arm(): void {
    if (this.phase === "done") return;
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = (this.deadline().at - this.now()) / 1e6;
    this.timer = setTimeout(this.onTimerBound, Math.max(1, Math.ceil(wait)));
  }

  private onTimer(): void {
    this.timer = null;
    if (this.phase === "done") return;
    const d = this.deadline();
    if (this.now() < d.at) return this.arm();
    // After [DONE] or a finish_reason the answer is complete; close_timeout records that the server kept
    // the stream open (the analyzer keeps the request a success and gates the hang).
    this.fail(d.cls, d.what);
  }

  protected fail(cls: TransportError, message: string): void {
    if (this.phase === "done") return;
    this.tEnd = this.now();
    this.finish(cls, message, false);
  }

  private finish(cls: TransportError | null, message: string | null, clean: boolean): void {
    this.phase = "done";
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.r.signal?.removeEventListener("abort", this.onAbortBound);
    this.release(clean);
    const acc = this.acc;
    const fin = acc.finish(this.events);
    let errorMessage: string | null = message;
    const answer = this.jsonAnswer();
    if (answer === null && this.mode !== "sse" && this.status !== null) {
      // Non-2xx or not an event stream: keep the status facts and a body excerpt (≤ 4 KiB) as evidence.
      const ok = this.status >= 200 && this.status < 300;
      const facts =
        (ok ? `not an event stream (content-type: ${this.contentType ?? "none"})` : `http ${this.status}`) +
        (this.retryAfter === null ? "" : ` (retry-after: ${this.retryAfter})`);
      const body = this.excerptBytes > 0 ? Buffer.concat(this.excerpt).toString("utf8") : "(empty body)";
      errorMessage = (errorMessage === null ? "" : `${errorMessage}; `) + `${facts}: ${body}`;
    }
    if (acc.inbandError !== null)
      errorMessage = (errorMessage === null ? "" : `${errorMessage}; `) + `in-band error event: ${acc.inbandError}`;
    if (errorMessage !== null) errorMessage = this.redact(errorMessage);
    this.resolve({
      tCallNs: this.tStart,
      tConnNs: this.tConn,
      tTlsNs: this.tTls,
      tDispNs: this.tDisp,
      tHdrNs: this.tHdr,
      tByte1Ns: this.tByte1,
      tEndNs: this.tEnd ?? this.now(),
      events: this.events,
      httpStatus: this.status,
      finishReason: acc.finishReason,
      usage: answer === null ? fin.usage : answer.usage,
      usageSource: answer === null ? fin.usageSource : answer.usage === null ? "none" : "server_final",
      serverTimings: fin.serverTimings,
      transportError: cls,
      errorMessage,
      responseText: this.r.keepText === true ? acc.content : "",
      reasoningText: this.r.keepText === true ? acc.reasoning : "",
      responseDigest: answer !== null ? answer.digest : acc.content === "" ? null : sha256Hex(acc.content),
      toolCalls: acc.toolCalls,
      socketReused: this.reused,
      requestWritten: this.written,
      body: answer === null ? null : answer.body
    });
  }

  /** The non-streamed answer as read (what came of it, when the body was cut short) and its digest, or null for a stream. */
  private jsonAnswer(): (JsonAnswer & {digest: string | null}) | null {
    if (this.jsonParts === null || this.r.json === undefined) return null;
    const text = Buffer.concat(this.jsonParts).toString("utf8");
    const answer = readJsonAnswer(text, this.jsonBytes, this.r.json.inputs, this.payloadBytes);
    return {...answer, digest: text === "" ? null : sha256Hex(text)};
  }
}
