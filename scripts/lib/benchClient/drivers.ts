import {request as httpRequest, type Agent} from "node:http";

import {streamRequest, type StreamResult} from "../../../collector/http/index.ts";
import {body, ms, nextId, origin, sleep} from "./common.ts";
import {measured} from "./measured.ts";
import type {ServerChild} from "./serverChild.ts";

/** The load drivers: closed-loop streams through the collector's transport, and bare node:http and fetch clients. */

export interface Phase {
  results: {id: string; r: StreamResult}[];
  cpuS: number;
  wallS: number;
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  elu: number;
  /** Longest GC pause during the phase (ms). */
  gcMaxMs: number;
  /** What gate G6 reads: the worst 500 ms window's loop-delay p99 (ms, resolution subtracted). */
  gateMs: number;
  /** Share of the phase (%) during which the loop was more than 5 ms behind. */
  stallPct: number;
}

/** N concurrent streams (closed loop), `perStream` sequential requests each, starts staggered over `staggerMs`. */
export async function streams(
  url: string,
  agent: Agent,
  o: {concurrency: number; perStream: number; maxTokens: number; options: Record<string, unknown>; staggerMs: number}
): Promise<Phase> {
  const headers = {"x-fake-options": JSON.stringify(o.options)};
  const b = body(o.maxTokens);
  const run = await measured(async () => {
    const out: {id: string; r: StreamResult}[] = [];
    await Promise.all(
      Array.from({length: o.concurrency}, async (_, w) => {
        if (o.staggerMs > 0) await sleep((w / o.concurrency) * o.staggerMs);
        for (let k = 0; k < o.perStream; k++) {
          const id = nextId();
          const r = await streamRequest({
            url: url + "/chat/completions",
            headers: {...headers, "x-request-id": id},
            body: b,
            origin,
            agent,
            keepText: true,
            timeouts: {connectMs: 10_000, headersMs: 30_000, idleMs: 30_000}
          });
          out.push({id, r});
        }
      })
    );
    return out;
  });
  return {
    results: run.value,
    cpuS: run.cpuS,
    wallS: run.wallS,
    loopP50Ms: run.loop[0]!,
    loopP99Ms: run.loop[1]!,
    loopMaxMs: run.loop[2]!,
    elu: run.elu,
    gcMaxMs: run.gcMaxMs,
    gateMs: run.gateMs,
    stallPct: run.stallPct
  };
}

/** Results of a phase: what the counting helpers below read. */
export type Results = Pick<Phase, "results">;

/** Timing errors (ms): TTFT = first content event, per-event = every event; collector − server send time. */
export async function timingErrors(
  server: ServerChild,
  p: Results
): Promise<{ttft: number[]; perEvent: number[]; lost: number}> {
  const sent = await server.events(p.results.map((x) => x.id));
  const ttft: number[] = [];
  const perEvent: number[] = [];
  let lost = 0;
  for (const {id, r} of p.results) {
    const s = sent.get(id)!;
    if (s.length !== r.events.length) {
      lost += Math.abs(s.length - r.events.length);
      continue;
    }
    let first = true;
    r.events.forEach((e, i) => {
      const err = ms(e[0] - s[i]!);
      perEvent.push(err);
      if (first && e[2] === "content") {
        ttft.push(err);
        first = false;
      }
    });
  }
  return {ttft, perEvent, lost};
}

export const ok = (p: Results): number =>
  p.results.filter(({r}) => r.transportError === null && r.httpStatus === 200).length;
export const eventCount = (p: Results): number => p.results.reduce((a, {r}) => a + r.events.length, 0);
/** Events per socket read: events that share an arrival time came in one chunk. */
export function eventsPerRead(p: Results): number {
  let reads = 0;
  for (const {r} of p.results) {
    let last = NaN;
    for (const e of r.events) {
      if (e[0] === last) continue;
      reads++;
      last = e[0];
    }
  }
  return eventCount(p) / Math.max(1, reads);
}

/** Opens `n` keep-alive sockets (n concurrent one-token requests) so a measured phase does not time a connection storm. */
export async function warm(url: string, agent: Agent, n: number): Promise<void> {
  await streams(url, agent, {
    concurrency: n,
    perStream: 1,
    maxTokens: 1,
    options: {ttftMs: 0, tokenIntervalMs: 0},
    staggerMs: 0
  });
}

/** Bare node:http client: split on blank lines and JSON.parse each payload; no timestamps kept. */
export function bareHttp(url: string, agent: Agent, b: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {method: "POST", agent, headers: {...headers, "content-type": "application/json"}});
    req.on("error", reject);
    req.on("response", (res) => {
      res.setEncoding("utf8");
      let buf = "";
      let n = 0;
      res.on("data", (s: string) => {
        buf += s;
        for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (!ev.startsWith("data: ")) continue;
          const d = ev.slice(6);
          if (d !== "[DONE]") JSON.parse(d);
          n++;
        }
      });
      res.on("end", () => resolve(n));
    });
    req.end(b);
  });
}

/** fetch client: the same parsing over a web ReadableStream. */
export async function fetchClient(url: string, b: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, {method: "POST", body: b, headers: {...headers, "content-type": "application/json"}});
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let n = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    buf += dec.decode(value, {stream: true});
    for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
      const ev = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (!ev.startsWith("data: ")) continue;
      const d = ev.slice(6);
      if (d !== "[DONE]") JSON.parse(d);
      n++;
    }
  }
  return n;
}
