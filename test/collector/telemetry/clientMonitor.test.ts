import {describe, expect, it} from "vitest";

import {RunControl} from "../../../collector/load/control.ts";
import {createClientMonitor} from "../../../collector/telemetry/client.ts";
import {realClock} from "../../../collector/effects.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Blocks the event loop for `ms` (an injected stall). */
const block = (ms: number) => {
  const until = process.hrtime.bigint() + BigInt(ms * 1e6);
  while (process.hrtime.bigint() < until);
};

describe("client self-monitoring, cheap when idle (issue 17)", () => {
  it("with nothing in flight the 1 ms monitors do not run; while watched they see a stall and the time they ran", async () => {
    const origin = realClock.nowNs();
    const m = createClientMonitor({inFlight: () => 0, openSockets: () => 0}, 0, origin);
    try {
      await sleep(30);
      block(20); // unwatched: nothing in flight, nothing it could delay
      const idle = m.sample(60e6);
      expect(idle).toMatchObject({monitoredNs: 0, stalls: [], loopDelayP99Ms: null, loopDelayMaxMs: null});
      m.watch();
      await sleep(30);
      block(25);
      await sleep(10);
      m.rest();
      await sleep(30);
      const busy = m.sample(200e6);
      // watched ≈ 30 + 25 + 10 ms (timers are late on a busy machine, so only bounds)
      expect(busy.monitoredNs!).toBeGreaterThanOrEqual(60e6);
      expect(busy.monitoredNs!).toBeLessThan(busy.windowNs);
      const longest = Math.max(0, ...busy.stalls!.map(([, ms]) => ms));
      expect(longest).toBeGreaterThan(20);
      expect(busy.loopDelayMaxMs!).toBeGreaterThan(20);
    } finally {
      m.close();
    }
  });

  it("after close a late watch() starts nothing", async () => {
    const m = createClientMonitor({inFlight: () => 0, openSockets: () => 0}, 0, realClock.nowNs());
    m.close();
    m.watch();
    await sleep(20);
    expect(m.sample(20e6).monitoredNs).toBe(0);
  });

  it("starts watching when a request is already in flight", async () => {
    const m = createClientMonitor({inFlight: () => 1, openSockets: () => 1}, 0, realClock.nowNs());
    await sleep(20);
    expect(m.sample(20e6).monitoredNs!).toBeGreaterThan(10e6);
    m.close();
  });
});

describe("RunControl tells the monitor when the client goes busy and idle", () => {
  it("watch on the first request in flight, rest when the last one ends, nothing in between", () => {
    const calls: string[] = [];
    const control = new RunControl();
    control.onBusy({watch: () => calls.push("watch"), rest: () => calls.push("rest")});
    const a = control.track();
    const b = control.track();
    control.untrack(a);
    expect(calls).toEqual(["watch"]);
    control.untrack(b);
    control.untrack(b); // twice: not a second rest
    expect(calls).toEqual(["watch", "rest"]);
    control.track();
    expect(calls).toEqual(["watch", "rest", "watch"]);
  });

  it("a monitor attached while requests are in flight starts watching at once", () => {
    const control = new RunControl();
    control.track();
    const calls: string[] = [];
    control.onBusy({watch: () => calls.push("watch"), rest: () => calls.push("rest")});
    expect(calls).toEqual(["watch"]);
  });
});
