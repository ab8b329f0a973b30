import type {ServerResponse} from "node:http";

import type {FakeMetrics} from "./metrics.ts";
import type {Frame, ResponsePlan} from "./plan.ts";
import type {PendingInsert, PrefixCache, PrefixInsert} from "./prefixCache.ts";

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
  /** received = the server first saw the request (its receipt time, before reading the body), then the response's writes. */
  what: "received" | "headers" | "data" | "end" | "fin" | "reset" | "destroy";
}

/** What every response of one fake server shares: its clock, send log, metrics, concurrency cap and prefix cache. */
export interface Env {
  clock: () => bigint;
  note: (e: SendLogEntry) => void;
  metrics: FakeMetrics;
  prefixCache: PrefixCache;
  active: Set<Active>;
  queue: Active[];
  model: string;
  cap: number | null;
  capMode: "refuse" | "queue";
}

/** One response being played out. Frames are due at absolute offsets from `t0` (no drift). */
export class Active {
  readonly env: Env;
  readonly res: ServerResponse;
  readonly requestId: string;
  readonly plan: ResponsePlan;
  /** What this response puts in the prefix cache once its first token is due (null: nothing). */
  readonly prefix: PrefixInsert | null;
  #inserting: PendingInsert | null = null;
  t0 = 0n;
  /**
   * When the server first saw the request (node's 'request' event, headers parsed, before the body was read,
   * parsed and planned, and before any queueing): everything after it is the server's time.
   */
  readonly received: bigint;
  next = 0;
  seq = 0;
  headersSent = false;
  firstEventSent = false;
  /** When the first data event was written (the end of prefill in the phase histograms). */
  tFirst = 0n;
  done = false;
  timer: ReturnType<typeof setTimeout> | null = null;
  immediate: ReturnType<typeof setImmediate> | null = null;
  readonly stepBound: () => void;

  constructor(
    env: Env,
    res: ServerResponse,
    requestId: string,
    plan: ResponsePlan,
    received: bigint,
    prefix: PrefixInsert | null = null
  ) {
    this.env = env;
    this.res = res;
    this.requestId = requestId;
    this.plan = plan;
    this.received = received;
    this.prefix = prefix;
    this.stepBound = () => this.step();
  }

  start(): void {
    this.t0 = this.env.clock();
    const p = this.prefix;
    if (p !== null && this.plan.firstTokenAtMs !== null) {
      const at = Number(this.t0) / 1e6 + this.plan.firstTokenAtMs;
      this.#inserting = this.env.prefixCache.insertAt(p.words, p.block, at, p.capacity);
    }
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
    // gone before its first token was due: its prefill never finished, nothing enters the prefix cache
    if (this.#inserting !== null) this.env.prefixCache.cancel(this.#inserting, Number(this.env.clock()) / 1e6);
    if (!this.env.active.delete(this)) return;
    this.env.metrics.running--;
    this.env.metrics.generationTokens += this.plan.completionTokens;
    if (this.plan.spec !== null) this.env.metrics.spec.add(this.plan.spec);
    this.env.metrics.requestsFinished++;
    // vLLM's phases: waiting for a slot (received → start), prefill (→ first token), decode (→ end)
    const first = this.firstEventSent ? this.tFirst : this.t0;
    const s = (a: bigint, b: bigint) => Math.max(0, Number(b - a) / 1e9);
    this.env.metrics.observePhases(s(this.received, this.t0), s(this.t0, first), s(first, this.env.clock()));
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
        this.tFirst = t;
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
