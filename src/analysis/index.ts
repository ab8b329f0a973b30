export {analyzeBundle, type AnalyzeOptions} from "./analyze.ts";
export type {RequestRow, PointFacts, FailureExample} from "./accumulate/point.ts";
export {deriveRequest, type DerivedRequest} from "./derive/request.ts";
export {FAILURE_CLASSES, FAILURE_LABELS, type FailureClass} from "./derive/outcome.ts";
export {GATES, gateById} from "./gates/registry.ts";
export type {GateDef, GateResult, GateStatus, FileCheck} from "./gates/types.ts";
export {verdictOf, worst, type Verdict} from "./gates/verdict.ts";
export {memorySource, type BundleSource, type FileStream} from "./ingest/source.ts";
export {parseConfig, parseManifest} from "./ingest/header.ts";
export {hardwareLabel} from "./meta.ts";
export {
  METRICS,
  HEADLINE_METRICS,
  metricById,
  REQUEST_METRICS,
  RUN_METRIC_DEFS,
  SAMPLE_METRICS
} from "./metrics/registry.ts";
export type {MetricDef, Bilingual} from "./metrics/types.ts";
export {
  isSummary,
  type Report,
  type PointReport,
  type MetricValue,
  type RunMetricValue,
  type BundleMeta
} from "./report.ts";
export * from "./schema/index.ts";
export * from "./stats/index.ts";
export {SERVER_SERIES, type SeriesPoint} from "./telemetry/series.ts";
export {formatIssue, type Issue} from "./util/issues.ts";
export {formatBytes, formatDuration, formatNumber, formatWithUnit} from "./format.ts";
