import {describe, expect, it} from "vitest";

import {inFlightProfile} from "../../../src/analysis/metrics/inflight.ts";

/** Requests in flight, swept by hand: intervals [start, end) in ns, a window [from, to]. */
describe("inFlightProfile", () => {
  it("clips intervals to the window: (0,10) and (5,15) in [2,12] → 1·3 + 2·5 + 1·2 = 15 over 10 → mean 1.5, peak 2", () => {
    expect(inFlightProfile(Float64Array.of(0, 5), Float64Array.of(10, 15), 2, 12)).toEqual({mean: 1.5, peak: 2});
  });

  it("sorts its own copies: unsorted pairs give the same profile and the caller's arrays are left as they were", () => {
    const starts = Float64Array.of(5, 0);
    const ends = Float64Array.of(15, 10);
    expect(inFlightProfile(starts, ends, 2, 12)).toEqual({mean: 1.5, peak: 2});
    expect([...starts]).toEqual([5, 0]);
    expect([...ends]).toEqual([15, 10]);
  });

  it("a slot freed and reused at the same instant counts once: (0,10) then (10,20) → mean 1, peak 1", () => {
    expect(inFlightProfile(Float64Array.of(0, 10), Float64Array.of(10, 20), 0, 20)).toEqual({mean: 1, peak: 1});
  });

  it("idle stretches inside the window count as zero: (4,6) in [0,10] → mean 0.2", () => {
    expect(inFlightProfile(Float64Array.of(4), Float64Array.of(6), 0, 10)).toEqual({mean: 0.2, peak: 1});
  });

  it("an empty or zero-length window has no mean (unknown, not 0 or NaN)", () => {
    expect(inFlightProfile(Float64Array.of(0), Float64Array.of(10), 5, 5)).toEqual({mean: null, peak: 0});
    expect(inFlightProfile(Float64Array.of(0), Float64Array.of(10), 6, 5)).toEqual({mean: null, peak: 0});
    expect(inFlightProfile(new Float64Array(), new Float64Array(), 0, 1)).toEqual({mean: null, peak: 0});
  });
});
