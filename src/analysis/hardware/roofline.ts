import {combine, unknown} from "./fact.ts";
import type {Fact, ModelFacts} from "./schema.ts";

/**
 * The decode roofline from memory bandwidth: one decode step of a batch of B sequences reads every weight
 * once and each sequence's KV cache (context tokens × KV bytes per token), so with bandwidth BW
 *   step time ≥ (weight bytes + B × context × KV bytes per token) / BW
 * and each sequence gains one token per step: per-sequence bound = 1 / step time, aggregate = B / step time.
 * Compute is not in the bound (at decode it binds only at large batches); MoE weights read per step depend
 * on routing, so the bound is unknown for them unless active parameters are stated; where they are (a GGUF
 * MoE with hardware.model.active_params, or a model stated in the run config with it) only their share of the
 * weight bytes is read per token. A model the run config states without active_params is read as dense.
 */
export function decodeBound(model: ModelFacts, bandwidthGBs: Fact, batch: number, context: number): Fact {
  const moe = model.experts !== null && model.experts > 0;
  if (moe && model.activeParams.value === null)
    return unknown(model.activeParams.reason ?? "mixture of experts: active parameters unknown");
  // active parameters below all parameters (a GGUF MoE's, or the run config's hardware.model.active_params):
  // only their share of the weights is read per token
  const a = model.activeParams.value;
  const share = moe || (a !== null && (model.params.value === null || a < model.params.value));
  const weights = share
    ? combine(
        [model.weightBytes, model.params, model.activeParams],
        (w, p, act) => (w * Math.min(act, p)) / p,
        "weight bytes × active ÷ all parameters"
      )
    : model.weightBytes;
  return combine(
    [weights, model.kvBytesPerToken, bandwidthGBs],
    (w, kv, bw) => (bw * 1e9) / (w + batch * context * kv),
    "bandwidth ÷ (weights + batch × context × KV bytes per token)"
  );
}

/** measured ÷ bound, when both are known and the bound is positive. */
export const fractionOf = (measured: Fact, bound: Fact): Fact =>
  combine([measured, bound], (m, b) => (b > 0 ? m / b : null), "measured ÷ bound");
