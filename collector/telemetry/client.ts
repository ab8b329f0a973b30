import {createHistogram, performance, type EventLoopUtilization} from "node:perf_hooks";

import type {ClientRecord} from "../../src/analysis/schema/records.ts";
import {realClock} from "../effects.ts";

type LoopSample = Omit<Extract<ClientRecord, {kind: "loop"}>, "seq">;

/** The loop timer's period; each sample is the full interval between firings, the period subtracted. */
const RESOLUTION_MS = 1;
/** Stalls longer than this are recorded one by one. */
const STALL_MS = 2;

export interface ClientMonitor {
  /** One window's sample (the histogram and CPU/ELU baselines are reset for the next window). */
  sample(tNs: number): LoopSample;
  /** A request went in flight: the 1 ms loop timer runs (no-op when it already does). */
  watch(): void;
  /** Nothing in flight: no event can arrive late, so the 1 ms loop timer stops until the next watch(). */
  rest(): void;
  close(): void;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The collector watching itself (feeds gate G6): event-loop delay p50/p99/max and stalls over 2 ms from
 * one 1 ms timer (the period subtracted, so a free loop reads ~0), event-loop utilisation, in-flight
 * requests, open sockets, RSS and process CPU time per window.
 *
 * Cheap when idle (issue 17): a 1 ms timer costs ~25–40 ms of CPU per second of an idle loop on this VM
 * (a wake-up each), more than the events at low request rates; there were two (this one and
 * monitorEventLoopDelay's). It runs only while a request is in flight (`watch` / `rest`, called by the
 * run's in-flight tracker), when an event can arrive and be read late; with nothing in flight there is
 * nothing a stall could delay. Each window records the time it ran (`monitoredNs`), so a stall share is
 * taken over watched time, not diluted by idle time.
 */
export function createClientMonitor(
  sources: {inFlight: () => number | null; openSockets: () => number | null},
  startNs: number,
  /** The run's monotonic origin (realClock.nowNs()), so stall times share the records' time base. */
  originNs: bigint
): ClientMonitor {
  const loop = loopTimers(originNs);
  if ((sources.inFlight() ?? 0) > 0) loop.watch();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  let last = startNs;
  return {
    sample: (tNs) => {
      const eluNow = performance.eventLoopUtilization();
      const eluWin = performance.eventLoopUtilization(eluNow, elu);
      elu = eluNow;
      const cpuWin = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const s: LoopSample = {
        kind: "loop",
        tNs,
        windowNs: Math.max(0, tNs - last),
        ...loop.take(),
        elu: Number.isFinite(eluWin.utilization) ? Math.min(1, Math.max(0, round3(eluWin.utilization))) : null,
        inFlight: sources.inFlight(),
        openSockets: sources.openSockets(),
        rssBytes: process.memoryUsage.rss(),
        cpuUserUs: cpuWin.user,
        cpuSystemUs: cpuWin.system
      };
      last = tNs;
      return s;
    },
    watch: loop.watch,
    rest: loop.rest,
    close: loop.close
  };
}

type LoopPart = Pick<LoopSample, "loopDelayP50Ms" | "loopDelayP99Ms" | "loopDelayMaxMs" | "stalls" | "monitoredNs">;

/**
 * One 1 ms timer that notes each interval between its firings: the intervals go into the window's delay
 * histogram (what monitorEventLoopDelay records, from a timer of its own, which kept the idle gap as one
 * huge sample when re-enabled), and every stall over 2 ms is kept with its length and resume time — a
 * delay histogram gives a stall one sample, this lets the analyzer tell how much of the time (and so of
 * the events) the client timestamped late. `take` ends the window.
 */
function loopTimers(originNs: bigint): {watch(): void; rest(): void; close(): void; take(): LoopPart} {
  const h = createHistogram();
  let stalls: [number, number][] = [];
  let ticker: NodeJS.Timeout | null = null;
  let lastTick = 0n;
  let since: bigint | null = null;
  let monitoredNs = 0;
  let closed = false;
  const tick = () => {
    const now = realClock.nowNs();
    const intervalNs = Number(now - lastTick);
    h.record(Math.max(1, intervalNs));
    const lateMs = intervalNs / 1e6 - RESOLUTION_MS;
    lastTick = now;
    if (lateMs > STALL_MS) stalls.push([Number(now - originNs), round3(lateMs)]);
  };
  const delay = (ns: number) => (Number.isFinite(ns) ? round3(Math.max(0, ns / 1e6 - RESOLUTION_MS)) : null);
  const rest = () => {
    if (ticker === null) return;
    clearInterval(ticker);
    ticker = null;
    monitoredNs += Number(realClock.nowNs() - since!);
    since = null;
  };
  return {
    watch: () => {
      if (ticker !== null || closed) return;
      lastTick = since = realClock.nowNs();
      ticker = setInterval(tick, RESOLUTION_MS);
      ticker.unref();
    },
    rest,
    close: () => {
      closed = true;
      rest();
    },
    take: () => {
      const now = realClock.nowNs();
      if (since !== null) {
        monitoredNs += Number(now - since);
        since = now;
      }
      const count = h.count;
      const part: LoopPart = {
        loopDelayP50Ms: count > 0 ? delay(h.percentile(50)) : null,
        loopDelayP99Ms: count > 0 ? delay(h.percentile(99)) : null,
        loopDelayMaxMs: count > 0 ? delay(h.max) : null,
        stalls,
        monitoredNs
      };
      stalls = [];
      monitoredNs = 0;
      h.reset();
      return part;
    }
  };
}
