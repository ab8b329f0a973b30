import type {z} from "zod";

import type {FailureExample as FailureExampleFact, RequestRow as RequestRowFact} from "../accumulate/point.ts";
import type {SourceComparisonRow} from "../peers/index.ts";
import type {CaseReport} from "../quality/cases.ts";
import type {QualitySummary} from "../quality/summary.ts";
import type {Stability as StabilityFact} from "../stats/stability.ts";
import type {Summary} from "../stats/summarize.ts";
import type {SeriesPoint as SeriesPointFact} from "../telemetry/series.ts";
import type {Issue as IssueFact} from "../util/issues.ts";
import type * as S from "./schema.ts";

/** A run-level metric value for one load point: pooled over repeats, with the spread across repeats. */
export type RunMetricValue = z.infer<typeof S.RunMetricValue>;

/** A per-request or per-sample distribution, pooled over repeats. */
export type SummaryValue = z.infer<typeof S.SummaryValue>;

export type MetricValue = SummaryValue | RunMetricValue;

export const isSummary = (v: MetricValue): v is SummaryValue => "p50" in v;

export type PointReport = z.infer<typeof S.PointReport>;

export type BundleMeta = z.infer<typeof S.BundleMeta>;

/** The report of one bundle; the rows whose shape quality/ and peers/ define keep their own types. */
export type Report = Omit<z.infer<typeof S.Report>, "quality_summary" | "cases" | "source_comparison"> & {
  /** Quality per version, case, scorer, condition, tier, constraint and needle cell (only when quality.jsonl has records). */
  quality_summary?: QualitySummary;
  /** Case-suite performance per case and tier (only when requests carry a caseId; those stay out of load_points). */
  cases?: CaseReport[];
  /** Imported bundles: the source tool's numbers, our recomputation of them, and our canonical metrics. */
  source_comparison?: SourceComparisonRow[];
};

// The facts the analysis modules build are the schema's types: each pair must be mutually assignable.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <T extends true>(): T | undefined => undefined;
void same<Same<IssueFact, z.infer<typeof S.Issue>>>();
void same<Same<StabilityFact, z.infer<typeof S.Stability>>>();
void same<Same<Summary, Omit<SummaryValue, "stability" | "note">>>();
void same<Same<FailureExampleFact, z.infer<typeof S.FailureExample>>>();
void same<Same<RequestRowFact, z.infer<typeof S.RequestRow>>>();
void same<Same<SeriesPointFact, z.infer<typeof S.SeriesPoint>>>();
