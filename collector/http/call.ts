import {request as httpRequest, type ClientRequest, type IncomingMessage} from "node:http";
import {request as httpsRequest} from "node:https";
import type {Socket} from "node:net";

import type {SseEvent, TransportError} from "../../src/analysis/schema/records.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {realClock} from "../effects.ts";
import {defaultAgent} from "./agent.ts";
import {deadline, type Deadline, type Phase} from "./deadline.ts";
import {classifyError} from "./errors.ts";
import {StreamAccumulator} from "./events.ts";
import {readJsonAnswer, type JsonAnswer} from "./jsonBody.ts";
import {headBytes} from "./payload.ts";
import {SseReader, type SseSink} from "./sse.ts";
import {DEFAULT_MAX_EVENT_BYTES, type StreamRequest, type StreamResult} from "./streamTypes.ts";

const EXCERPT_BYTES = 4096;
const identity = (s: string): string => s;

/** State of one request. Handlers are bound once per request; nothing is allocated per chunk except the event tuple. */
export class Call implements SseSink {
  private readonly r: StreamRequest;
  private readonly url: URL;
  private readonly resolve: (r: StreamResult) => void;
  private readonly reject: (e: Error) => void;
  private readonly clock: () => bigint;
  private readonly origin: bigint;
  private readonly redact: (s: string) => string;
  private readonly maxEventBytes: number;
  private readonly acc: StreamAccumulator;
  private readonly events: SseEvent[] = [];
  private phase: Phase = "connect";
  private req: ClientRequest | null = null;
  private socket: Socket | null = null;
  private socketError: Error | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private tStart = 0;
  private tConn: number | null = null;
  private tTls: number | null = null;
  private written = false;
  /** Time of the terminal marker ([DONE] or a finish_reason), or null. */
  private tTerminal: number | null = null;
  private readonly payloadBytes: number;
  private tDisp: number | null = null;
  private tHdr: number | null = null;
  private tByte1: number | null = null;
  private tEnd: number | null = null;
  /** Arrival time of the chunk being parsed. */
  private tChunk = 0;
  /** When the socket last delivered bytes, read before node's HTTP parser runs on them (null: not yet). */
  private tSock: number | null = null;
  private tLastData = 0;
  private status: number | null = null;
  private sse = false;
  private sawDone = false;
  private reader: SseReader | null = null;
  private excerpt: Buffer[] = [];
  private excerptBytes = 0;
  private reused = false;
  private retryAfter: string | null = null;
  private contentType: string | null = null;
  /** A 2xx body of a non-streamed request (`r.json`), read whole (bounded by maxEventBytes); null otherwise. */
  private jsonParts: Buffer[] | null = null;
  private jsonBytes = 0;

  private readonly onSocketBound = (s: Socket): void => this.onSocket(s);
  private readonly onConnectBound = (): void => this.onConnect();
  private readonly onSecureBound = (): void => this.onSecure();
  private readonly onFinishBound = (): void => void (this.written = true);
  private readonly onSocketErrorBound = (e: Error): void => void (this.socketError = e);
  private readonly onSocketDataBound = (): void => void (this.tSock = this.now());
  private readonly onResponseBound = (res: IncomingMessage): void => this.onResponse(res);
  private readonly onReqErrorBound = (e: Error): void => this.onError(e);
  private readonly onSseDataBound = (b: Buffer): void => this.onSseData(b);
  private readonly onOtherDataBound = (b: Buffer): void => this.onOtherData(b);
  private readonly onJsonDataBound = (b: Buffer): void => this.onJsonData(b);
  private readonly onEndBound = (): void => this.onEnd();
  private readonly onResErrorBound = (e: Error): void => this.onResError(e);
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

  private now(): number {
    return Number(this.clock() - this.origin);
  }

  start(): void {
    this.tStart = this.now();
    const signal = this.r.signal;
    if (signal?.aborted) return this.fail("client_abort", "aborted by the client before dispatch");
    signal?.addEventListener("abort", this.onAbortBound, {once: true});
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
    const u = this.url;
    const request = u.protocol === "https:" ? httpsRequest : httpRequest;
    let req: ClientRequest;
    try {
      req = request({
        protocol: u.protocol,
        hostname: u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname,
        port: u.port === "" ? undefined : Number(u.port),
        path: u.pathname + u.search,
        method: "POST",
        headers,
        agent: this.r.agent ?? defaultAgent(u),
        ...(u.username === "" ? {} : {auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`})
      });
    } catch (e) {
      // Deterministic setup errors (an invalid header name or value): a caller bug, not a server fault.
      this.phase = "done";
      signal?.removeEventListener("abort", this.onAbortBound);
      return this.reject(new Error(`streamRequest: request setup failed: ${(e as Error).message}`));
    }
    this.req = req;
    req.on("finish", this.onFinishBound);
    req.on("socket", this.onSocketBound);
    req.on("response", this.onResponseBound);
    req.on("error", this.onReqErrorBound);
    this.arm();
  }

  private onSocket(s: Socket): void {
    if (this.phase === "done") return;
    this.socket = s;
    s.on("error", this.onSocketErrorBound);
    // Ahead of node's own listener: the clock is read when the bytes reach JavaScript, not after the HTTP
    // parser and the response stream have handled them.
    s.prependListener("data", this.onSocketDataBound);
    this.reused = this.req?.reusedSocket === true;
    // A fresh TLS socket is usable once its handshake is done; a reused one (or plain TCP) once connected.
    const tls = (s as Socket & {encrypted?: boolean}).encrypted === true;
    if (s.connecting) {
      s.once("connect", this.onConnectBound);
      if (tls) s.once("secureConnect", this.onSecureBound);
    } else if (!this.reused) {
      this.tConn = this.now(); // connected before the request saw its socket
      if (tls && (s as Socket & {authorized?: boolean}).authorized === undefined)
        s.once("secureConnect", this.onSecureBound);
      else this.dispatch();
    } else this.dispatch();
  }

  private onConnect(): void {
    if (this.phase === "done") return;
    this.tConn = this.now();
    if ((this.socket as (Socket & {encrypted?: boolean}) | null)?.encrypted !== true) this.dispatch();
  }

  private onSecure(): void {
    if (this.phase === "done") return;
    this.tTls = this.now();
    this.dispatch();
  }

  /** Hands headers and body to the connected socket in one write. */
  private dispatch(): void {
    if (this.phase !== "connect" || this.req === null) return;
    this.req.end(this.r.body);
    this.tDisp = this.now();
    this.phase = "headers";
    this.arm();
  }

  /**
   * Arrival time of the bytes being handled: the socket chunk's clock reading. A response chunk that node
   * hands over later than its socket chunk gets a later reading, never an earlier one.
   */
  private arrival(): number {
    return this.tSock ?? this.now();
  }

  private onResponse(res: IncomingMessage): void {
    if (this.phase === "done") return;
    const t = this.arrival();
    this.tHdr = t;
    this.tLastData = t;
    this.phase = "body";
    const status = res.statusCode ?? null;
    this.status = status;
    const ct = res.headers["content-type"];
    const ra = res.headers["retry-after"];
    if (typeof ra === "string") this.retryAfter = ra;
    this.contentType = typeof ct === "string" ? ct : null;
    this.sse =
      status !== null && status >= 200 && status < 300 && typeof ct === "string" && /text\/event-stream/i.test(ct);
    if (this.r.json !== undefined && status !== null && status >= 200 && status < 300) {
      this.sse = false;
      this.jsonParts = [];
      res.on("data", this.onJsonDataBound);
    } else if (this.sse) {
      this.reader = new SseReader(this.maxEventBytes, this);
      res.on("data", this.onSseDataBound);
    } else res.on("data", this.onOtherDataBound);
    res.on("end", this.onEndBound);
    res.on("error", this.onResErrorBound);
    this.arm();
  }

  private onSseData(b: Buffer): void {
    if (this.phase === "done") return;
    const t = this.arrival();
    if (this.tByte1 === null) this.tByte1 = t;
    this.tChunk = t;
    this.tLastData = t;
    this.reader!.write(b);
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

  private onOtherData(b: Buffer): void {
    if (this.phase === "done") return;
    const t = this.arrival();
    if (this.tByte1 === null) this.tByte1 = t;
    this.tLastData = t;
    if (this.excerptBytes < EXCERPT_BYTES) {
      const part = b.subarray(0, EXCERPT_BYTES - this.excerptBytes);
      this.excerpt.push(part);
      this.excerptBytes += part.length;
    }
  }

  private onJsonData(b: Buffer): void {
    if (this.phase === "done") return;
    const t = this.arrival();
    if (this.tByte1 === null) this.tByte1 = t;
    this.tLastData = t;
    this.jsonBytes += b.length;
    if (this.jsonBytes > this.maxEventBytes)
      return this.fail("event_too_large", `JSON body over ${this.maxEventBytes} bytes`);
    this.jsonParts!.push(b);
  }

  private onEnd(): void {
    if (this.phase === "done") return;
    this.tEnd = this.now();
    // An event without its terminating blank line is discarded (SSE spec).
    this.reader?.end();
    if ((this.phase as Phase) !== "done") this.finish(null, null, true);
  }

  /**
   * The response stream failed after the headers. Node reports a premature close as ECONNRESET "aborted":
   * with a socket error first it was an RST (conn_reset); without one, a clean FIN before the body was
   * complete, which is not a transport error (the analyzer sees no terminal marker: truncated_stream).
   */
  private onResError(e: Error): void {
    if (this.phase === "done") return;
    if (this.socketError !== null) return this.fail("conn_reset", this.socketError.message);
    if (e.message !== "aborted") return this.onError(e);
    this.tEnd = this.now();
    this.finish(null, null, false);
  }

  private onError(e: Error): void {
    if (this.phase === "done") return;
    const cls = classifyError(e, this.phase === "body" || this.tDisp !== null);
    this.fail(cls, e.message);
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
  private arm(): void {
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

  private fail(cls: TransportError, message: string): void {
    if (this.phase === "done") return;
    this.tEnd = this.now();
    this.finish(cls, message, false);
  }

  private finish(cls: TransportError | null, message: string | null, clean: boolean): void {
    this.phase = "done";
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.r.signal?.removeEventListener("abort", this.onAbortBound);
    if (this.socket !== null) {
      this.socket.off("error", this.onSocketErrorBound);
      this.socket.off("data", this.onSocketDataBound);
      this.socket.off("connect", this.onConnectBound);
      this.socket.off("secureConnect", this.onSecureBound);
    }
    const req = this.req;
    if (req !== null && !clean) {
      // Never hand a half-read socket back to the pool. Keep a listener so a late error is not unhandled.
      req.on("error", noop);
      req.destroy();
    }
    const acc = this.acc;
    const fin = acc.finish(this.events);
    let errorMessage: string | null = message;
    const answer = this.jsonAnswer();
    if (answer === null && !this.sse && this.status !== null) {
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

function noop(): void {}
