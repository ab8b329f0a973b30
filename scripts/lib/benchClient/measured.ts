import {monitorEventLoopDelay, performance, PerformanceObserver} from "node:perf_hooks";

import {nowNs, sleep} from "./common.ts";

/** Measures CPU, wall, event-loop delay and utilisation around `fn`. */
export async function measured<T>(fn: () => Promise<T>): Promise<{
  value: T;
  cpuS: number;
  wallS: number;
  loop: number[];
  elu: number;
  gcMaxMs: number;
  gateMs: number;
  stallPct: number;
}> {
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, e.duration);
  });
  gc.observe({entryTypes: ["gc"]});
  const h = monitorEventLoopDelay({resolution: 1});
  // G6's view: the worst 500 ms window's loop-delay p99, resolution subtracted (collector/telemetry/client.ts)
  const w = monitorEventLoopDelay({resolution: 1});
  let gateMs = 0;
  const closeWindow = (): void => {
    if (w.count > 0) gateMs = Math.max(gateMs, w.percentile(99) / 1e6 - 1);
    w.reset();
  };
  const windows = setInterval(closeWindow, 500);
  // Event-weighted view of the same stalls: a stall of d ms delays every event that arrives during it,
  // so the share of time the loop is more than 5 ms behind, Σ max(0, d − 5 ms) / T, is the share of
  // events delayed by more than 5 ms (a 1 ms timer chain measures each d exactly).
  let stallNs = 0;
  let prevTick = nowNs();
  let ticking = true;
  const tick = (): void => {
    const t = nowNs();
    const late = t - prevTick - 1e6;
    if (late > 5e6) stallNs += late - 5e6;
    prevTick = t;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const elu0 = performance.eventLoopUtilization();
  h.enable();
  w.enable();
  const c0 = process.cpuUsage();
  const t0 = nowNs();
  const value = await fn();
  const wallS = (nowNs() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  ticking = false;
  h.disable();
  clearInterval(windows);
  closeWindow();
  w.disable();
  const elu = performance.eventLoopUtilization(elu0).utilization;
  // resolution subtracted, as the collector records it
  const loop = [h.percentile(50) / 1e6 - 1, h.percentile(99) / 1e6 - 1, h.max / 1e6 - 1].map((x) => Math.max(0, x));
  await sleep(0); // let the observer deliver the last entries
  gc.disconnect();
  const stallPct = (100 * stallNs) / (wallS * 1e9);
  return {value, cpuS: (c.user + c.system) / 1e6, wallS, loop, elu, gcMaxMs, gateMs: Math.max(0, gateMs), stallPct};
}
