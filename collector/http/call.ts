import {request as httpRequest, type Agent, type ClientRequest, type IncomingMessage} from "node:http";
import {request as httpsRequest} from "node:https";
import type {Socket} from "node:net";

import {defaultAgent} from "./agent.ts";
import {CallCore} from "./callCore.ts";

/** One request over node:http (ClientRequest and its agent); the recording is CallCore's. Handlers are bound once per request. */
export class Call extends CallCore {
  private req: ClientRequest | null = null;
  private socket: Socket | null = null;
  private socketError: Error | null = null;

  private readonly onSocketBound = (s: Socket): void => this.onSocket(s);
  private readonly onConnectBound = (): void => this.onConnect();
  private readonly onSecureBound = (): void => this.onSecure();
  private readonly onFinishBound = (): void => void (this.written = true);
  private readonly onSocketErrorBound = (e: Error): void => void (this.socketError = e);
  private readonly onSocketDataBound = (): void => void (this.tSock = this.now());
  private readonly onResponseBound = (res: IncomingMessage): void => this.onResponse(res);
  private readonly onReqErrorBound = (e: Error): void => this.transportError(e);
  private readonly onDataBound = (b: Buffer): void => this.bodyData(b);
  private readonly onEndBound = (): void => this.bodyEnd(true);
  private readonly onResErrorBound = (e: Error): void => this.onResError(e);

  protected open(headers: Record<string, string | number>): boolean {
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
        agent: (this.r.agent as Agent | undefined) ?? defaultAgent(u),
        ...(u.username === "" ? {} : {auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`})
      });
    } catch (e) {
      this.setupFailed(e as Error);
      return false;
    }
    this.req = req;
    req.on("finish", this.onFinishBound);
    req.on("socket", this.onSocketBound);
    req.on("response", this.onResponseBound);
    req.on("error", this.onReqErrorBound);
    return true;
  }

  private onSocket(s: Socket): void {
    if (this.done) return;
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
      this.connected(); // connected before the request saw its socket
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

  /** Hands headers and body to the connected socket in one write. */
  private dispatch(): void {
    if (this.phase !== "connect" || this.req === null) return;
    this.req.end(this.r.body);
    this.dispatched();
  }

  private onResponse(res: IncomingMessage): void {
    if (this.done) return;
    const ct = res.headers["content-type"];
    const ra = res.headers["retry-after"];
    this.head(res.statusCode ?? null, typeof ct === "string" ? ct : null, typeof ra === "string" ? ra : null);
    res.on("data", this.onDataBound);
    res.on("end", this.onEndBound);
    res.on("error", this.onResErrorBound);
  }

  /**
   * The response stream failed after the headers. Node reports a premature close as ECONNRESET "aborted":
   * with a socket error first it was an RST (conn_reset); without one, a clean FIN before the body was
   * complete, which is not a transport error (the analyzer sees no terminal marker: truncated_stream).
   */
  private onResError(e: Error): void {
    if (this.done) return;
    if (this.socketError !== null) return this.fail("conn_reset", this.socketError.message);
    if (e.message !== "aborted") return this.transportError(e);
    this.bodyCut();
  }

  protected release(clean: boolean): void {
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
  }
}

function noop(): void {}
