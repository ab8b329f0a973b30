import type {PointTotals} from "./types.ts";

/**
 * Non-streamed load points (embeddings): a metric or gate that needs a stream (`streamsOnly`) is not
 * applicable there, and says why in these words (report/point.ts, gates/verdict.ts).
 */
export const NOT_STREAMED =
  "not applicable: embeddings answer once, as one JSON body (no stream, no output tokens, no first token)";

/** Whether a load point's measured requests were all non-streamed (embeddings). */
export const isNonStreamed = (t: Pick<PointTotals, "measured" | "nonStreamed">): boolean =>
  t.measured > 0 && t.nonStreamed === t.measured;
