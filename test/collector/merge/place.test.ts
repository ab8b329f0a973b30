import {describe, expect, it} from "vitest";

import type {TimeSync} from "../../../src/analysis/schema/shard.ts";
import {placeShards, wallOrigin} from "../../../collector/merge/place.ts";

const synced = (offsetMs: number): TimeSync => ({
  source: "chronyc",
  synchronized: true,
  offsetMs,
  raw: null,
  reason: null
});
const unknown: TimeSync = {source: null, synchronized: null, offsetMs: null, raw: null, reason: "none"};

describe("placing shards on one timeline (issue 17)", () => {
  it("a shard's origin is wall − monotonic, the median over its anchors", () => {
    // anchors: 10:00:00.000 at 0 ns; 10:00:01.001 at 1.000 s (1 ms drift); 10:00:02.000 at 2 s
    const o = wallOrigin([
      {wall: "2026-12-02T10:00:00.000Z", tNs: 0},
      {wall: "2026-12-02T10:00:01.001Z", tNs: 1_000_000_000},
      {wall: "2026-12-02T10:00:02.000Z", tNs: 2_000_000_000}
    ]);
    const t0 = BigInt(Date.parse("2026-12-02T10:00:00.000Z")) * 1_000_000n;
    expect(o.originNs).toBe(t0); // origins t0, t0 + 1 ms, t0: median t0
    expect(o.spreadNs).toBe(1_000_000n);
  });

  it("offsets each shard from the earliest, and bounds the placement by clock resolution, drift and sync", () => {
    const places = placeShards([
      // shard 0 began 250 ms after shard 1
      {anchors: [{wall: "2026-12-02T10:00:00.250Z", tNs: 0}], timeSync: synced(0.4), host: "a"},
      {anchors: [{wall: "2026-12-02T10:00:00.000Z", tNs: 0}], timeSync: synced(-0.1), host: "b"},
      // on shard 1's host: one clock, no sync term
      {anchors: [{wall: "2026-12-02T10:00:00.500Z", tNs: 5_000_000}], timeSync: unknown, host: "b"},
      // another host whose sync is unknown: no bound
      {anchors: [{wall: "2026-12-02T10:00:00.100Z", tNs: 0}], timeSync: unknown, host: "c"}
    ]);
    expect(places.map((p) => p.offsetNs)).toEqual([250_000_000, 0, 495_000_000, 100_000_000]);
    // 1 ms resolution + 0 spread + |0.4| + |−0.1| ms
    expect(places[0]!.uncertaintyMs).toBeCloseTo(1.5, 9);
    expect(places[1]!.uncertaintyMs).toBe(0);
    expect(places[2]!.uncertaintyMs).toBe(1);
    expect(places[3]!.uncertaintyMs).toBeNull();
  });
});
