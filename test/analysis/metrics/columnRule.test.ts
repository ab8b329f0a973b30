import {describe, expect, it} from "vitest";

import type {DerivedRequest} from "../../../src/analysis/derive/request.ts";
import {requestSample, sampleValues} from "../../../src/analysis/metrics/registry.ts";
import type {RequestMetric, SampleMetric} from "../../../src/analysis/metrics/types.ts";

/**
 * The one rule that fills every column of request values (a point's, a repeat's, a case tier's): what a
 * request adds, on hand-made metrics, so each clause of the rule is seen on its own.
 */
const ok = {success: true} as DerivedRequest;
const failed = {success: false} as DerivedRequest;
const requestMetric = (value: number | null, allMeasured?: boolean) =>
  ({
    kind: "request",
    value: () => value,
    ...(allMeasured === undefined ? {} : {allMeasured})
  }) as unknown as RequestMetric;

describe("requestSample: the value one measured request adds to a column", () => {
  it("adds a successful request's finite value", () => {
    expect(requestSample(requestMetric(12.5), ok)).toBe(12.5);
    expect(requestSample(requestMetric(0), ok)).toBe(0); // a measured zero is a value, not unknown
  });

  it("adds nothing for an unknown or non-finite value (unknown is not a sample)", () => {
    expect(requestSample(requestMetric(null), ok)).toBeNull();
    expect(requestSample(requestMetric(Number.NaN), ok)).toBeNull();
    expect(requestSample(requestMetric(Number.POSITIVE_INFINITY), ok)).toBeNull();
  });

  it("adds a failed request's value only to a metric over every measured request", () => {
    expect(requestSample(requestMetric(30), failed)).toBeNull();
    expect(requestSample(requestMetric(30, false), failed)).toBeNull();
    expect(requestSample(requestMetric(30, true), failed)).toBe(30);
  });
});

describe("sampleValues: the gaps one measured request adds to a sample column", () => {
  const gaps = {
    kind: "sample",
    samples: (_: DerivedRequest, emit: (v: number) => void) => [5, 7].forEach(emit)
  } as unknown as SampleMetric;
  const collect = (d: DerivedRequest) => {
    const out: number[] = [];
    sampleValues(gaps, d, (v) => out.push(v));
    return out;
  };

  it("adds a successful request's gaps and none of a failed one's", () => {
    expect(collect(ok)).toEqual([5, 7]);
    expect(collect(failed)).toEqual([]);
  });
});
