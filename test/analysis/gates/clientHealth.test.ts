import {describe, expect, it} from "vitest";

import {stallShare} from "../../../src/analysis/gates/client.ts";

const MS = 1_000_000;

describe("G6 stall share", () => {
  it("is the share of time the loop ran more than the budget late", () => {
    // one 55 ms stall in 10 windows of 500 ms: 50 ms over a 5 ms budget out of 5 s = 1 %
    const windows = Array.from({length: 10}, (_, i) => ({
      windowNs: 500 * MS,
      stalls: i === 3 ? ([[1_700 * MS, 55]] as [number, number][]) : []
    }));
    expect(stallShare(windows, 5)).toBeCloseTo(0.01, 12);
  });

  it("ignores stalls under the budget and windows that did not measure stalls", () => {
    expect(
      stallShare(
        [
          {windowNs: 500 * MS, stalls: [[1, 4.9]]},
          {windowNs: 500 * MS, stalls: null}
        ],
        5
      )
    ).toBe(0);
    expect(stallShare([{windowNs: 500 * MS, stalls: null}], 5)).toBeNull();
  });

  it("counts watched time only: a window whose monitors ran 100 of its 500 ms divides by 100 ms", () => {
    // 10 ms stall → 5 ms over budget; 5 / 100 = 5 % (over the whole window it would read 1 %)
    const w = {windowNs: 500 * MS, monitoredNs: 100 * MS, stalls: [[50 * MS, 10]] as [number, number][]};
    expect(stallShare([w], 5)).toBeCloseTo(0.05, 12);
    // an idle window (monitors off throughout, nothing recorded) adds neither time nor stalls
    expect(stallShare([w, {windowNs: 500 * MS, monitoredNs: 0, stalls: []}], 5)).toBeCloseTo(0.05, 12);
    expect(stallShare([{windowNs: 500 * MS, monitoredNs: 0, stalls: []}], 5)).toBeNull();
  });

  it("catches a single long stall that a window's delay p99 cannot see", () => {
    // a 1 ms timer samples ~500 delays per window: one 60 ms stall is 1 sample, far above the p99 rank
    const share = stallShare([{windowNs: 500 * MS, stalls: [[100 * MS, 60]]}], 5)!;
    expect(share).toBeGreaterThan(0.1);
  });
});

describe("G16 bursts the client's own stalls explain", () => {
  it("a burst within 2 ms of a recorded stall's end (≥ 5 ms) is the client's; others are the server's", async () => {
    const {clientExplained} = await import("../../../src/analysis/gates/streaming.ts");
    const loop = [
      {
        stalls: [
          [100 * MS, 30],
          [500 * MS, 4]
        ] as [number, number][]
      },
      {stalls: null}
    ];
    // 101 ms: 1 ms after a 30 ms stall ended → explained; 499 ms: after a 4 ms stall (< 5 ms) → not;
    // 300 ms: no stall near → not
    expect(
      clientExplained(
        [
          {id: "a", tNs: 101 * MS},
          {id: "b", tNs: 499 * MS},
          {id: "c", tNs: 300 * MS}
        ],
        loop
      )
    ).toBe(1);
    expect(clientExplained([{id: "d", tNs: 97 * MS}], loop)).toBe(0); // 3 ms before the resume
  });
});
