import {describe, expect, it} from "vitest";

import {planStream} from "../../../collector/load/planStream.ts";
import {arrivalOffsets, arrivalOffsetsNs} from "../../../collector/load/schedule.ts";

/** Issue 11 item 7: a plan is streamed to disk ahead of the dispatch, never held whole. */
describe("planStream", () => {
  it("writes every offset before it is handed out, in chunks, and holds at most `ahead` offsets", async () => {
    const written: number[] = [];
    let flushed = 0;
    let flushes = 0;
    const plan = planStream({
      offsets: arrivalOffsets({mode: "poisson", rate: 100, burstiness: 1, seed: 3, count: 25}),
      append: (t, i) => {
        expect(i).toBe(written.length);
        written.push(t);
      },
      flush: async () => {
        flushed = written.length;
        flushes++;
      },
      ahead: 8
    });
    await plan.prime();
    expect(written).toHaveLength(8);
    const out: number[] = [];
    for (let t = await plan.next(); t !== undefined; t = await plan.next()) {
      // the offset handed out is already on disk (flushed)
      expect(out.length).toBeLessThan(flushed);
      expect(written.length - out.length).toBeLessThanOrEqual(8);
      expect(t.index).toBe(out.length);
      out.push(t.offsetNs);
    }
    expect(out).toEqual(arrivalOffsetsNs({mode: "poisson", rate: 100, burstiness: 1, seed: 3, count: 25}));
    expect(plan.written).toBe(25);
    expect(flushes).toBeGreaterThan(2);
  });

  it("a shard's plan is its slice of the global plan: the same offsets at the ordinals i ≡ k (mod n)", async () => {
    const spec = {mode: "poisson" as const, rate: 50, burstiness: 1, seed: 9, count: 23};
    const global = arrivalOffsetsNs(spec);
    const shards = [];
    for (let k = 0; k < 4; k++) {
      const appended: [number, number][] = [];
      const plan = planStream({
        offsets: arrivalOffsets(spec),
        append: (t, i) => void appended.push([i, t]),
        flush: async () => undefined,
        ahead: 4,
        slice: {index: k, count: 4}
      });
      await plan.prime();
      const sent: [number, number][] = [];
      for (let p = await plan.next(); p !== undefined; p = await plan.next()) sent.push([p.index, p.offsetNs]);
      expect(sent).toEqual(appended); // what is sent is what the schedule holds
      expect(plan.written).toBe(sent.length);
      expect(plan.generated).toBe(23);
      shards.push(sent);
    }
    // 23 ordinals over 4 shards: 6, 6, 6, 5 — together exactly the global plan
    expect(shards.map((s) => s.length)).toEqual([6, 6, 6, 5]);
    expect(shards[1]!.slice(0, 2).map(([i]) => i)).toEqual([1, 5]);
    const union = shards.flat().sort((a, b) => a[0] - b[0]);
    expect(union).toEqual(global.map((t, i) => [i, t]));
  });

  it("holds at most `ahead` offsets while a long plan is pulled", async () => {
    let n = 0;
    let pulled = 0;
    let maxHeld = 0;
    const plan = planStream({
      offsets: arrivalOffsets({mode: "rate", rate: 100_000, burstiness: 1, seed: 1, durationS: 2}),
      append: () => void n++,
      flush: async () => undefined,
      ahead: 1000
    });
    await plan.prime();
    while ((await plan.next()) !== undefined) {
      pulled++;
      maxHeld = Math.max(maxHeld, n - pulled);
    }
    expect(pulled).toBe(200_000);
    expect(maxHeld).toBeLessThanOrEqual(1000);
  });

  it("a generated plan has no length cap (only collecting it into one array has)", () => {
    let n = 0;
    for (const _t of arrivalOffsets({mode: "rate", rate: 1_000_000, burstiness: 1, seed: 1, durationS: 6})) n++;
    expect(n).toBe(6_000_000);
    expect(() => arrivalOffsetsNs({mode: "rate", rate: 1_000_000, burstiness: 1, seed: 1, durationS: 6})).toThrow(
      /exceed 5000000 arrivals/
    );
  });
});
