import type {DerivedRequest} from "../derive/request.ts";
import type {RunConfig} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";

/**
 * A gate's (or metric's) own running state over the requests of one load point, in arquero's
 * `{init, add, finish}` shape: `init` makes the state, `add` folds one derived request into it (every
 * request of the point, any phase: the reducer picks the ones it counts), `finish` returns the facts it
 * contributes to PointFacts. The state is mutated in place (a bundle streams millions of requests).
 * The reducer lives in the file of the gate that reads its facts; the point accumulator only feeds it.
 */
export interface PointReducer<S, F extends object> {
  init(point: LoadPoint, config: RunConfig): S;
  add(state: S, d: DerivedRequest): void;
  finish(state: S): F;
}

/** A list of reducers, whatever their states and facts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each reducer's state is its own; only its facts type matters here
export type AnyPointReducer = PointReducer<any, object>;

/** A measured (not warmup or cooldown) request. */
export const isMeasured = (d: DerivedRequest): boolean => d.record.phase === "measure";

/** A measured request that succeeded. */
export const isMeasuredSuccess = (d: DerivedRequest): boolean => d.record.phase === "measure" && d.success;
