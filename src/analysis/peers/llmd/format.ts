import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";

/**
 * The llm-d Benchmark Report (llm-d-benchmark, versions 0.2 and 0.2.1): `{version, run {uid, time…},
 * scenario {stack[], load}, results {request_performance {aggregate {requests, latency, throughput}}}}`,
 * YAML (as the harness writes it) or JSON. Version 0.1 (top-level `metrics`) is a different layout.
 */
export const isLlmdReport = (v: unknown): boolean =>
  isObject(v) &&
  isObject(v.run) &&
  isObject(v.results) &&
  (v.version === undefined || /^v?0\.2(\.\d+)?$/.test(String(v.version)));

export function detectLlmd(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => d.kind !== "jsonl" && isLlmdReport(d.value)).map((d) => d.name);
  return files.length ? {tool: "llmd-report", files, shape: "llm-d Benchmark Report v0.2"} : null;
}

export const LLMD_EXPECTED =
  "llm-d Benchmark Report v0.2/v0.2.1: YAML or JSON with version, run {uid}, results {request_performance {aggregate {requests, latency, throughput}}}";

/** The keys of an llm-d Statistics block, in the order upstream lists them (p0p1 = 0.1th, p99p9 = 99.9th). */
export const STAT_KEYS = [
  "mean",
  "mode",
  "stddev",
  "min",
  "p0p1",
  "p1",
  "p5",
  "p10",
  "p25",
  "p50",
  "p75",
  "p90",
  "p95",
  "p99",
  "p99p9",
  "max"
] as const;
