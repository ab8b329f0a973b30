import {
  isSearchBlock,
  loadBlocks,
  type LoadSpec,
  type RunConfig,
  type SearchSpec
} from "../../src/analysis/schema/config.ts";
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
    if (isSearchBlock(block)) return;
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
  checkSearches(config, out);
  return out;
}

/** One search of a config with its block's index (0-based) in `load`. */
export interface PlannedSearch {
  search: SearchSpec;
  blockIndex: number;
}

/** The searches of a config, in config order (they run after the fixed load points). */
export function planSearches(config: RunConfig): PlannedSearch[] {
  const out: PlannedSearch[] = [];
  loadBlocks(config).forEach((b, blockIndex) => {
    if (isSearchBlock(b)) out.push({search: b, blockIndex});
  });
  return out;
}

/**
 * A search's probes must be told apart from every other point by mode and value alone (the analyzer finds
 * them so): no fixed point of the searched mode inside its range, no two searches of one mode overlapping.
 */
function checkSearches(config: RunConfig, fixed: readonly PlannedPoint[]): void {
  const searches = planSearches(config);
  for (const [k, {search: s, blockIndex}] of searches.entries()) {
    const [lo, hi] = s.range;
    if (s.over === "concurrency" && !(Number.isInteger(lo) && Number.isInteger(hi)))
      throw new Error(`load[${blockIndex}].range: concurrency must be whole numbers, got [${lo}, ${hi}]`);
    const clash = fixed.find((p) => p.point.mode === s.over && p.point.value >= lo && p.point.value <= hi);
    if (clash)
      throw new Error(
        `load[${blockIndex}]: the search over ${s.over} [${lo}, ${hi}] contains the fixed load point ${clash.point.id}: move the point out of the range`
      );
    for (const other of searches.slice(k + 1))
      if (other.search.over === s.over && other.search.range[0] <= hi && other.search.range[1] >= lo)
        throw new Error(
          `load[${blockIndex}] and load[${other.blockIndex}]: two searches over ${s.over} with overlapping ranges`
        );
  }
}

/** The load point of one probe of a search: an ordinary point (one repeat) with the search's settings. */
export function probePoint(s: SearchSpec, value: number): PlannedPoint {
  const block: LoadSpec = {
    mode: s.over,
    values: [value],
    ...(s.requests === undefined ? {} : {requests: s.requests}),
    ...(s.duration_s === undefined ? {} : {duration_s: s.duration_s}),
    warmup: s.warmup,
    cooldown_s: s.cooldown_s,
    repeats: 1,
    seed: s.seed,
    burstiness: 1,
    ...(s.max_concurrency === undefined ? {} : {max_concurrency: s.max_concurrency}),
    grace_s: s.grace_s
  };
  return {
    block,
    point: {
      id: pointId(s.over, value),
      mode: s.over,
      value,
      repeats: 1,
      requests: s.requests ?? null,
      durationS: s.duration_s ?? null,
      warmup: s.warmup,
      maxConcurrency: s.max_concurrency ?? null,
      burstiness: null
    }
  };
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
