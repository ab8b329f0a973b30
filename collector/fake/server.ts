import {createWriteStream, openSync, type WriteStream} from "node:fs";
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createServer as createTlsServer} from "node:https";
import type {Socket} from "node:net";

import {realClock} from "../effects.ts";
import type {Active, Env, SendLogEntry} from "./active.ts";
import {FakeMetrics} from "./metrics.ts";
import {mergeOptions, type ScenarioOptions} from "./options.ts";
import {PrefixCache} from "./prefixCache.ts";
import {route} from "./routes.ts";
import {resolveScenario, type Scenario} from "./scenarios.ts";

export type {SendLogEntry} from "./active.ts";

export interface FakeServerOptions {
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  /** Scenario name or object; requests may pick another with the `x-fake-scenario` header. */
  scenario?: string | Scenario;
  /** Overrides applied on top of the scenario (e.g. {ttftMs: 0}). */
  options?: Partial<ScenarioOptions>;
  clock?: () => bigint;
  /** Keep the send log in memory (default true). */
  recordSendLog?: boolean;
  /** Also append the send log to this JSONL file ({requestId, seq, tNs (decimal string), bytes, events, what}). */
  sendLogFile?: string;
  /** Serve https with this key and certificate (PEM). */
  tls?: {key: string | Buffer; cert: string | Buffer};
}

export interface FakeServer {
  /** Base URL including /v1, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  scenario: Scenario;
  close(): Promise<void>;
  sendLog(): SendLogEntry[];
  clearSendLog(): void;
  metrics: FakeMetrics;
  /** The first error writing the send-log file (logging to the file stops then), or null. */
  sendLogError(): Error | null;
}

/** Starts the scripted OpenAI-compatible server on node:http. */
export async function startFakeServer(opts: FakeServerOptions = {}): Promise<FakeServer> {
  const clock = opts.clock ?? realClock.nowNs;
  const base = resolveScenario(opts.scenario);
  const scenario: Scenario =
    opts.options === undefined
      ? base
      : {...base, options: mergeOptions(base.options, opts.options, "fake server options")};
  const so = scenario.options;
  const sink = sendLogSink(opts);
  const note = sink.note;
  const metrics = new FakeMetrics();
  // a server started with the cache on exports its counters from the start (at 0), as vLLM does
  metrics.prefixCacheOn = so.prefixCacheTokens !== null;
  const prefixCache = new PrefixCache();
  const active = new Set<Active>();
  const queue: Active[] = [];
  const socketRequests = new WeakMap<Socket, number>();
  let nextId = 0;

  const env: Env = {
    clock,
    note,
    metrics,
    prefixCache,
    active,
    queue,
    model: so.model,
    cap: so.connCap,
    capMode: so.connCapMode
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const received = clock(); // the server's receipt time: everything after it is the server's
    const socket = req.socket;
    const n = (socketRequests.get(socket) ?? 0) + 1;
    socketRequests.set(socket, n);
    if (so.keepAliveRace && n > 1) {
      note({
        requestId: String(req.headers["x-request-id"] ?? ""),
        seq: 0,
        tNs: clock(),
        bytes: 0,
        events: 0,
        what: "destroy"
      });
      socket.destroy();
      return;
    }
    route(req, res, scenario, env, () => `fake-${nextId++}`, received);
  };
  const server: Server =
    opts.tls === undefined
      ? createServer({noDelay: true, keepAlive: true}, handler)
      : (createTlsServer(
          {noDelay: true, keepAlive: true, key: opts.tls.key, cert: opts.tls.cert},
          handler
        ) as unknown as Server);
  server.on("connection", (s: Socket) => s.setNoDelay(true));
  if (so.connCap !== null && so.connCapMode === "refuse") server.maxConnections = so.connCap;

  const {host, port} = await listen(server, opts);
  let closed: Promise<void> | null = null;
  return {
    url: `${opts.tls === undefined ? "http" : "https"}://${host}:${port}/v1`,
    port,
    scenario,
    metrics,
    sendLog: () => sink.log.slice(),
    sendLogError: () => sink.error(),
    clearSendLog: () => void (sink.log.length = 0),
    close() {
      closed ??= new Promise<void>((resolve) => {
        const waiting = queue.splice(0);
        for (const a of waiting) a.cancel();
        for (const a of [...active]) a.cancel();
        server.close(() => sink.end(resolve));
        server.closeAllConnections();
      });
      return closed;
    }
  };
}

export {MAX_MODEL_LEN} from "./routes.ts";

/** Listens on opts.port (0: a free one) and opts.host; the bound port and the host as a URL writes it. */
async function listen(server: Server, opts: FakeServerOptions): Promise<{host: string; port: number}> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error(`fake server: unexpected address ${String(addr)}`);
  return {host: addr.family === "IPv6" ? `[${addr.address}]` : addr.address, port: addr.port};
}

/** The send log: kept in memory (unless recordSendLog is false) and appended to sendLogFile when given. */
function sendLogSink(opts: FakeServerOptions) {
  const log: SendLogEntry[] = [];
  const record = opts.recordSendLog !== false;
  // Opened synchronously so a bad path fails the start; later write errors stop the file log and are kept.
  let file: WriteStream | null =
    opts.sendLogFile === undefined ? null : createWriteStream("", {fd: openSync(opts.sendLogFile, "a")});
  let fileError: Error | null = null;
  file?.on("error", (e: Error) => {
    fileError ??= e;
    file = null;
  });
  return {
    log,
    note: (e: SendLogEntry): void => {
      if (record) log.push(e);
      if (file !== null) {
        file.write(
          `{"requestId":${JSON.stringify(e.requestId)},"seq":${e.seq},"tNs":"${e.tNs}","bytes":${e.bytes},"events":${e.events},"what":"${e.what}"}\n`
        );
      }
    },
    error: () => fileError,
    end: (done: () => void): void => {
      const f = file;
      if (f === null) done();
      else f.end(() => done());
    }
  };
}
