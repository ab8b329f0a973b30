import {validateHeaderName, validateHeaderValue} from "node:http";
import type {Socket} from "node:net";

import {HTTPParser} from "http-parser-js";

import {CallCore} from "./callCore.ts";
import type {SocketPool} from "./socketPool.ts";
import type {StreamRequest, StreamResult} from "./streamTypes.ts";

type Parser = InstanceType<typeof HTTPParser>;
type HeadInfo = {statusCode: number; headers: string[]; shouldKeepAlive: boolean};

/** What node:http reports when a connection ends before the response head: the same words and code. */
function hangUp(): Error {
  return Object.assign(new Error("socket hang up"), {code: "ECONNRESET"});
}

/**
 * Calls holding chunks that were read and stamped but not parsed yet. A read only takes the clock reading and
 * queues the chunk; the queues are parsed together once the event loop's poll phase has handed over every
 * socket that was ready (setImmediate runs right after it, before any timer). When a hundred streams get
 * their chunk in the same millisecond, the k-th chunk's reading then waits for k − 1 reads, not for k − 1
 * parses, classifications and records (issue 10 item 5: the timing error at 100 streams was that queue).
 */
const backlog: SocketCall[] = [];
let drainScheduled = false;

function drainBacklog(): void {
  drainScheduled = false;
  // reads happen in the poll phase, not here; a call queued meanwhile all the same is drained by this loop
  for (let i = 0; i < backlog.length; i++) backlog[i]!.drain();
  backlog.length = 0;
}

/**
 * One request over a bare socket from a SocketPool: head and body in one write, the response read by
 * http-parser-js (a maintained pure-JavaScript HTTP/1.1 parser) straight off the socket's 'data', where the
 * chunk's clock reading is taken. The recording is CallCore's, exactly as over node:http (call.ts).
 */
export class SocketCall extends CallCore {
  private readonly pool: SocketPool;
  private socket: Socket | null = null;
  private cancel: (() => void) | null = null;
  private parser: Parser | null = null;
  private payload = "";
  /** The response allows the connection to be reused (HTTP/1.1 without `connection: close`). */
  private keepAlive = false;
  private keepAliveHeader: string | undefined = undefined;
  /** A 1xx interim response is being read: its end is not the response's. */
  private interim = false;
  /** Chunks read and stamped, not parsed yet (see `backlog`), with their clock readings. */
  private readonly queued: Buffer[] = [];
  private readonly stamps: number[] = [];
  private inBacklog = false;

  private readonly onLeaseBound = (err: Error | null, s: Socket | null, reused: boolean): void =>
    this.onLease(err, s, reused);
  private readonly onConnectBound = (): void => this.onConnect();
  private readonly onSecureBound = (): void => this.onSecure();
  private readonly onWrittenBound = (err?: Error | null): void => {
    if (err === undefined || err === null) this.written = true;
  };
  private readonly onDataBound = (b: Buffer): void => this.onData(b);
  private readonly onErrorBound = (e: Error): void => {
    this.drain(); // what arrived before the error is handled first
    this.transportError(e);
  };
  private readonly onEndBound = (): void => this.onEnd();
  private readonly onCloseBound = (): void => this.onClose();

  constructor(
    pool: SocketPool,
    r: StreamRequest,
    url: URL,
    resolve: (r: StreamResult) => void,
    reject: (e: Error) => void
  ) {
    super(r, url, resolve, reject);
    this.pool = pool;
  }

  protected open(headers: Record<string, string | number>): boolean {
    const u = this.url;
    let head = `POST ${u.pathname}${u.search} HTTP/1.1\r\n`;
    let host = false;
    let auth = false;
    try {
      for (const [k, v] of Object.entries(headers)) {
        validateHeaderName(k);
        validateHeaderValue(k, String(v));
        const lower = k.toLowerCase();
        if (lower === "host") host = true;
        else if (lower === "authorization") auth = true;
        else if (lower === "connection") continue; // the pool decides
        head += `${k}: ${v}\r\n`;
      }
    } catch (e) {
      this.setupFailed(e as Error);
      return false;
    }
    if (!host) head += `host: ${u.host}\r\n`;
    if (!auth && u.username !== "") {
      const user = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
      head += `authorization: Basic ${Buffer.from(user).toString("base64")}\r\n`;
    }
    head += this.pool.keepAlive ? "connection: keep-alive\r\n" : "connection: close\r\n";
    this.payload = `${head}\r\n${this.r.body}`;
    this.cancel = this.pool.acquire(this.onLeaseBound);
    return !this.done;
  }

  private onLease(err: Error | null, s: Socket | null, reused: boolean): void {
    this.cancel = null;
    if (err !== null || s === null) return this.transportError(err ?? hangUp());
    if (this.done) return this.pool.release(s, false, undefined);
    this.socket = s;
    this.reused = reused;
    // Ahead of everything else: the clock is read when the bytes reach JavaScript, before the parser runs.
    s.on("data", this.onDataBound);
    s.on("error", this.onErrorBound);
    s.on("end", this.onEndBound);
    s.on("close", this.onCloseBound);
    const tls = (s as Socket & {encrypted?: boolean}).encrypted === true;
    if (s.connecting) {
      s.once("connect", this.onConnectBound);
      if (tls) s.once("secureConnect", this.onSecureBound);
    } else if (!reused) {
      this.connected(); // connected before the lease
      if (tls && (s as Socket & {authorized?: boolean}).authorized === undefined)
        s.once("secureConnect", this.onSecureBound);
      else this.dispatch();
    } else this.dispatch();
  }

  private onConnect(): void {
    if (this.done) return;
    this.connected();
    if ((this.socket as (Socket & {encrypted?: boolean}) | null)?.encrypted !== true) this.dispatch();
  }

  private onSecure(): void {
    if (this.done) return;
    this.secured();
    this.dispatch();
  }

  private dispatch(): void {
    if (this.phase !== "connect" || this.socket === null) return;
    const p = new HTTPParser(HTTPParser.RESPONSE);
    p[HTTPParser.kOnHeadersComplete] = (...a: unknown[]) => this.onHead(a);
    p[HTTPParser.kOnBody] = (b: Buffer, offset: number, length: number) =>
      this.bodyData(b.subarray(offset, offset + length));
    p[HTTPParser.kOnMessageComplete] = () => this.onMessageComplete();
    this.parser = p;
    this.socket.write(this.payload, "utf8", this.onWrittenBound);
    this.payload = "";
    this.dispatched();
  }

  /** The clock reading, then the chunk waits for the drain (see `backlog`). */
  private onData(b: Buffer): void {
    const t = this.now();
    if (this.done || this.parser === null) return;
    this.queued.push(b);
    this.stamps.push(t);
    if (this.inBacklog) return;
    this.inBacklog = true;
    backlog.push(this);
    if (!drainScheduled) {
      drainScheduled = true;
      setImmediate(drainBacklog);
    }
  }

  /**
   * Parses the queued chunks in order, each under its own clock reading. Bytes after the end of the response
   * go to whoever listens on the socket now (the pool destroys an idle socket that receives any), as they
   * would have without the queue.
   */
  drain(): void {
    this.inBacklog = false;
    const n = this.queued.length;
    if (n === 0) return;
    const s = this.socket;
    let i = 0;
    for (; i < n && !this.done && this.parser !== null; i++) {
      this.tSock = this.stamps[i]!;
      const r = this.parser.execute(this.queued[i]!);
      if (r instanceof Error) this.fail("other", `malformed HTTP response: ${r.message}`);
    }
    const rest = i < n ? this.queued.slice(i) : null;
    this.queued.length = 0;
    this.stamps.length = 0;
    if (rest !== null && s !== null && !s.destroyed) for (const b of rest) s.emit("data", b);
  }

  /** The response head (http-parser-js passes one object, or its fields one by one in its older calling mode). */
  private onHead(a: unknown[]): number {
    const info: HeadInfo =
      a.length === 1
        ? (a[0] as HeadInfo)
        : {statusCode: a[5] as number, headers: a[2] as string[], shouldKeepAlive: a[8] as boolean};
    if (this.done) return 0;
    const status = info.statusCode;
    if (status >= 100 && status < 200 && status !== 101) {
      this.interim = true;
      return 0;
    }
    let ct: string | null = null;
    let ra: string | null = null;
    const h = info.headers;
    for (let i = 0; i + 1 < h.length; i += 2) {
      const k = h[i]!.toLowerCase();
      if (k === "content-type") ct ??= h[i + 1]!;
      else if (k === "retry-after") ra ??= h[i + 1]!;
      else if (k === "keep-alive") this.keepAliveHeader ??= h[i + 1]!;
    }
    this.keepAlive = info.shouldKeepAlive;
    this.head(status, ct, ra);
    // 204 and 304 have no body whatever their headers say (RFC 9110 §6.4.1): skip it.
    return status === 204 || status === 304 ? 1 : 0;
  }

  private onMessageComplete(): void {
    if (this.interim) {
      this.interim = false;
      return;
    }
    // the end is when the bytes that completed the response arrived (parsing may come later: see `backlog`)
    this.bodyEnd(this.keepAlive, this.tSock ?? undefined);
  }

  /**
   * The server closed its side. A body read to the connection's close ends here; before the head it is a
   * hang-up (as node:http says it); inside a framed body a clean FIN cut the body short (truncated, not a
   * transport error: the analyzer sees no terminal marker).
   */
  private onEnd(): void {
    this.drain();
    if (this.done) return;
    if (this.phase !== "body" || this.parser === null) return this.transportError(hangUp());
    this.tSock = this.now(); // a body read to the close ends with the FIN
    const r = this.parser.finish();
    if (this.done) return; // finish() completed a body read to the close
    if (r instanceof Error || !this.done) this.bodyCut();
  }

  /**
   * Closed without the server's FIN ('end') or an error first: destroyed on this side (the pool was destroyed)
   * or lost. Never a success, and not a truncation the server chose.
   */
  private onClose(): void {
    this.drain();
    if (this.done) return;
    this.transportError(Object.assign(new Error("connection closed before the response ended"), {code: "ECONNRESET"}));
  }

  protected release(clean: boolean): void {
    if (this.cancel !== null) {
      this.cancel();
      this.cancel = null;
    }
    const s = this.socket;
    if (s === null) return;
    s.off("data", this.onDataBound);
    s.off("error", this.onErrorBound);
    s.off("end", this.onEndBound);
    s.off("close", this.onCloseBound);
    s.off("connect", this.onConnectBound);
    s.off("secureConnect", this.onSecureBound);
    this.socket = null;
    this.parser = null;
    if (!clean) s.on("error", noop); // a late error after destroy must not be unhandled
    this.pool.release(s, clean, this.keepAliveHeader);
  }
}

function noop(): void {}
