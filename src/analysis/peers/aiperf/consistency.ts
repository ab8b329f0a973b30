import {latencyOrderWarnings} from "../shared/latencyOrder.ts";
import {aiperfAggregates} from "./format.ts";

/** [within, whole]: per request, each first metric is part of the second (AIPerf's names of both generations). */
const ORDER = [
  ["time_to_first_token", "request_latency"],
  ["ttft", "request_latency"],
  ["time_to_second_token", "request_latency"],
  ["ttst", "request_latency"],
  ["time_to_first_output_token", "request_latency"],
  ["inter_token_latency", "request_latency"]
] as const;

/**
 * Warnings for an AIPerf aggregate file that contradicts itself (shared/latencyOrder.ts): a part of a request
 * reported longer than the request, as a wrong unit on one metric makes it. The numbers stay as written.
 */
export function aggregateWarnings(aggregate: {file: string; value: unknown} | null | undefined): string[] {
  if (!aggregate) return [];
  return latencyOrderWarnings(aggregate.file, aiperfAggregates(aggregate.value), ORDER);
}
