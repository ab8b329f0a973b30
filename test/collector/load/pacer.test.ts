import {afterEach, describe, expect, it, vi} from "vitest";

import {createPacer} from "../../../collector/load/pacer.ts";

const ms = 1_000_000;

describe("createPacer", () => {
  afterEach(() => vi.restoreAllMocks());

  it("resolves at or after an absolute deadline, with its lateness", async () => {
    const pacer = createPacer({spinMs: 1.5});
    const deadline = process.hrtime.bigint() + BigInt(20 * ms);
    const {lateNs} = await pacer.waitUntil(deadline);
    const now = process.hrtime.bigint();
    expect(now >= deadline).toBe(true);
    expect(lateNs).toBeGreaterThanOrEqual(0);
    expect(lateNs).toBeLessThanOrEqual(Number(now - deadline));
    // how late a busy machine makes it is a benchmark's question (npm run bench:client), not this test's
  });

  it("does not drift over a schedule of absolute deadlines", async () => {
    const origin = process.hrtime.bigint();
    const pacer = createPacer({origin, spinMs: 1.5});
    const lates: number[] = [];
    for (let i = 1; i <= 60; i++) {
      const deadline = i * 2 * ms; // every 2 ms, relative to origin
      const {lateNs} = await pacer.waitUntil(deadline);
      expect(Number(process.hrtime.bigint() - origin)).toBeGreaterThanOrEqual(deadline);
      lates.push(lateNs);
    }
    lates.sort((a, b) => a - b);
    const p50 = lates[30]! / ms;
    console.log(
      `pacer lateness over 60 deadlines 2 ms apart: p50 ${p50.toFixed(3)} ms, max ${(lates[59]! / ms).toFixed(3)} ms`
    );
    // the end of the schedule is late by its own lateness at most, never by the sum of the latenesses
    // (which a pacer that waits relative to the previous release would accumulate); this holds on a busy
    // machine too, where single waits can be tens of ms late
    const end = Number(process.hrtime.bigint() - origin) / ms;
    const worst = lates[59]! / ms;
    expect(end).toBeLessThan(120 + worst + 5);
  });

  it("resolves at once for a deadline in the past and reports how late it is", async () => {
    const pacer = createPacer();
    const past = process.hrtime.bigint() - BigInt(50 * ms);
    const {lateNs} = await pacer.waitUntil(past);
    expect(lateNs).toBeGreaterThanOrEqual(50 * ms);
  });

  it("uses the injected clock and origin", async () => {
    let t = 1000n;
    const clock = (): bigint => (t += 100_000n); // each reading advances 0.1 ms
    const pacer = createPacer({clock, origin: 1000n, spinMs: 10});
    const {lateNs} = await pacer.waitUntil(1_000_000); // 1 ms after the origin: reached after ~10 readings
    expect(lateNs).toBeGreaterThanOrEqual(0);
    expect(lateNs).toBeLessThan(100_000);
    expect(t).toBeGreaterThanOrEqual(1000n + 1_000_000n);
  });

  it("waits longer than one timer can hold in parts, never in a 1 ms spin", async () => {
    // setTimeout fires a delay over 2^31 − 1 ms after 1 ms instead: a 30-day wait would spin
    const delays: number[] = [];
    let t = 0n;
    const clock = (): bigint => (t += 1000n); // each reading advances 1 µs
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, d: number) => {
      delays.push(d);
      t += BigInt(d) * BigInt(ms); // the virtual clock moves by the delay the timer was given
      queueMicrotask(fn);
      return 0;
    }) as never);
    const pacer = createPacer({clock, spinMs: 1.5});
    const days30 = 30 * 86_400_000; // 2 592 000 000 ms
    const {lateNs} = await pacer.waitUntil(days30 * ms);
    expect(Math.max(...delays)).toBe(2 ** 31 - 1);
    // 2 592 000 000 ms = 2 147 483 647 + 444 516 353 − the 1.5 ms spin: two timers (a third for rounding at most)
    expect(delays.length).toBeGreaterThanOrEqual(2);
    expect(delays.length).toBeLessThanOrEqual(3);
    expect(lateNs).toBeGreaterThanOrEqual(0);
    expect(t).toBeGreaterThanOrEqual(BigInt(days30) * BigInt(ms));
  });

  it("rejects a negative spin", () => {
    expect(() => createPacer({spinMs: -1})).toThrow(/spinMs/);
  });
});
