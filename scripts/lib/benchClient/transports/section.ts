import {constants, PerformanceObserver} from "node:perf_hooks";

import {greatest} from "d3-array";

import type {StreamResult} from "../../../../collector/http/index.ts";
import type {Bench} from "../bench.ts";
import {body, f, median, nextId, nowNs, pct, QUICK, sleep, table, type Row} from "../common.ts";
import {eventCount, eventsPerRead, ok, timingErrors} from "../drivers.ts";
import {CANDIDATES, type Candidate, type Transport} from "./candidates.ts";

/**
 * (i) HTTP client candidates, each with the collector's full raw capture: events per CPU-second and the per-event
 * timing error in the same run, at 1 and 100 streams with one event per read (the server paces each stream), the
 * candidates interleaved in every repetition. CPU is the process's (user + system) over the phase, plus the
 * serialisation of every record as the writer does it; no loop monitors run (they cost the same for every
 * candidate and would blur the ratio at one stream).
 */

export interface CandidateRun {
  events: number;
  cpuS: number;
  perEvent: number[];
  lost: number;
  failed: number;
  gcMs: number;
  gcMaxMs: number;
  /** Kind of the longest pause: minor (scavenge), major (mark-compact), incremental, weak callbacks. */
  gcMaxKind: string;
  perRead: number;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks"
};

export interface Level {
  streams: number;
  perStream: number;
  tokens: number;
  intervalMs: number;
}

export const LEVELS: readonly Level[] = [
  {streams: 1, perStream: QUICK ? 5 : 10, tokens: 200, intervalMs: 2},
  {streams: 100, perStream: 1, tokens: QUICK ? 100 : 200, intervalMs: 5}
];

/** Runs `level` once through `t`: closed loop, `streams` concurrent, `perStream` sequential requests each. */
async function phase(
  t: Transport,
  level: Level
): Promise<{results: {id: string; r: StreamResult}[]; cpuS: number; chars: number}> {
  const headers = {"x-fake-options": JSON.stringify({ttftMs: 0, tokenIntervalMs: level.intervalMs})};
  const b = body(level.tokens);
  const results: {id: string; r: StreamResult}[] = [];
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({length: level.streams}, async (_, w) => {
      // starts spread over one token interval, so the server's writes do not all fall on the same instant
      if (level.streams > 1 && level.intervalMs > 0) await sleep((w / level.streams) * level.intervalMs);
      for (let k = 0; k < level.perStream; k++) {
        const id = nextId();
        results.push({id, r: await t.send("/chat/completions", {...headers, "x-request-id": id}, b)});
      }
    })
  );
  // full raw capture includes serialising each record as the writer would
  const chars = results.reduce((a, {r}) => a + JSON.stringify(r).length, 0);
  const c = process.cpuUsage(c0);
  return {results, cpuS: (c.user + c.system) / 1e6, chars};
}

/** One measured run of `cand` at `level`, on warm keep-alive connections, errors against the server's send log. */
export async function runCandidate({url, server}: Pick<Bench, "url" | "server">, cand: Candidate, level: Level) {
  const t = cand.open(url, level.streams);
  try {
    // warm: JIT of this candidate's path and one keep-alive socket per stream
    await phase(t, {streams: level.streams, perStream: 2, tokens: 4, intervalMs: 0});
    await server.events([]);
    await sleep(50);
    let gcMs = 0;
    let gcMaxMs = 0;
    let gcMaxKind = "none";
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        gcMs += e.duration;
        if (e.duration <= gcMaxMs) continue;
        gcMaxMs = e.duration;
        gcMaxKind = GC_KINDS[(e as PerformanceEntry & {detail?: {kind?: number}}).detail?.kind ?? -1] ?? "other";
      }
    });
    gc.observe({entryTypes: ["gc"]});
    const p = await phase(t, level);
    await sleep(0);
    gc.disconnect();
    const e = await timingErrors(server, p);
    const run: CandidateRun = {
      events: eventCount(p),
      cpuS: p.cpuS,
      perEvent: e.perEvent,
      lost: e.lost,
      failed: p.results.length - ok(p),
      gcMs,
      gcMaxMs,
      gcMaxKind,
      perRead: eventsPerRead(p)
    };
    return run;
  } finally {
    await t.close();
  }
}

export interface CandidateSummary {
  name: string;
  streams: number;
  eventsPerCpuS: number;
  p50: number | null;
  p99: number | null;
}

function longestGc(rs: CandidateRun[]): string {
  const worst = greatest(rs, (r) => r.gcMaxMs);
  return worst === undefined || worst.gcMaxMs === 0 ? "none" : `${f(worst.gcMaxMs, 1)} (${worst.gcMaxKind})`;
}

/** (i) The table: every candidate at every level, medians of `reps` interleaved repetitions. */
export async function transportCandidates(bench: Bench): Promise<CandidateSummary[]> {
  const {say, reps} = bench;
  const rows: Row[] = [];
  const out: CandidateSummary[] = [];
  const t0 = nowNs();
  for (const level of LEVELS) {
    const runs = new Map<string, CandidateRun[]>(CANDIDATES.map((c) => [c.name, []]));
    for (let k = 0; k < reps; k++)
      for (const c of CANDIDATES) runs.get(c.name)!.push(await runCandidate(bench, c, level));
    const base = median(runs.get(CANDIDATES[0]!.name)!.map((r) => r.events / r.cpuS));
    for (const c of CANDIDATES) {
      const rs = runs.get(c.name)!;
      const rate = median(rs.map((r) => r.events / r.cpuS));
      const p50 = median(rs.map((r) => pct(r.perEvent, 0.5) ?? Infinity));
      const p99 = median(rs.map((r) => pct(r.perEvent, 0.99) ?? Infinity));
      out.push({name: c.name, streams: level.streams, eventsPerCpuS: rate, p50, p99});
      rows.push({
        cells: [
          c.name,
          `${level.streams} × ${level.perStream} × ${level.tokens} (${level.intervalMs} ms)`,
          f(median(rs.map((r) => r.perRead))),
          Math.round(rate).toLocaleString("en-US"),
          (rate / base).toFixed(2),
          f(p50, 3),
          f(p99, 3),
          f(median(rs.map((r) => (1000 * r.gcMs) / Math.max(1, r.events))), 2),
          longestGc(rs),
          String(rs.reduce((a, r) => a + r.lost, 0)),
          String(rs.reduce((a, r) => a + r.failed, 0)),
          c.clock
        ]
      });
    }
  }
  say(
    `\n### (i) HTTP client candidates with the collector's full raw capture (median of ${reps}, interleaved; ${((nowNs() - t0) / 1e9).toFixed(0)} s)\n`
  );
  say(
    "Each candidate feeds the same capture (collector/http/sse.ts + events.ts: UTF-8 decode, eventsource-parser, classification, usage, one event tuple per event, the record serialised as the writer does) and records the request builder's time points; only the way bytes get from the socket to the capture differs. Events per CPU-second: SSE events (content, usage, [DONE]) over the client process's user + system CPU (no loop monitors running); per-event error: client arrival stamp − the fake server's own send time of the same event (one monotonic clock). Warm keep-alive sockets. `--transports` measures this section alone, on its own run: compare the ratios within this table, not its absolute numbers with other tables (the machine's speed moves between runs).\n"
  );
  say(
    table(
      [
        "client",
        "streams × requests × tokens (interval)",
        "events per read",
        "events per CPU-second",
        "vs collector",
        "per-event error p50 (ms)",
        "p99 (ms)",
        "GC ms per 1,000 events",
        "longest GC pause (ms, kind)",
        "lost",
        "failed",
        "arrival clock read at"
      ],
      rows
    )
  );
  return out;
}
