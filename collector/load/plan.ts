import {loadBlocks, type LoadSpec, type RunConfig} from "../../src/analysis/schema/config.ts";
import type {LoadPoint} from "../../src/analysis/schema/manifest.ts";

/** One load point with the block it came from. */
export interface PlannedPoint {
  point: LoadPoint;
  block: LoadSpec;
}

/** Load point id: `${mode}-${value}`, the value written without trailing zeros (concurrency-4, poisson-2.5). */
export const pointId = (mode: string, value: number): string => `${mode}-${String(value)}`;

/** Every load point of a config, in run order (blocks in order, values in order). Duplicate ids are an error. */
export function planPoints(config: RunConfig): PlannedPoint[] {
  const out: PlannedPoint[] = [];
  const seen = new Map<string, number>();
  loadBlocks(config).forEach((block, bi) => {
    for (const value of block.values) {
      const id = pointId(block.mode, value);
      if (seen.has(id))
        throw new Error(
          `load point ${id} appears twice (load blocks ${seen.get(id)! + 1} and ${bi + 1}): ids must be unique`
        );
      seen.set(id, bi);
      if (block.mode === "concurrency" && !Number.isInteger(value))
        throw new Error(`load[${bi}].values: concurrency must be a whole number, got ${value}`);
      out.push({
        block,
        point: {
          id,
          mode: block.mode,
          value,
          repeats: block.repeats,
          requests: block.requests ?? null,
          durationS: block.duration_s ?? null,
          warmup: block.warmup,
          maxConcurrency: block.max_concurrency ?? null,
          burstiness: block.mode === "gamma" ? block.burstiness : null
        }
      });
    }
  });
  return out;
}

/** Planned measured requests of the whole run (null when any point is duration-bound). */
export function plannedRequests(points: readonly PlannedPoint[]): number | null {
  let n = 0;
  for (const p of points) {
    if (p.point.requests === null) return null;
    n += (p.point.requests + p.point.warmup) * p.point.repeats;
  }
  return n;
}
