import type {CoreFacts, FactsOf} from "../accumulate/point.ts";
import {probeSamples} from "../accumulate/probeSamples.ts";
import {costFacts} from "../metrics/costFacts.ts";
import {specTimingsFacts} from "../metrics/specDecode.ts";
import {loadFacts} from "./load.ts";
import {streamingFacts} from "./streaming.ts";
import {tokenFacts} from "./tokens.ts";

/**
 * The reducers of the gates that count over a point's requests, each defined beside its gate; the point
 * accumulator feeds every request to each. A gate that needs new counts adds its reducer here (so does a
 * report block pooled over requests: specTimingsFacts feeds each point's spec_decode block, costFacts the hardware block's cost and roofline).
 */
export const POINT_REDUCERS = [
  tokenFacts,
  streamingFacts,
  loadFacts,
  probeSamples,
  specTimingsFacts,
  costFacts
] as const;

/** A load point as the gates and the report see it: the core facts and every reducer's. */
export type PointFacts = CoreFacts & FactsOf<typeof POINT_REDUCERS>;
