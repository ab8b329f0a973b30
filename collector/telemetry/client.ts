import {monitorEventLoopDelay, performance, type EventLoopUtilization} from "node:perf_hooks";

import type {ClientRecord} from "../../src/analysis/schema/records.ts";
import {realClock} from "../effects.ts";

type LoopSample = Omit<Extract<ClientRecord, {kind: "loop"}>, "seq">;

/** Event-loop delay histogram resolution. Node records the full timer interval; we subtract it. */
const RESOLUTION_MS = 1;
/** Stalls longer than this are recorded one by one. */
const STALL_MS = 2;

export interface ClientMonitor {
  /** One window's sample (the histogram and CPU/ELU baselines are reset for the next window). */
  sample(tNs: number): LoopSample;
  close(): void;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The collector watching itself (feeds gate G6): event-loop delay p50/p99/max from
 * perf_hooks.monitorEventLoopDelay (1 ms resolution, the resolution subtracted so an idle loop reads ~0),
 * event-loop utilisation, in-flight requests, open sockets, RSS and process CPU time per window.
 */
export function createClientMonitor(
  sources: {inFlight: () => number | null; openSockets: () => number | null},
  startNs: number,
  /** The run's monotonic origin (realClock.nowNs()), so stall times share the records' time base. */
  originNs: bigint
): ClientMonitor {
  const h = monitorEventLoopDelay({resolution: RESOLUTION_MS});
  h.enable();
  // Stall detector: a 1 ms timer that notes how late it fires. A delay histogram gives each stall one
  // sample; this keeps every stall over 2 ms with its length, so the analyzer can tell how much of the
  // time (and so of the events) the client timestamped late.
  let stalls: [number, number][] = [];
  let lastTick = realClock.nowNs();
  const ticker = setInterval(() => {
    const now = realClock.nowNs();
    const lateMs = Number(now - lastTick) / 1e6 - RESOLUTION_MS;
    lastTick = now;
    if (lateMs > STALL_MS) stalls.push([Number(now - originNs), round3(lateMs)]);
  }, RESOLUTION_MS);
  ticker.unref();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  let last = startNs;
  const delay = (ns: number) => (Number.isFinite(ns) ? round3(Math.max(0, ns / 1e6 - RESOLUTION_MS)) : null);
  return {
    sample: (tNs) => {
      const count = h.count;
      const eluNow = performance.eventLoopUtilization();
      const eluWin = performance.eventLoopUtilization(eluNow, elu);
      elu = eluNow;
      const cpuWin = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const s: LoopSample = {
        kind: "loop",
        tNs,
        windowNs: Math.max(0, tNs - last),
        loopDelayP50Ms: count > 0 ? delay(h.percentile(50)) : null,
        loopDelayP99Ms: count > 0 ? delay(h.percentile(99)) : null,
        loopDelayMaxMs: count > 0 ? delay(h.max) : null,
        elu: Number.isFinite(eluWin.utilization) ? Math.min(1, Math.max(0, round3(eluWin.utilization))) : null,
        inFlight: sources.inFlight(),
        openSockets: sources.openSockets(),
        rssBytes: process.memoryUsage.rss(),
        cpuUserUs: cpuWin.user,
        cpuSystemUs: cpuWin.system,
        stalls
      };
      stalls = [];
      h.reset();
      last = tNs;
      return s;
    },
    close: () => {
      clearInterval(ticker);
      h.disable();
    }
  };
}
