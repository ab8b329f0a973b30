import {tokensPerEvent, CHUNK_METRICS} from "./chunks.ts";
import {LATENCY_METRICS} from "./latency.ts";
import {REASONING_METRICS} from "./reasoning.ts";
import {SPEED_METRICS} from "./speed.ts";
import {RUN_METRICS} from "./throughput.ts";
import type {DerivedRequest} from "../derive/request.ts";
import type {MetricDef, RequestMetric, RunMetric, SampleMetric} from "./types.ts";

/** Every metric InferScope publishes, defined once. Tables, charts and the methodology page read this list. */
export const METRICS: readonly MetricDef[] = [
  ...LATENCY_METRICS,
  ...SPEED_METRICS,
  ...REASONING_METRICS,
  tokensPerEvent,
  ...CHUNK_METRICS,
  ...RUN_METRICS
];

export const REQUEST_METRICS = METRICS.filter((m): m is RequestMetric => m.kind === "request");
export const SAMPLE_METRICS = METRICS.filter((m): m is SampleMetric => m.kind === "sample");
export const RUN_METRIC_DEFS = METRICS.filter((m): m is RunMetric => m.kind === "run");

const BY_ID = new Map<string, MetricDef>(METRICS.map((m) => [m.id, m]));

export function metricById(id: string): MetricDef {
  const m = BY_ID.get(id);
  if (!m) throw new Error(`unknown metric id: ${id}`);
  return m;
}

export const HEADLINE_METRICS = METRICS.filter((m) => m.headline);

/**
 * The value one measured request adds to a request metric's column, or null when it adds none: a failed
 * request counts only in a metric over every measured request (`allMeasured`); an unknown or non-finite value
 * is no sample. Every column of request values (a point's, a repeat's, a case tier's) is filled by this rule.
 */
export function requestSample(m: RequestMetric, d: DerivedRequest): number | null {
  if (!(m.allMeasured ?? false) && !d.success) return null;
  const v = m.value(d);
  return v !== null && Number.isFinite(v) ? v : null;
}

/** The values one measured request adds to a sample metric's column: a successful request's gaps, none of a failure's. */
export function sampleValues(m: SampleMetric, d: DerivedRequest, emit: (value: number) => void): void {
  if (d.success) m.samples(d, emit);
}
