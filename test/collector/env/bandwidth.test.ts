import {describe, expect, it} from "vitest";

import {MemoryBandwidthProbe} from "../../../src/analysis/schema/manifest.ts";
import {bandwidthPlan, hostBandwidth, measureMemoryBandwidth} from "../../../collector/env/bandwidth.ts";

const MIB = 1024 * 1024;

describe("host memory bandwidth probe", () => {
  it("bandwidthPlan: one thread per core up to 64, 64 MiB each, 2 GiB in all, never under 16 MiB", () => {
    expect(bandwidthPlan(0)).toEqual({threads: 1, bufferBytes: 64 * MIB});
    expect(bandwidthPlan(2)).toEqual({threads: 2, bufferBytes: 64 * MIB});
    expect(bandwidthPlan(16)).toEqual({threads: 16, bufferBytes: 64 * MIB});
    expect(bandwidthPlan(32)).toEqual({threads: 32, bufferBytes: 32 * MIB});
    expect(bandwidthPlan(192)).toEqual({threads: 64, bufferBytes: 16 * MIB});
  });

  it("records raw passes in the schema's shape: threads, bytes moved, positive ns (speeds not asserted)", async () => {
    const r = await measureMemoryBandwidth({bufferBytes: 4 * MIB, timeoutMs: 20_000});
    expect(MemoryBandwidthProbe.safeParse(r).success).toBe(true);
    expect(r.error).toBeNull();
    expect(r.method).toBe("parallel-copy");
    expect(r.threads).toBeGreaterThanOrEqual(1);
    expect(r.bufferBytes).toBe(4 * MIB);
    expect(r.trials).toHaveLength(5);
    for (const t of r.trials) {
      expect(t.bytesMoved).toBe(2 * 4 * MIB * r.threads);
      expect(t.ns).toBeGreaterThan(0);
    }
  });

  it("the default probe (64 MiB per thread) finishes within its bound", async () => {
    const r = await measureMemoryBandwidth({timeoutMs: 20_000});
    expect(r.error).toBeNull();
    expect(r.trials).toHaveLength(5);
  });

  it("past its deadline it records the error with no trials, and returns", async () => {
    const r = await measureMemoryBandwidth({threads: 2, timeoutMs: 1});
    expect(r).toMatchObject({trials: [], error: "bandwidth probe timed out after 1 ms"});
    expect(MemoryBandwidthProbe.safeParse(r).success).toBe(true);
  });

  it("INFERSCOPE_NO_BANDWIDTH=1 skips it, saying so", async () => {
    const r = await hostBandwidth({env: {INFERSCOPE_NO_BANDWIDTH: "1"}});
    expect(r).toEqual({
      method: "parallel-copy",
      threads: 0,
      bufferBytes: 0,
      trials: [],
      error: "skipped: INFERSCOPE_NO_BANDWIDTH=1"
    });
    expect(MemoryBandwidthProbe.safeParse(r).success).toBe(true);
  });
});
