import {createWriteStream, openSync, type WriteStream} from "node:fs";
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createServer as createTlsServer} from "node:https";
import type {Socket} from "node:net";

import {FakeMetrics} from "./metrics.ts";
import {mergeOptions, type ScenarioOptions} from "./options.ts";
import {buildPlan, type FakeRequest, type Frame, type ResponsePlan} from "./plan.ts";
import {resolveScenario, type Scenario} from "./scenarios.ts";
import {countWords, requestText, tokenIds} from "./tokens.ts";

/**
 * One write the server made, stamped with its own CLOCK_MONOTONIC reading taken just before the
 * write call. `events` = SSE data events completed by this write (a split event counts on its last piece).
 */
export interface SendLogEntry {
  requestId: string;
  /** Position of this entry within its response, from 0. */
  seq: number;
  tNs: bigint;
  bytes: number;
  events: number;
  /** received = the request body was read (the server's receipt time), then the response's writes. */
  what: "received" | "headers" | "data" | "end" | "fin" | "reset" | "destroy";
}

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
  const clock = opts.clock ?? process.hrtime.bigint;
  const base = resolveScenario(opts.scenario);
  const scenario: Scenario =
    opts.options === undefined
      ? base
      : {...base, options: mergeOptions(base.options, opts.options, "fake server options")};
  const so = scenario.options;
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
  const metrics = new FakeMetrics();
  const active = new Set<Active>();
  const queue: Active[] = [];
  const socketRequests = new WeakMap<Socket, number>();
  let nextId = 0;

  const note = (e: SendLogEntry): void => {
    if (record) log.push(e);
    if (file !== null) {
      file.write(
        `{"requestId":${JSON.stringify(e.requestId)},"seq":${e.seq},"tNs":"${e.tNs}","bytes":${e.bytes},"events":${e.events},"what":"${e.what}"}\n`
      );
    }
  };

  const env: Env = {clock, note, metrics, active, queue, model: so.model, cap: so.connCap, capMode: so.connCapMode};

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
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
    route(req, res, scenario, env, () => `fake-${nextId++}`);
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

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error(`fake server: unexpected address ${String(addr)}`);
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  let closed: Promise<void> | null = null;
  return {
    url: `${opts.tls === undefined ? "http" : "https"}://${host}:${addr.port}/v1`,
    port: addr.port,
    scenario,
    metrics,
    sendLog: () => log.slice(),
    sendLogError: () => fileError,
    clearSendLog: () => void (log.length = 0),
    close() {
      closed ??= new Promise<void>((resolve) => {
        const waiting = queue.splice(0);
        for (const a of waiting) a.cancel();
        for (const a of [...active]) a.cancel();
        server.close(() => {
          const f = file;
          if (f === null) resolve();
          else f.end(() => resolve());
        });
        server.closeAllConnections();
      });
      return closed;
    }
  };
}

interface Env {
  clock: () => bigint;
  note: (e: SendLogEntry) => void;
  metrics: FakeMetrics;
  active: Set<Active>;
  queue: Active[];
  model: string;
  cap: number | null;
  capMode: "refuse" | "queue";
}

/** The context length the fake model advertises (/v1/models) and enforces. */
export const MAX_MODEL_LEN = 131_072;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {"content-type": "application/json", "content-length": Buffer.byteLength(text)});
  res.end(text);
}

const errorBody = (message: string, code: number): unknown => ({
  error: {object: "error", message, type: code === 404 ? "NotFoundError" : "BadRequestError", param: null, code}
});

function route(req: IncomingMessage, res: ServerResponse, scenario: Scenario, env: Env, newId: () => string): void {
  const path = (req.url ?? "/").split("?")[0]!;
  const method = req.method ?? "GET";
  if (method === "GET") {
    if (path === "/health") return sendJson(res, 200, {status: "ok"});
    if (path === "/version") return sendJson(res, 200, {version: "inferscope-fake-1"});
    if (path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: [
          {
            id: env.model,
            object: "model",
            created: 1_700_000_000,
            owned_by: "inferscope-fake",
            max_model_len: MAX_MODEL_LEN
          }
        ]
      });
    }
    if (path === "/metrics") {
      res.writeHead(200, {"content-type": "text/plain; version=0.0.4; charset=utf-8"});
      return void res.end(env.metrics.render(env.model));
    }
    return sendJson(res, 404, errorBody(`no route GET ${path}`, 404));
  }
  if (method !== "POST") return sendJson(res, 405, errorBody(`method ${method} not allowed on ${path}`, 405));
  const endpoint =
    path === "/v1/chat/completions"
      ? "chat"
      : path === "/v1/completions"
        ? "completions"
        : path === "/tokenize"
          ? "tokenize"
          : null;
  if (endpoint === null) return sendJson(res, 404, errorBody(`no route POST ${path}`, 404));
  const parts: Buffer[] = [];
  req.on("data", (b: Buffer) => parts.push(b));
  req.on("end", () => {
    let body: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("request body is not a JSON object");
      body = v as Record<string, unknown>;
    } catch (e) {
      return sendJson(res, 400, errorBody(`invalid JSON body: ${(e as Error).message}`, 400));
    }
    if (endpoint === "tokenize") {
      const tokens = tokenIds(requestText(body));
      return sendJson(res, 200, {count: tokens.length, max_model_len: MAX_MODEL_LEN, tokens});
    }
    let options: ScenarioOptions;
    try {
      options = requestOptions(req, scenario);
    } catch (e) {
      return sendJson(res, 400, errorBody((e as Error).message, 400));
    }
    const fake = parseRequest(endpoint, body, req, options, newId);
    // like a real server: a request beyond the model's context is refused, never generated (one request
    // asking for 10¹² tokens must not take the server down for everyone)
    if ((fake.maxTokens ?? 0) + fake.promptTokens > MAX_MODEL_LEN)
      return sendJson(
        res,
        400,
        errorBody(
          `This model's maximum context length is ${MAX_MODEL_LEN} tokens. However, you requested ${fake.maxTokens ?? 0} output tokens and your prompt contains ${fake.promptTokens} tokens.`,
          400
        )
      );
    const plan = buildPlan(fake, options);
    env.metrics.promptTokens += plan.promptTokens;
    const a = new Active(env, res, fake.requestId, plan);
    if (env.cap !== null && env.capMode === "queue" && env.active.size >= env.cap) {
      env.queue.push(a);
      env.metrics.waiting++;
      res.on("close", () => {
        const i = env.queue.indexOf(a);
        if (i >= 0) {
          env.queue.splice(i, 1);
          env.metrics.waiting--;
        }
      });
    } else a.start();
  });
}

function requestOptions(req: IncomingMessage, scenario: Scenario): ScenarioOptions {
  const name = req.headers["x-fake-scenario"];
  let o = typeof name === "string" && name !== scenario.name ? resolveScenario(name).options : scenario.options;
  const extra = req.headers["x-fake-options"];
  if (typeof extra === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(extra);
    } catch {
      throw new Error(`x-fake-options header: invalid JSON ${JSON.stringify(extra.slice(0, 200))}`);
    }
    o = mergeOptions(o, parsed, "x-fake-options header");
  }
  return o;
}

function parseRequest(
  endpoint: "chat" | "completions",
  body: Record<string, unknown>,
  req: IncomingMessage,
  o: ScenarioOptions,
  newId: () => string
): FakeRequest {
  const so = (body.stream_options ?? {}) as Record<string, unknown>;
  const max = body.max_tokens ?? body.max_completion_tokens;
  const rid = req.headers["x-request-id"];
  const text = requestText(body);
  return {
    endpoint,
    stream: body.stream === true,
    maxTokens: typeof max === "number" && max >= 0 ? Math.floor(max) : null,
    ignoreEos: body.ignore_eos === true,
    includeUsage: so.include_usage === true,
    continuousUsage: so.continuous_usage_stats === true,
    promptTokens: countWords(text),
    text,
    requestId: typeof rid === "string" && rid !== "" ? rid : newId(),
    model: typeof body.model === "string" ? body.model : o.model
  };
}

/** One response being played out. Frames are due at absolute offsets from `t0` (no drift). */
class Active {
  readonly env: Env;
  readonly res: ServerResponse;
  readonly requestId: string;
  readonly plan: ResponsePlan;
  t0 = 0n;
  /** When the request body had been read (before any queueing). */
  readonly received: bigint;
  next = 0;
  seq = 0;
  headersSent = false;
  firstEventSent = false;
  done = false;
  timer: ReturnType<typeof setTimeout> | null = null;
  immediate: ReturnType<typeof setImmediate> | null = null;
  readonly stepBound: () => void;

  constructor(env: Env, res: ServerResponse, requestId: string, plan: ResponsePlan) {
    this.env = env;
    this.res = res;
    this.requestId = requestId;
    this.plan = plan;
    this.received = env.clock();
    this.stepBound = () => this.step();
  }

  start(): void {
    this.t0 = this.env.clock();
    this.log("received", this.received, 0, 0);
    this.env.active.add(this);
    this.env.metrics.running++;
    this.res.on("close", () => this.finish());
    this.step();
  }

  cancel(): void {
    this.finish();
    this.res.socket?.destroy();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    if (!this.env.active.delete(this)) return;
    this.env.metrics.running--;
    this.env.metrics.generationTokens += this.plan.completionTokens;
    this.env.metrics.requestsFinished++;
    const q = this.env.queue.shift();
    if (q !== undefined) {
      this.env.metrics.waiting--;
      q.start();
    }
  }

  private log(what: SendLogEntry["what"], t: bigint, bytes: number, events: number): void {
    this.env.note({requestId: this.requestId, seq: this.seq++, tNs: t, bytes, events, what});
  }

  /** ms elapsed since t0, or schedules a wake-up and returns null when `atMs` is not due yet. */
  private due(atMs: number): boolean {
    const elapsed = Number(this.env.clock() - this.t0) / 1e6;
    const wait = atMs - elapsed;
    if (wait <= 0) return true;
    if (wait < 1) this.immediate = setImmediate(this.stepBound);
    else this.timer = setTimeout(this.stepBound, Math.floor(wait));
    return false;
  }

  private step(): void {
    this.timer = null;
    this.immediate = null;
    if (this.done) return;
    const p = this.plan;
    const res = this.res;
    if (!this.headersSent) {
      if (!this.due(p.headersAtMs)) return;
      const socket = res.socket;
      if (p.closeBeforeHeaders) {
        this.log("destroy", this.env.clock(), 0, 0);
        socket?.destroy();
        this.finish();
        return;
      }
      res.writeHead(p.status, p.headers);
      const t = this.env.clock();
      res.flushHeaders();
      this.log("headers", t, 0, 0);
      this.headersSent = true;
    }
    const frames = p.frames;
    while (this.next < frames.length) {
      const f: Frame = frames[this.next]!;
      if (!this.due(f.atMs)) return;
      const t = this.env.clock();
      res.write(f.data);
      this.next++;
      this.log("data", t, typeof f.data === "string" ? Buffer.byteLength(f.data) : f.data.length, f.events);
      if (f.events > 0 && !this.firstEventSent) {
        this.firstEventSent = true;
        this.env.metrics.observeTtft(Number(t - this.t0) / 1e9);
      }
      if (f.yieldAfter) {
        this.immediate = setImmediate(this.stepBound);
        return;
      }
    }
    if (p.end.how === "hang") return;
    if (!this.due(p.end.atMs)) return;
    const t = this.env.clock();
    const socket = res.socket;
    if (p.end.how === "end") res.end();
    else if (p.end.how === "fin") {
      // the response's last writes are corked until the next tick: a FIN sent now would overtake them
      setImmediate(() => socket?.end());
    } else socket?.resetAndDestroy();
    this.log(p.end.how, t, 0, 0);
    this.finish();
  }
}
