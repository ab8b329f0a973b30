import {
  candidatesOf,
  qualityRates,
  type Candidate,
  type Fact,
  type QualityRate,
  type Report
} from "../analysis/index.ts";

export interface MatrixCell {
  model: string;
  hardware: string;
  bundles: string[];
  /** The VALID, client-healthy load point with the most output throughput per GPU (null when none). */
  best: Candidate | null;
  /**
   * Cost at the best load point ($ per million output tokens, $ per successful request), each null with the
   * reason when unknown (never 0); null when the cell has no best point.
   */
  cost: {perMOutput: Fact; perRequest: Fact} | null;
  /** Pass rates per scorer over every quality record of the cell's bundles (empty: not evaluated). */
  quality: QualityRate[];
}

export interface Matrix {
  models: string[];
  hardware: string[];
  cell: (model: string, hardware: string) => MatrixCell | null;
}

type MatrixRun = Pick<Report, "bundle" | "measure_version" | "gates" | "load_points" | "quality" | "meta"> &
  Partial<Pick<Report, "hardware">>;

const NO_COST: Fact = {value: null, from: null, reason: "the analysis was not given the hardware data"};

/**
 * Model × hardware: only measured combinations get a cell (callers print "not measured" otherwise).
 * Performance and quality stay separate fields: nothing here blends them into one score.
 */
export function buildMatrix(runs: readonly MatrixRun[]): Matrix {
  const cells = new Map<string, MatrixCell>();
  const key = (m: string, h: string) => `${m}\u0000${h}`;
  for (const r of runs) {
    const model = r.meta.model ?? "unknown model";
    const k = key(model, r.meta.hardware);
    const c =
      cells.get(k) ??
      cells.set(k, {model, hardware: r.meta.hardware, bundles: [], best: null, cost: null, quality: []}).get(k)!;
    c.bundles.push(r.bundle);
    for (const cand of candidatesOf(r)) {
      if (cand.verdict !== "VALID" || !["pass", "info", "warn"].includes(cand.clientHealth)) continue;
      // an over-saturated point is never a sustained capacity
      if (cand.overSaturated) continue;
      if (cand.throughputPerGpu === null) continue;
      if (c.best === null || cand.throughputPerGpu > c.best.throughputPerGpu!) c.best = cand;
    }
  }
  for (const c of cells.values()) {
    const records = runs.filter((r) => c.bundles.includes(r.bundle)).flatMap((r) => r.quality);
    c.quality = qualityRates(records);
    c.cost = c.best === null ? null : (c.best.cost ?? {perMOutput: NO_COST, perRequest: NO_COST});
    c.bundles.sort();
  }
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort((a, b) => a.localeCompare(b));
  return {
    models: sorted([...cells.values()].map((c) => c.model)),
    hardware: sorted([...cells.values()].map((c) => c.hardware)),
    cell: (m, h) => cells.get(key(m, h)) ?? null
  };
}

/** One performance matrix per measure version and workload: a best point is never picked across them. */
export interface MatrixGroup {
  measureVersion: string | null;
  workload: string;
  matrix: Matrix;
}

/**
 * The runs split by measure version and workload (models and hardware stay the matrix's axes), each group its own
 * matrix: throughput under one workload or one definition of the timestamps is not comparable with another's.
 */
export function matrixGroups(runs: readonly MatrixRun[]): MatrixGroup[] {
  const by = new Map<string, MatrixRun[]>();
  for (const r of runs) {
    const k = JSON.stringify([r.measure_version, r.meta.workloadKey]);
    (by.get(k) ?? by.set(k, []).get(k)!).push(r);
  }
  return [...by]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([, group]) => ({
      measureVersion: group[0]!.measure_version,
      workload: group[0]!.meta.workloadKey,
      matrix: buildMatrix(group)
    }));
}
