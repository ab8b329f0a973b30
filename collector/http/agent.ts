import {Agent as HttpAgent, type AgentOptions as NodeAgentOptions} from "node:http";
import {Agent as HttpsAgent, type AgentOptions as NodeHttpsAgentOptions} from "node:https";
import type {Duplex} from "node:stream";

/** Builds a socket for a request (tests inject delays here; default: node's own). */
export type CreateConnection = (options: object, callback: (err: Error | null, socket: Duplex) => void) => Duplex;

export interface AgentOptions {
  /** Most sockets to the origin. Set it to at least the planned concurrency plus headroom; default: no cap. */
  maxSockets?: number;
  /** Idle keep-alive sockets kept for reuse (default: maxSockets, or 256 when uncapped). */
  maxFreeSockets?: number;
  /**
   * Reuse connections (keep-alive, default) or open one fresh connection per request (`false`).
   */
  keepAlive?: boolean;
  /**
   * An idle keep-alive socket is closed after this long (default 2000 ms), and sooner when the server
   * announces a shorter `Keep-Alive: timeout=N` (then N − 1 s): the client must give a socket up before the
   * server does, or a request sent on it races the server's close ("socket hang up").
   */
  idleMs?: number;
  /** TLS: extra trusted certificates (PEM) and whether an untrusted certificate is accepted. */
  ca?: string | Buffer;
  rejectUnauthorized?: boolean;
  createConnection?: CreateConnection;
}

export const DEFAULT_IDLE_MS = 2000;

/** The idle bound of a socket being parked: ours, or the server's announced keep-alive minus 1 s, whichever is shorter. */
export function idleBound(idleMs: number, keepAliveHeader: string | string[] | undefined): number | null {
  const hint = typeof keepAliveHeader === "string" ? /(?:^|,|\s)timeout=(\d+)/i.exec(keepAliveHeader)?.[1] : undefined;
  if (hint === undefined) return idleMs;
  const server = Number(hint) * 1000 - 1000;
  if (server <= 0) return null; // the server closes idle sockets within a second: never park one
  return Math.min(idleMs, server);
}

type Parkable = Duplex & {
  setTimeout(ms: number): unknown;
  setKeepAlive(enable: boolean, delay: number): unknown;
  unref(): unknown;
  _httpMessage?: {res?: {headers: Record<string, string | string[] | undefined>}} | null;
};

function keepAliveHooks<T extends HttpAgent>(agent: T, idleMs: number, keepAliveMsecs: number): T {
  const a = agent as T & {
    keepSocketAlive(socket: Parkable): boolean;
    reuseSocket(socket: Parkable, req: unknown): void;
  };
  a.keepSocketAlive = (socket: Parkable): boolean => {
    const bound = idleBound(idleMs, socket._httpMessage?.res?.headers["keep-alive"]);
    if (bound === null) return false;
    socket.setKeepAlive(true, keepAliveMsecs);
    socket.unref();
    socket.setTimeout(bound); // node's agent destroys a free socket on 'timeout'
    return true;
  };
  const reuse = HttpAgent.prototype.reuseSocket as (this: T, socket: Parkable, req: unknown) => void;
  a.reuseSocket = function (socket: Parkable, req: unknown): void {
    socket.setTimeout(0); // the idle bound is for parked sockets only, never for a stream in flight
    reuse.call(this, socket, req);
  };
  return agent;
}

/**
 * The connection pool of one origin: by default keep-alive with LIFO reuse and an idle bound shorter than
 * the server's (see `idleMs`), one connection per in-flight stream (node:http never pipelines), and no
 * silent cap unless `maxSockets` is given. With `keepAlive: false`, one fresh connection per request.
 */
export function createAgent(url: string | URL, o: AgentOptions = {}): HttpAgent {
  const u = typeof url === "string" ? new URL(url) : url;
  const maxSockets = o.maxSockets ?? Infinity;
  if (!(maxSockets >= 1)) throw new Error(`createAgent: maxSockets must be ≥ 1, got ${maxSockets}`);
  const idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
  if (!(idleMs > 0)) throw new Error(`createAgent: idleMs must be positive, got ${idleMs}`);
  const keepAlive = o.keepAlive ?? true;
  const opts: NodeAgentOptions & NodeHttpsAgentOptions = {
    keepAlive,
    keepAliveMsecs: 1000,
    maxSockets,
    maxTotalSockets: maxSockets,
    maxFreeSockets: o.maxFreeSockets ?? (Number.isFinite(maxSockets) ? maxSockets : 256),
    scheduling: "lifo"
  };
  let agent: HttpAgent;
  if (u.protocol === "https:") {
    if (o.ca !== undefined) opts.ca = o.ca;
    if (o.rejectUnauthorized !== undefined) opts.rejectUnauthorized = o.rejectUnauthorized;
    agent = new HttpsAgent(opts);
  } else if (u.protocol === "http:") agent = new HttpAgent(opts);
  else throw new Error(`createAgent: unsupported protocol ${JSON.stringify(u.protocol)} in ${u.href}`);
  if (o.createConnection !== undefined)
    (agent as unknown as {createConnection: CreateConnection}).createConnection = o.createConnection;
  return keepAlive ? keepAliveHooks(agent, idleMs, 1000) : agent;
}

const defaults = new Map<string, HttpAgent>();

/** The shared uncapped keep-alive agent of an origin (used when a request names no agent). */
export function defaultAgent(url: URL): HttpAgent {
  let a = defaults.get(url.origin);
  if (a === undefined) {
    a = createAgent(url);
    defaults.set(url.origin, a);
  }
  return a;
}

/** Closes the idle sockets of the shared agents (e.g. at the end of a run or a test). */
export function destroyDefaultAgents(): void {
  for (const a of defaults.values()) a.destroy();
  defaults.clear();
}
