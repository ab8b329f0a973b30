import type {FailureExample, RequestRow} from "../accumulate/point.ts";
import type {FileCheck, GateResult} from "../gates/types.ts";
import type {Verdict} from "../gates/verdict.ts";
import type {LoadPoint, Manifest, Provenance} from "../schema/manifest.ts";
import type {QualityRecord, SourceRecord} from "../schema/records.ts";
import type {Stability} from "../stats/stability.ts";
import type {SourceComparisonRow} from "../peers/compare.ts";
import type {Summary} from "../stats/summarize.ts";
import type {SeriesPoint} from "../telemetry/series.ts";
import type {Issue} from "../util/issues.ts";
import type {CaseReport} from "../quality/cases.ts";
import type {QualitySummary} from "../quality/summary.ts";

/** A run-level metric value for one load point: pooled over repeats, with the spread across repeats. */
export interface RunMetricValue {
  value: number | null;
  reason?: string;
  /** What a reader must know about a non-null value (a bound, a caveat). */
  note?: string;
  /** Across repeats (present when the point has ≥ 2 repeats). */
  stability?: Stability;
}

/** A per-request or per-sample distribution, pooled over repeats. */
export interface SummaryValue extends Summary {
  /** Request metrics of points with ≥ 2 repeats: the spread of each repeat's median across repeats. */
  stability?: Stability;
  /** What a reader must know about these values (e.g. the output counts they rest on disagree with the stream). */
  note?: string;
}

export type MetricValue = SummaryValue | RunMetricValue;

export const isSummary = (v: MetricValue): v is SummaryValue => "p50" in v;

export interface PointReport {
  id: string;
  mode: LoadPoint["mode"];
  value: number;
  repeats: number;
  /** Measured requests (warmup and cooldown excluded). */
  n: number;
  n_success: number;
  n_warmup: number;
  verdict: Verdict;
  verdict_reasons: string[];
  outcomes: Record<string, number>;
  failures: FailureExample[];
  finish_reasons: Record<string, number>;
  usage_sources: Record<string, number>;
  metrics: Record<string, MetricValue>;
}

export interface BundleMeta {
  model: string | null;
  engine: string | null;
  hardware: string;
  gpus: number | null;
  endpoint: string | null;
  modes: string[];
  labels: Record<string, string>;
  startedAt: string | null;
  finishedAt: string | null;
  workload: {
    prompt_tokens: number | null;
    max_tokens: number | null;
    ignore_eos: boolean | null;
    temperature: number | null;
  };
  /** Digest-free fingerprint of what was asked of the server; equal strings mean the same workload. */
  workloadKey: string;
}

export interface Report {
  bundle: string;
  schema_version: number | null;
  measure_version: string | null;
  analyzer_version: string;
  status: Manifest["status"];
  provenance: Provenance | null;
  verdict: Verdict;
  verdict_reasons: string[];
  gates: GateResult[];
  load_points: PointReport[];
  issues: Issue[];
  files: FileCheck[];
  meta: BundleMeta;
  quality: QualityRecord[];
  /** Quality per version, case, scorer, condition, tier, constraint and needle cell (only when quality.jsonl has records). */
  quality_summary?: QualitySummary;
  /** Case-suite performance per case and tier (only when requests carry a caseId; those stay out of load_points). */
  cases?: CaseReport[];
  sources: SourceRecord[];
  /** Imported bundles: the source tool's numbers, our recomputation of them, and our canonical metrics. */
  source_comparison?: SourceComparisonRow[];
  /** Only with {keepRows: true}. */
  rows?: RequestRow[];
  /** Only with {keepSeries: true}. */
  series?: SeriesPoint[];
  notes?: {event: string; tS: number; detail: Record<string, unknown>}[];
}
