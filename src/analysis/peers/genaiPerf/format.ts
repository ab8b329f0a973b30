import {z} from "zod";

import {NsInt} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {Claim, Doc} from "../shared/types.ts";
import {isAiperfAggregate} from "../aiperf/format.ts";

/**
 * GenAI-Perf `profile_export.json` (perf_analyzer's raw export: every response timestamped with its SSE
 * text) and, optionally, its summary sibling `profile_export_genai_perf.json`.
 */
export const Req = z
  .looseObject({
    timestamp: NsInt,
    request_inputs: z.looseObject({payload: z.string().optional()}).optional(),
    response_timestamps: z.array(NsInt),
    response_outputs: z.array(z.looseObject({response: z.string().optional(), text_output: z.string().optional()}))
  })
  .refine((r) => r.response_timestamps.length === r.response_outputs.length, {
    message: "expected response_timestamps and response_outputs of equal length",
    path: ["response_outputs"]
  });
export type Req = z.infer<typeof Req>;
export const Export = z.looseObject({
  service_kind: z.string().optional(),
  endpoint: z.string().optional(),
  experiments: z
    .array(
      z.looseObject({
        experiment: z.looseObject({mode: z.string(), value: z.number().positive()}),
        // each request is validated on its own (importGenaiPerf): zod gathers an array's issues with
        // push(...issues), which overflows the stack when an experiment has more than ~120k of them
        requests: z.array(z.unknown())
      })
    )
    .min(1, "expected at least one experiment")
});

export const isExport = (v: unknown): boolean =>
  isObject(v) && Array.isArray(v.experiments) && v.experiments.every((e) => isObject(e) && Array.isArray(e.requests));
/** The summary sibling: metric objects {unit, avg, …} without AIPerf's own sections. */
export const isSummary = (v: unknown): boolean =>
  isObject(v) &&
  !isAiperfAggregate(v) &&
  ["time_to_first_token", "request_latency", "request_throughput"].some(
    (k) => isObject(v[k]) && "avg" in (v[k] as object)
  );

export function detectGenaiPerf(docs: readonly Doc[]): Claim | null {
  const files = docs.filter((d) => d.kind === "json" && (isExport(d.value) || isSummary(d.value))).map((d) => d.name);
  return files.length && docs.some((d) => d.kind === "json" && isExport(d.value))
    ? {tool: "genai-perf", files, shape: "GenAI-Perf profile export"}
    : files.length
      ? {tool: "genai-perf", files, shape: "GenAI-Perf summary only"}
      : null;
}

export const GENAI_PERF_EXPECTED =
  "GenAI-Perf: profile_export.json (experiments[{experiment: {mode, value}, requests[{timestamp, response_timestamps[], response_outputs[]}]}]) and optionally profile_export_genai_perf.json";
