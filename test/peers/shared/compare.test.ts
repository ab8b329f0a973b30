import {describe, expect, it} from "vitest";

import {canonicalRef, canonicalRun, unitScale, type CanonicalView} from "../../../src/analysis/peers/shared/compare.ts";

const view: CanonicalView = {values: () => [1, 2, 3, 4], run: () => ({value: 7})};

describe("canonical references: our metric, as the metrics registry defines it", () => {
  it("canonical references name the registry's percentile method and refuse a metric of the wrong kind", () => {
    expect(canonicalRef(view, "ttft_ms", {p: 90})?.metric).toBe("ttft_ms p90 (nearest rank)");
    expect(canonicalRef(view, "ttft_ms", {p: 50})?.metric).toBe("ttft_ms p50 (median)");
    expect(() => canonicalRef(view, "window_s", "mean")).toThrow(/window_s: expected a nearest-rank distribution/);
    expect(() => canonicalRef(view, "no_such_metric", "mean")).toThrow(/no_such_metric/);
    expect(() => canonicalRun(view, "ttft_ms")).toThrow(/ttft_ms: expected a run metric/);
    expect(canonicalRun(view, "window_s")).toEqual({metric: "window_s", value: 7});
  });

  it("unitScale converts registry time units to the source's and leaves everything else alone", () => {
    expect(unitScale("ms", "s")).toBe(1e-3);
    expect(unitScale("ms/token", "s")).toBe(1e-3);
    expect(unitScale("ms", "ms")).toBe(1);
    expect(unitScale("ms", "ns")).toBe(1e6);
    expect(unitScale("tokens", "tokens")).toBe(1);
    expect(unitScale("tok/s/user", "tokens/sec/user")).toBe(1);
    expect(unitScale("ms", undefined)).toBe(1);
    expect(unitScale("ms", "")).toBe(1);
    expect(canonicalRef(view, "ttft_ms", "mean", "s")?.value).toBe(2.5e-3);
  });
});
