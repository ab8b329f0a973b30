import {z} from "zod";

import {summarize} from "../stats/summarize.ts";
import type {LengthFacts, PrefixCacheFacts} from "./log.ts";

const nullable = z.number().nullable();
const count = z.number().int().nonnegative();

/** A distribution in brief: n, mean, median and P95 (each null below its sample floor). */
export const Brief = z.object({n: count, mean: nullable, p50: nullable, p95: nullable});
export type Brief = z.infer<typeof Brief>;

export function brief(values: readonly number[]): Brief {
  const s = summarize(Float64Array.from(values));
  return {n: s.n, mean: s.mean, p50: s.p50, p95: s.p95};
}

export const WorkloadBlock = z
  .object({
    kind: z.enum(["synthetic", "dataset", "shared_prefix", "sessions", "trace"]),
    lengths: z
      .object({
        input_requested: Brief,
        input_realised: Brief.describe("the server's prompt token counts"),
        output_requested: Brief.describe("max_tokens sent"),
        output_realised: Brief.describe("the server's output token counts")
      })
      .nullable(),
    prefix_cache: z
      .object({
        designed: z.boolean().describe("the workload is built for prefix hits (shared prefix, sessions, trace)"),
        requests: count,
        bound_share: nullable.describe("share of prompt tokens an unbounded prefix cache could have served"),
        room_share: nullable.describe("the same for an LRU cache of room_tokens"),
        room_tokens: count,
        room_source: z.enum(["config", "in_flight"]),
        measured_share: nullable.describe("Σ cached_tokens / Σ prompt tokens as the server reported them"),
        cached_known: count,
        server_share: nullable.describe(
          "hits / queries of the server's prefix-cache counters over the point's window (vLLM), or null with server_reason"
        ),
        server_reason: z.string().nullable(),
        exact: z.boolean(),
        ttft_hit_ms: Brief.describe("TTFT of requests served from the cache (beyond a template prefix)"),
        ttft_miss_ms: Brief
      })
      .nullable(),
    turns: z
      .array(z.object({turn: z.number().int().positive(), ttft_ms: Brief}))
      .describe("TTFT by conversation turn (sessions), turn 1 first; empty otherwise")
  })
  .describe("issue 16: what the workload asked for against what was realised, and the prefix-cache ceiling");
export type WorkloadBlock = z.infer<typeof WorkloadBlock>;

/** The workload block of a point, or null when its requests carry no workload facts. */
export function workloadBlock(
  lengths: LengthFacts | null | undefined,
  cache: PrefixCacheFacts | null | undefined
): WorkloadBlock | null {
  if ((lengths ?? null) === null && (cache ?? null) === null) return null;
  const kind = lengths?.kind ?? cache!.kind;
  return {
    kind,
    lengths:
      lengths === null || lengths === undefined
        ? null
        : {
            input_requested: brief(lengths.inputRequested),
            input_realised: brief(lengths.inputRealised),
            output_requested: brief(lengths.outputRequested),
            output_realised: brief(lengths.outputRealised)
          },
    prefix_cache:
      cache === null || cache === undefined
        ? null
        : {
            designed: cache.designed,
            requests: cache.requests,
            bound_share: cache.boundShare,
            room_share: cache.roomShare,
            room_tokens: cache.room.capacityTokens,
            room_source: cache.room.source,
            measured_share: cache.measuredShare,
            cached_known: cache.cachedKnown,
            server_share: cache.server.window?.share ?? null,
            server_reason: cache.server.reason,
            exact: cache.exact,
            ttft_hit_ms: brief(cache.ttftHit),
            ttft_miss_ms: brief(cache.ttftMiss)
          },
    turns:
      cache === null || cache === undefined
        ? []
        : [...cache.ttftByTurn.entries()].sort((a, b) => a[0] - b[0]).map(([turn, v]) => ({turn, ttft_ms: brief(v)}))
  };
}
