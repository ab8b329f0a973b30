import {Agent as HttpAgent} from "node:http";
import {Agent as HttpsAgent} from "node:https";

export interface AgentOptions {
  /** Most sockets to the origin. Set it to at least the planned concurrency plus headroom; default: no cap. */
  maxSockets?: number;
  /** Idle keep-alive sockets kept for reuse (default: maxSockets, or 256 when uncapped). */
  maxFreeSockets?: number;
}

/**
 * A keep-alive Agent for one origin: one connection per in-flight stream (node:http never pipelines),
 * no silent cap unless `maxSockets` is given, LIFO reuse so idle sockets are the ones that age out.
 */
export function createAgent(url: string | URL, o: AgentOptions = {}): HttpAgent {
  const u = typeof url === "string" ? new URL(url) : url;
  const maxSockets = o.maxSockets ?? Infinity;
  if (!(maxSockets >= 1)) throw new Error(`createAgent: maxSockets must be ≥ 1, got ${maxSockets}`);
  const opts = {
    keepAlive: true,
    keepAliveMsecs: 1000,
    maxSockets,
    maxTotalSockets: maxSockets,
    maxFreeSockets: o.maxFreeSockets ?? (Number.isFinite(maxSockets) ? maxSockets : 256),
    scheduling: "lifo" as const
  };
  if (u.protocol === "https:") return new HttpsAgent(opts);
  if (u.protocol === "http:") return new HttpAgent(opts);
  throw new Error(`createAgent: unsupported protocol ${JSON.stringify(u.protocol)} in ${u.href}`);
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
