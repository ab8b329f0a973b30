import {describe, expect, it} from "vitest";

import type {Clock} from "../../../collector/effects.ts";
import {RunControl, Semaphore} from "../../../collector/load/control.ts";
import {runClosedLoop, runOpenLoop, type PhaseContext} from "../../../collector/load/dispatch.ts";
import type {Pacer} from "../../../collector/load/pacer.ts";

/** A clock the test moves by hand. */
function manualClock(): Clock & {t: bigint} {
  const c = {t: 1_000n, nowNs: () => c.t, wallMs: () => 0};
  return c;
}

const tick = () => new Promise((r) => setImmediate(r));

describe("closed loop", () => {
  it("keeps exactly N in flight; later requests are scheduled at their predecessor's end", async () => {
    const clock = manualClock();
    const control = new RunControl();
    let inFlight = 0;
    let peak = 0;
    const calls: {i: number; tSched: number; end: number}[] = [];
    const ctx: PhaseContext = {
      control,
      clock,
      origin: 0n,
      send: async (i, tSched) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await tick();
        clock.t += 10n;
        inFlight--;
        const end = Number(clock.t);
        calls.push({i, tSched, end});
        return end;
      }
    };
    const n = await runClosedLoop(ctx, {concurrency: 3, count: 10, durationNs: null});
    expect(n).toBe(10);
    expect(peak).toBe(3);
    expect(calls.map((c) => c.i).sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    const first = calls.filter((c) => c.i < 3);
    expect(first.every((c) => c.tSched === 1000)).toBe(true);
    const ends = new Set(calls.map((c) => c.end));
    expect(calls.filter((c) => c.i >= 3).every((c) => ends.has(c.tSched))).toBe(true);
  });

  it("duration-bound: no request starts after the deadline", async () => {
    const clock = manualClock();
    const starts: bigint[] = [];
    const ctx: PhaseContext = {
      control: new RunControl(),
      clock,
      origin: 0n,
      send: async () => {
        starts.push(clock.t);
        await tick();
        clock.t += 30n;
        return Number(clock.t);
      }
    };
    await runClosedLoop(ctx, {concurrency: 2, count: null, durationNs: 100});
    expect(starts.length).toBeGreaterThan(2);
    expect(starts.every((t) => t < 1_100n)).toBe(true);
  });

  it("stops dispatching when the run is stopped", async () => {
    const clock = manualClock();
    const control = new RunControl();
    let sent = 0;
    const ctx: PhaseContext = {
      control,
      clock,
      origin: 0n,
      send: async () => {
        if (++sent === 4) control.stop("interrupt", "test", 0);
        await tick();
        return Number(clock.t);
      }
    };
    await runClosedLoop(ctx, {concurrency: 2, count: 100, durationNs: null});
    expect(sent).toBeLessThanOrEqual(5);
  });
});

describe("open loop", () => {
  /** A pacer that jumps the clock to each deadline. */
  const jumpPacer = (clock: {t: bigint}, late = 0n): Pacer => ({
    waitUntil: async (deadline) => {
      const d = BigInt(deadline);
      await tick();
      if (clock.t < d) clock.t = d + late;
      return {lateNs: Number(late)};
    }
  });

  it("schedules at phase start + offset, whatever the dispatch lateness", async () => {
    const clock = manualClock();
    const seen: {i: number; tSched: number; at: bigint}[] = [];
    const ctx: PhaseContext = {
      control: new RunControl(),
      clock,
      origin: 0n,
      send: async (i, tSched) => {
        seen.push({i, tSched, at: clock.t});
        await tick();
        return Number(clock.t);
      }
    };
    let t0 = -1n;
    const n = await runOpenLoop(ctx, {
      offsetsNs: [0, 50, 100, 400],
      maxConcurrency: null,
      pacer: jumpPacer(clock, 7n),
      onStart: (t) => (t0 = t)
    });
    expect(n).toBe(4);
    expect(t0).toBe(1_000n);
    expect(seen.map((s) => s.tSched)).toEqual([1000, 1050, 1100, 1400]);
    expect(seen.slice(1).map((s) => s.at)).toEqual([1057n, 1107n, 1407n]);
  });

  it("max_concurrency holds later arrivals until a slot frees; their schedule is unchanged", async () => {
    const clock = manualClock();
    let inFlight = 0;
    let peak = 0;
    const sched: number[] = [];
    const releases: (() => void)[] = [];
    const ctx: PhaseContext = {
      control: new RunControl(),
      clock,
      origin: 0n,
      send: (_i, tSched) => {
        sched.push(tSched);
        inFlight++;
        peak = Math.max(peak, inFlight);
        return new Promise<number>((resolve) =>
          releases.push(() => {
            inFlight--;
            resolve(Number(clock.t));
          })
        );
      }
    };
    const run = runOpenLoop(ctx, {
      offsetsNs: [0, 1, 2, 3],
      maxConcurrency: 2,
      pacer: jumpPacer(clock),
      onStart: () => undefined
    });
    for (let k = 0; k < 20 && releases.length < 2; k++) await tick();
    expect(sched).toHaveLength(2);
    releases.shift()!();
    for (let k = 0; k < 20 && sched.length < 3; k++) await tick();
    expect(sched).toHaveLength(3);
    while (sched.length < 4 || releases.length > 0) {
      releases.shift()?.();
      await tick();
    }
    await run;
    expect(peak).toBe(2);
    expect(sched).toEqual([1000, 1001, 1002, 1003]);
  });
});

describe("Semaphore", () => {
  it("serves waiters in order", async () => {
    const s = new Semaphore(1);
    const order: number[] = [];
    await s.acquire();
    const a = s.acquire().then(() => order.push(1));
    const b = s.acquire().then(() => order.push(2));
    s.release();
    await a;
    s.release();
    await b;
    expect(order).toEqual([1, 2]);
  });
});
