import {finishRow, type CanonicalRef, type ReasonCode, type Recomputed, type SourceComparisonRow} from "./compare.ts";
import type {Stat} from "./stats.ts";

/** One number a tool reported under a statistic of one of its metrics, e.g. `p99_ttft_ms` or `ttft.p99`. */
export interface ReportedStat {
  /** The source's own key for the number. */
  metric: string;
  /** The statistic's label as the source writes it (`p99.9`, `median`, `std_dev`). */
  label: string;
  stat: Stat;
  reported: number | null;
}

/** Our canonical counterpart of a reported statistic and why the two may differ. */
export interface CanonicalPick {
  ref: CanonicalRef | null;
  codes: ReasonCode[];
  why?: string;
}

/** How the rows of one reported metric are made: the parts every tool fills in for its own definitions. */
export interface StatRowSpec {
  point: string | null;
  definition: (s: ReportedStat) => string;
  unit: (s: ReportedStat) => string;
  recompute: (stat: Stat) => Recomputed;
  /** Our counterpart, shown in the row's unit (`unit`: what `unit(s)` gave). */
  canonical: (stat: Stat, unit: string) => CanonicalPick;
  /** A definition difference the numbers cannot show, stated on every row. */
  caveat?: string;
}

/** The one "each reported stat → row" loop: every tool's statistics go through it. */
export function statRows(stats: readonly ReportedStat[], spec: StatRowSpec): SourceComparisonRow[] {
  return stats.map((s) => {
    const unit = spec.unit(s);
    const c = spec.canonical(s.stat, unit);
    return finishRow({
      point: spec.point,
      metric: s.metric,
      definition: spec.definition(s),
      unit,
      reported: s.reported,
      recomputed: spec.recompute(s.stat),
      canonical: c.ref,
      codes: c.codes,
      ...(c.why !== undefined ? {why: c.why} : {}),
      ...(spec.caveat !== undefined ? {caveat: spec.caveat} : {})
    });
  });
}

/** Percentile-method code for a statistic: only percentiles (and, for some tools, the median) differ by method. */
export const percentileCodes = (stat: Stat, medianToo = false): ReasonCode[] =>
  typeof stat === "object" || (medianToo && stat === "median") ? ["percentile_method"] : [];
