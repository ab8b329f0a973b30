import {z} from "zod";

/**
 * The Report's parts that issue 14 adds, as zod (report/schema.ts takes them in; `npm run schema` publishes
 * them). All optional in the Report: no version bump (docs/report-schema.md).
 */

const num = z.number().nullable();

export const SaturationReport = z
  .object({
    over_saturated: z.boolean().describe("past what the server sustains: never read as a sustained capacity"),
    rules: z
      .array(z.enum(["queue_growth", "plateau"]))
      .describe("the rules that fired: queueing grows through the point; throughput stopped growing with load"),
    reasons: z.array(z.string()).describe("each rule that fired, in words (English; the site words them from rules)"),
    queue_growth: z
      .object({first_third_ms: z.number(), last_third_ms: z.number(), rho: z.number(), z: z.number(), n: z.number()})
      .nullable()
      .describe("TTFT through the point (arrival order): medians of the first and last thirds, Spearman trend"),
    plateau: z
      .object({
        lower_value: z.number(),
        load_ratio: z.number(),
        throughput_ratio: num,
        latency_ratio: num
      })
      .nullable()
      .describe("against the next lower load of the same mode: load, throughput and median E2E ratios")
  })
  .describe("over-saturation of a load point (docs/load-search.md); not a gate: the verdict ignores it");

export const ServerTimeReport = z
  .object({
    queue_s: num,
    prefill_s: num,
    decode_s: num,
    requests: num,
    waiting_mean: num,
    waiting_series: z.string().nullable(),
    window_s: z.tuple([z.number(), z.number()]).nullable(),
    reason: z.string().nullable().describe("why a value is null")
  })
  .describe("where the server's time goes per request, from the engine's own metrics (telemetry/serverTime.ts)");

export const ClauseReport = z.object({
  id: z.enum(["ttft", "itl", "e2e", "errors", "goodput"]),
  value: num,
  limit: z.number(),
  ratio: num.describe("value / limit (goodput: limit / value); ≤ 1 holds"),
  n: z.number().int()
});

export const ProbeReport = z.object({
  id: z.string(),
  value: z.number(),
  order: z.number().int().describe("0-based position in the run"),
  status: z.enum(["pass", "fail", "not_evaluable"]),
  margin: num.describe("worst clause ratio; ≤ 1 holds"),
  clauses: z.array(ClauseReport),
  over_saturated: z.boolean(),
  client_health: z.string().nullable().describe("the probe's G6 status (not pass: the client may be the ceiling)"),
  reason: z.string()
});

export const SearchReport = z
  .object({
    block: z.number().int().describe("index of the search in the config's load list"),
    over: z.string(),
    range: z.tuple([z.number(), z.number()]),
    objective: z.string(),
    percentile: z.string(),
    probes: z.array(ProbeReport).describe("in run order"),
    answer: z.object({
      highest_pass: num,
      lowest_fail: num,
      estimate: num.describe("crossing of 1 by the isotonic fit of the margins, interpolated between probes"),
      bound: z.enum(["below_range", "at_or_above_max"]).nullable(),
      interval: z
        .object({
          lo: num,
          hi: num,
          level: z.number(),
          resamples: z.number().int(),
          prng: z.string(),
          seed: z.number().int(),
          method: z.string()
        })
        .nullable(),
      client_bound: z.string().nullable().describe("set when the client's own ceiling (G6) may bound the answer"),
      statement: z.string()
    }),
    collector: z
      .object({answer: num, reason: z.string().nullable(), probes: z.number().int()})
      .nullable()
      .describe("what the collector's search_end note said (shown beside; never used in the answer)"),
    agrees: z.boolean().nullable().describe("the collector's answer equals the analyzer's highest pass")
  })
  .describe("a load search recomputed from its probes' raw evidence (docs/load-search.md)");
