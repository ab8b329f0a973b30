import {connect as netConnect, isIP, type Socket} from "node:net";
import {connect as tlsConnect} from "node:tls";

import {DEFAULT_IDLE_MS, idleBound, type AgentOptions, type CreateConnection} from "./agent.ts";

/** Gets a socket (`err` null), or the error that kept one from being made. */
export type Lease = (err: Error | null, socket: Socket | null, reused: boolean) => void;

/**
 * The connections of one origin for the socket transport (socketCall.ts): the same rules as createAgent's
 * node:http pool, without node:http. Keep-alive with LIFO reuse (the most recently parked socket is the one
 * least likely to have been closed by the server), an idle bound shorter than the server's (`idleBound`), at
 * most `maxSockets` connections (a request beyond it waits for one), and with `keepAlive: false` one fresh
 * connection per request. A parked socket is unref'd, so an idle pool never keeps the process alive.
 */
export class SocketPool {
  readonly url: URL;
  readonly keepAlive: boolean;
  private readonly maxSockets: number;
  private readonly maxFree: number;
  private readonly idleMs: number;
  private readonly o: AgentOptions;
  /** Parked sockets, the most recent last. */
  private readonly idle: Socket[] = [];
  private readonly all = new Set<Socket>();
  private readonly waiting: Lease[] = [];
  private closed = false;

  constructor(url: string | URL, o: AgentOptions = {}) {
    const u = typeof url === "string" ? new URL(url) : url;
    if (u.protocol !== "http:" && u.protocol !== "https:")
      throw new Error(`SocketPool: unsupported protocol ${JSON.stringify(u.protocol)} in ${u.href}`);
    this.url = u;
    this.maxSockets = o.maxSockets ?? Infinity;
    if (!(this.maxSockets >= 1)) throw new Error(`SocketPool: maxSockets must be ≥ 1, got ${this.maxSockets}`);
    this.idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
    if (!(this.idleMs > 0)) throw new Error(`SocketPool: idleMs must be positive, got ${this.idleMs}`);
    this.maxFree = o.maxFreeSockets ?? (Number.isFinite(this.maxSockets) ? this.maxSockets : 256);
    this.keepAlive = o.keepAlive ?? true;
    this.o = o;
  }

  /** Sockets parked for reuse now. */
  get parked(): number {
    return this.idle.length;
  }

  /** Sockets open now, in use or parked (a connection being made counts once it exists). */
  get open(): number {
    return this.all.size;
  }

  /** Hands `lease` a socket: a parked one, else a new connection, else (at maxSockets) the next one freed. Returns a cancel. */
  acquire(lease: Lease): () => void {
    if (this.closed) {
      lease(new Error("SocketPool: the pool was destroyed"), null, false);
      return noop;
    }
    for (let s = this.idle.pop(); s !== undefined; s = this.idle.pop()) {
      if (s.destroyed) continue;
      unpark(s);
      lease(null, s, true);
      return noop;
    }
    if (this.all.size < this.maxSockets) {
      this.connect(lease);
      return noop;
    }
    this.waiting.push(lease);
    return () => {
      const i = this.waiting.indexOf(lease);
      if (i >= 0) this.waiting.splice(i, 1);
    };
  }

  /**
   * A request is done with its socket: parked when `reusable` (its response was read to the end and the
   * server keeps the connection) and the idle bound allows, else destroyed.
   */
  release(s: Socket, reusable: boolean, keepAliveHeader: string | undefined): void {
    const bound = reusable && this.keepAlive && !this.closed ? idleBound(this.idleMs, keepAliveHeader) : null;
    if (bound === null || s.destroyed) {
      s.destroy();
      return; // 'close' frees its place
    }
    const next = this.waiting.shift();
    if (next !== undefined) return next(null, s, true);
    if (this.idle.length >= this.maxFree) {
      s.destroy();
      return;
    }
    park(s, bound);
    this.idle.push(s);
  }

  /** Closes every socket, parked or in use, and fails the waiting requests. */
  destroy(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w(new Error("SocketPool: the pool was destroyed"), null, false);
    for (const s of this.all) s.destroy();
    this.idle.length = 0;
  }

  private connect(lease: Lease): void {
    const u = this.url;
    const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
    const tls = u.protocol === "https:";
    const port = u.port === "" ? (tls ? 443 : 80) : Number(u.port);
    const options = {
      host,
      port,
      noDelay: true,
      ...(tls
        ? {
            servername: isIP(host) === 0 ? host : undefined,
            ALPNProtocols: ["http/1.1"],
            ...(this.o.ca === undefined ? {} : {ca: this.o.ca}),
            ...(this.o.rejectUnauthorized === undefined ? {} : {rejectUnauthorized: this.o.rejectUnauthorized})
          }
        : {})
    };
    const made = (err: Error | null, s: Socket | null): void => {
      if (err !== null || s === null) return lease(err ?? new Error("SocketPool: no socket was made"), null, false);
      this.track(s);
      lease(null, s, false);
    };
    if (this.o.createConnection === undefined) return made(null, tls ? tlsConnect(options) : netConnect(options));
    // As node's agent: createConnection returns the socket, or gives it (or an error) to its callback later.
    let given = false;
    const cb = (err: Error | null, s: unknown): void => {
      if (given) return;
      given = true;
      made(err, (s as Socket | undefined) ?? null);
    };
    const returned = (this.o.createConnection as CreateConnection)(options, cb as Parameters<CreateConnection>[1]);
    if (returned !== undefined && returned !== null && !given) {
      given = true;
      made(null, returned as Socket);
    }
  }

  private track(s: Socket): void {
    this.all.add(s);
    s.once("close", () => {
      this.all.delete(s);
      const i = this.idle.indexOf(s);
      if (i >= 0) this.idle.splice(i, 1);
      const next = this.closed ? undefined : this.waiting.shift();
      if (next !== undefined) this.connect(next);
    });
  }
}

/** Parked: unref'd, TCP keep-alive on, destroyed after `bound` ms idle, or on any byte or error while idle. */
function park(s: Socket, bound: number): void {
  s.setKeepAlive(true, 1000);
  s.unref();
  s.setTimeout(bound);
  s.on("timeout", destroyIdle);
  s.on("data", destroyIdle);
  s.on("error", noop);
  s.on("end", destroyIdle);
}

function unpark(s: Socket): void {
  s.off("timeout", destroyIdle);
  s.off("data", destroyIdle);
  s.off("error", noop);
  s.off("end", destroyIdle);
  s.setTimeout(0);
  s.ref();
}

function destroyIdle(this: Socket): void {
  this.destroy();
}

function noop(): void {}
