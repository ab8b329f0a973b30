import {finishRow, missing, type ComparisonInput, type SourceComparisonRow} from "../shared/compare.ts";
import {isObject} from "../shared/parse.ts";
import {STAT_KEYS} from "./format.ts";
import {aggregateOf} from "./validate.ts";

/** What each aggregate field of the report means (llm-d-benchmark's converters fill them from the tool's own). */
const DEFINITIONS: Readonly<Record<string, string>> = {
  "requests.input_length": "prompt tokens per successful request",
  "requests.output_length": "output tokens per successful request",
  "latency.time_to_first_token": "first token − request sent, the measuring tool's definition",
  "latency.time_per_output_token": "(e2e − ttft)/(output − 1) per request, the measuring tool's definition",
  "latency.inter_token_latency": "gaps between tokens or chunks as the measuring tool pools them",
  "latency.normalized_time_per_output_token": "e2e / output tokens per request (first token included)",
  "latency.request_latency": "request sent to last token (end to end)",
  "throughput.input_token_rate": "prompt tokens / benchmark duration",
  "throughput.output_token_rate": "output tokens / benchmark duration",
  "throughput.total_token_rate": "prompt + output tokens / benchmark duration",
  "throughput.request_rate": "completed requests / benchmark duration"
};

const WHY = "the llm-d Benchmark Report holds aggregates only (no per-request data)";

/** Every reported number of the report, in its own unit; nothing is recomputable from aggregates alone. */
export function compareLlmd(input: ComparisonInput): SourceComparisonRow[] {
  const {source} = input;
  const agg = aggregateOf(source.aggregates) ?? {};
  const rows: SourceComparisonRow[] = [];
  const requests = isObject(agg.requests) ? agg.requests : {};
  for (const k of ["total", "failures", "incomplete"])
    if (typeof requests[k] === "number")
      rows.push(
        finishRow({
          point: source.point,
          metric: `requests.${k}`,
          definition: k === "total" ? "requests sent (failures included)" : `${k} requests`,
          unit: "requests",
          reported: requests[k],
          recomputed: missing(WHY),
          canonical: null,
          codes: []
        })
      );
  for (const group of ["requests", "latency", "throughput"]) {
    const g = agg[group];
    if (!isObject(g)) continue;
    for (const [name, stat] of Object.entries(g)) {
      if (!isObject(stat) || typeof stat.units !== "string") continue;
      for (const key of STAT_KEYS) {
        const v = stat[key];
        if (typeof v !== "number") continue;
        rows.push(
          finishRow({
            point: source.point,
            metric: `${group}.${name}.${key}`,
            definition: DEFINITIONS[`${group}.${name}`] ?? `${group}.${name} as reported`,
            unit: stat.units,
            reported: v,
            recomputed: missing(WHY),
            canonical: null,
            codes: []
          })
        );
      }
    }
  }
  return rows;
}
