import type {LengthDist} from "../../src/analysis/schema/workload.ts";
import {normal} from "../load/schedule.ts";

/**
 * A draw from a length distribution (tokens, ≥ 1) with the uniform source `u`: fixed, uniform on the whole
 * numbers [min, max], or normal rounded and kept in [min, max]. Empirical lengths are the caller's (they
 * belong to a dataset's items), so an empirical distribution here is a bug of the caller.
 */
export function drawLength(d: LengthDist, u: () => number): number {
  if (typeof d === "number") return d;
  switch (d.dist) {
    case "fixed":
      return d.value;
    case "uniform":
      return d.min + Math.min(d.max - d.min, Math.floor(u() * (d.max - d.min + 1)));
    case "normal": {
      const x = Math.round(d.mean + d.std * normal(u));
      return Math.min(d.max ?? Infinity, Math.max(d.min, x, 1));
    }
    case "empirical":
      throw new Error("an empirical length is drawn from the dataset's items, not here");
  }
}
