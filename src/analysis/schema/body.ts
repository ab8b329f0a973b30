import {z} from "zod";

import {NonNegInt} from "./primitives.ts";

/**
 * A non-streamed JSON answer (bundle v2; `target.endpoint: embeddings`): what the collector read of the body.
 * The vector lengths are the body's structure as sent (like an event's kind), not a metric; the analyzer
 * decides from them whether the request succeeded (derive/embedding.ts).
 */
export const JsonBody = z
  .strictObject({
    bytes: NonNegInt.describe("bytes of the response body"),
    json: z.boolean().describe("the body parsed as JSON"),
    inputs: z.number().int().positive().describe("inputs the request sent (texts to embed)"),
    vectors: z
      .array(NonNegInt)
      .nullable()
      .describe(
        "length of each `data[i].embedding` in index order (a base64 string: its float32 count); null: no `data` array of embeddings"
      ),
    nonFinite: NonNegInt.describe("vector entries that are not finite numbers (NaN, strings, null…)"),
    head: z.string().describe("the first `output.payload_bytes` bytes of the body, verbatim (redacted)")
  })
  .describe("a non-streamed JSON response (embeddings)");
export type JsonBody = z.infer<typeof JsonBody>;
