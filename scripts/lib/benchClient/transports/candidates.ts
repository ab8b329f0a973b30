import {Agent as HttpAgent, request as httpRequest} from "node:http";
import {connect, type Socket} from "node:net";

import {HTTPParser} from "http-parser-js";
import {Pool} from "undici";

import {
  createAgent,
  SocketPool as CollectorSocketPool,
  streamRequest,
  type StreamResult
} from "../../../../collector/http/index.ts";
import {nowNs, origin} from "../common.ts";
import {Capture} from "./capture.ts";

/**
 * HTTP/1.1 clients for one streamed request, each with the collector's full raw capture (Capture) and its time
 * points: the per-core ceiling is found by measuring them side by side (issue 17), not by assumption.
 */

export interface Transport {
  send(path: string, headers: Record<string, string>, body: string): Promise<StreamResult>;
  close(): Promise<void>;
}

export interface Candidate {
  name: string;
  /** Where the clock is read for a chunk's arrival time. */
  clock: string;
  open(url: string, connections: number): Transport;
}

const TIMEOUTS = {connectMs: 10_000, headersMs: 30_000, idleMs: 30_000};

/** The collector's own request builder (collector/http/call.ts) over its node:http agent: the path `collect` uses. */
export const collectorCandidate: Candidate = {
  name: "collector (node:http, Call)",
  clock: "socket 'data', before node's HTTP parser",
  open(url, connections) {
    const agent = createAgent(url, {maxSockets: connections + 64});
    return {
      send: (path, headers, body) =>
        streamRequest({url: url + path, headers, body, origin, agent, keepText: true, timeouts: TIMEOUTS}),
      close: async () => agent.destroy()
    };
  }
};

/** The collector's request builder over its bare-socket transport (collector/http/socketCall.ts, SocketPool). */
export const collectorSocketCandidate: Candidate = {
  name: "collector (net.Socket, SocketCall)",
  clock: "socket 'data', before http-parser-js",
  open(url, connections) {
    const agent = new CollectorSocketPool(url, {maxSockets: connections + 64});
    return {
      send: (path, headers, body) =>
        streamRequest({url: url + path, headers, body, origin, agent, keepText: true, timeouts: TIMEOUTS}),
      close: async () => agent.destroy()
    };
  }
};

/** node:http with a LIFO keep-alive agent and the least a handler can do: no deadlines, no abort, no excerpts. */
export const leanHttpCandidate: Candidate = {
  name: "node:http, lean handler (LIFO agent)",
  clock: "socket 'data', before node's HTTP parser",
  open(url, connections) {
    const u = new URL(url);
    const agent = new HttpAgent({keepAlive: true, maxSockets: connections + 64, scheduling: "lifo"});
    const send = (path: string, headers: Record<string, string>, body: string): Promise<StreamResult> =>
      new Promise((resolve) => {
        const c = new Capture();
        let tSock: number | null = null;
        const onSock = (): void => void (tSock = nowNs());
        const req = httpRequest({
          host: u.hostname,
          port: u.port,
          path: u.pathname + path,
          method: "POST",
          agent,
          headers: {...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body)}
        });
        // the socket itself, not res.socket: node detaches res.socket before 'end' on a kept-alive
        // socket, and a listener left behind accumulates over reuses (MaxListenersExceededWarning)
        let sock: Socket | null = null;
        req.on("socket", (s) => {
          sock = s;
          s.prependListener("data", onSock);
        });
        req.on("error", (e) => resolve(c.end(e.message)));
        req.on("response", (res) => {
          c.head(res.statusCode ?? 0, tSock ?? nowNs(), req.reusedSocket);
          res.on("data", (b: Buffer) => c.data(b, tSock ?? nowNs()));
          res.on("end", () => {
            sock?.off("data", onSock);
            resolve(c.end());
          });
        });
        req.end(body);
        c.tDisp = nowNs();
      });
    return {send, close: async () => agent.destroy()};
  }
};

/** undici's Pool through its dispatch handler API (no body stream, no fetch): llhttp (WebAssembly) parses. */
export const undiciCandidate: Candidate = {
  name: "undici Pool.dispatch (llhttp)",
  clock: "onResponseData, after llhttp parsed the chunk",
  open(url, connections) {
    const u = new URL(url);
    const pool = new Pool(u.origin, {connections: connections + 64, pipelining: 1, keepAliveTimeout: 30_000});
    const send = (path: string, headers: Record<string, string>, body: string): Promise<StreamResult> =>
      new Promise((resolve) => {
        const c = new Capture();
        pool.dispatch(
          {
            path: u.pathname + path,
            method: "POST",
            headers: {...headers, "content-type": "application/json"},
            body
          },
          {
            onRequestStart: noop,
            onResponseStart: (_ctl, status) => c.head(status, nowNs(), false),
            onResponseData: (_ctl, chunk) => c.data(chunk, nowNs()),
            onResponseEnd: () => resolve(c.end()),
            onResponseError: (_ctl, e) => resolve(c.end(e.message))
          }
        );
        c.tDisp = nowNs();
      });
    return {send, close: () => pool.close()};
  }
};

function noop(): void {}

/** Keep-alive sockets to one origin in a LIFO stack, for the socket clients below. */
class SocketPool {
  private readonly idle: Socket[] = [];
  private readonly all = new Set<Socket>();
  private readonly u: URL;

  constructor(u: URL) {
    this.u = u;
  }

  /** An idle socket (reused) or a new connection. */
  take(): {sock: Socket; reused: boolean} {
    const idle = this.idle.pop();
    if (idle !== undefined) return {sock: idle, reused: true};
    const sock = connect({host: this.u.hostname, port: Number(this.u.port), noDelay: true});
    this.all.add(sock);
    return {sock, reused: false};
  }

  park(sock: Socket): void {
    this.idle.push(sock);
  }

  /** Head and body of a POST to `path`, written in one piece. */
  request(path: string, headers: Record<string, string>, body: string): string {
    let head = `POST ${this.u.pathname}${path} HTTP/1.1\r\nhost: ${this.u.host}\r\ncontent-type: application/json\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    return `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  }

  async close(): Promise<void> {
    for (const s of this.all) s.destroy();
    this.all.clear();
    this.idle.length = 0;
  }
}

type Parser = InstanceType<typeof HTTPParser>;

/**
 * A lean client on net.Socket: one write of head and body, http-parser-js (a maintained pure-JavaScript
 * HTTP/1.1 parser, the one websocket-driver uses) on each socket chunk, keep-alive sockets in a LIFO stack.
 */
export const netSocketCandidate: Candidate = {
  name: "net.Socket + http-parser-js",
  clock: "socket 'data', before the parser",
  open(url) {
    const pool = new SocketPool(new URL(url));
    const parsers = new WeakMap<Socket, Parser>();
    const send = (path: string, headers: Record<string, string>, body: string): Promise<StreamResult> =>
      new Promise((resolve) => {
        const c = new Capture();
        const {sock, reused} = pool.take();
        if (!reused) sock.once("connect", () => (c.tConn = nowNs()));
        let parser = parsers.get(sock);
        if (parser === undefined) {
          parser = new HTTPParser(HTTPParser.RESPONSE);
          parsers.set(sock, parser);
        } else parser.initialize(HTTPParser.RESPONSE);
        let t = 0;
        let keepAlive = false;
        let done = false;
        const finish = (error: string | null): void => {
          if (done) return;
          done = true;
          sock.off("data", onData);
          sock.off("error", onError);
          sock.off("close", onClose);
          if (error === null && keepAlive) pool.park(sock);
          else sock.destroy();
          resolve(c.end(error));
        };
        const onData = (chunk: Buffer): void => {
          t = nowNs();
          const r = parser.execute(chunk);
          if (r instanceof Error) finish(r.message);
        };
        const onError = (e: Error): void => finish(e.message);
        const onClose = (): void => finish("socket closed before the response ended");
        parser[HTTPParser.kOnHeadersComplete] = (info) => {
          keepAlive = info.shouldKeepAlive;
          c.head(info.statusCode, t, reused);
        };
        parser[HTTPParser.kOnBody] = (b, offset, length) => c.data(b.subarray(offset, offset + length), t);
        parser[HTTPParser.kOnMessageComplete] = () => finish(null);
        sock.on("data", onData);
        sock.on("error", onError);
        sock.on("close", onClose);
        sock.write(pool.request(path, headers, body));
        c.tDisp = nowNs();
      });
    return {send, close: () => pool.close()};
  }
};

/**
 * Not a client: the floor under every candidate. Raw bytes off a net.Socket, events found by counting blank lines
 * and stamped, nothing decoded, parsed or classified; the response ends at the chunked terminator. What one read
 * costs on this machine (the kernel, libuv, a Buffer, one JavaScript callback) with no HTTP client at all.
 */
export const floorCandidate: Candidate = {
  name: "floor: net.Socket, count blank lines only",
  clock: "socket 'data'",
  open(url) {
    const pool = new SocketPool(new URL(url));
    const send = (path: string, headers: Record<string, string>, body: string): Promise<StreamResult> =>
      new Promise((resolve) => {
        const c = new Capture();
        const {sock} = pool.take();
        const onData = (chunk: Buffer): void => {
          const t = nowNs();
          if (c.tHdr === null) c.head(200, t, false);
          for (let i = chunk.indexOf("\n\n"); i >= 0; i = chunk.indexOf("\n\n", i + 2))
            c.events.push([t, 0, "content", null]);
          if (chunk.length >= 5 && chunk.toString("latin1", chunk.length - 5) === "0\r\n\r\n") {
            sock.off("data", onData);
            pool.park(sock);
            resolve(c.end());
          }
        };
        sock.on("data", onData);
        sock.write(pool.request(path, headers, body));
        c.tDisp = nowNs();
      });
    return {send, close: () => pool.close()};
  }
};

export const CANDIDATES: readonly Candidate[] = [
  collectorCandidate,
  collectorSocketCandidate,
  leanHttpCandidate,
  undiciCandidate,
  netSocketCandidate,
  floorCandidate
];
