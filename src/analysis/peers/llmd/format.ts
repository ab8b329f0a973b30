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

/** One statistic block: `{units, mean, mode?, stddev?, min?, p0p1…p99p9?, max?}`. */
export type LlmdStat = Record<string, unknown> & {units: string; mean: number};

/** Statistic keys in the order upstream lists them, with the percentile each names. */
export const STAT_KEYS: readonly {key: string; p?: number}[] = [
  {key: "mean"},
  {key: "mode"},
  {key: "stddev"},
  {key: "min"},
  {key: "p0p1", p: 0.1},
  {key: "p1", p: 1},
  {key: "p5", p: 5},
  {key: "p10", p: 10},
  {key: "p25", p: 25},
  {key: "p50", p: 50},
  {key: "p75", p: 75},
  {key: "p90", p: 90},
  {key: "p95", p: 95},
  {key: "p99", p: 99},
  {key: "p99p9", p: 99.9},
  {key: "max"}
];
