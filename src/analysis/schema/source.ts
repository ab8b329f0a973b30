import {z} from "zod";

import {NonNegInt, Slug} from "./primitives.ts";

/**
 * A source tool's own count of its requests at one run of a load point, under its own definition of success
 * (facts.requestCounts of a source record). The gates read it where the file keeps no per-request records, or
 * keeps a sample of them: a request the tool counts as failed (an HTTP error, an exception, a cancellation)
 * fails under InferScope's definition too, so its failures are a lower bound on ours; its successes are not
 * (a tool may count an empty answer or an in-band error as completed).
 */
export const SourceRequestCounts = z.strictObject({
  completed: NonNegInt.nullable().describe("requests the tool counted as succeeded (completed)"),
  failed: NonNegInt.nullable().describe("requests the tool counted as failed (errored); null: not stated"),
  incomplete: NonNegInt.nullable().describe(
    "requests neither completed nor failed (in flight when the run ended); 0 where the tool waits for every request"
  )
});
export type SourceRequestCounts = z.infer<typeof SourceRequestCounts>;

/** A peer tool's own reported numbers, preserved verbatim (imports). */
export const SourceRecord = z.strictObject({
  seq: NonNegInt,
  tool: z.string(),
  toolVersion: z.string().nullable(),
  file: z.string().describe("source file name"),
  point: Slug.nullable(),
  aggregates: z.unknown().describe("the source's reported aggregates, verbatim"),
  facts: z
    .looseObject({requestCounts: SourceRequestCounts.optional()})
    .describe(
      "importer-extracted facts needed for recomputation (window, method…); requestCounts: the tool's own request counts"
    )
});
export type SourceRecord = z.infer<typeof SourceRecord>;
