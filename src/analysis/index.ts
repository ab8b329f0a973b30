export {analyzeBundle, readAndAnalyze, type AnalyzedBundle, type AnalyzeOptions} from "./analyze.ts";
export type {RequestRow, FailureExample} from "./accumulate/point.ts";
export type {PointFacts} from "./gates/types.ts";
export {deriveRequest, type DerivedRequest} from "./derive/request.ts";
export {FAILURE_CLASSES, FAILURE_LABELS, type FailureClass} from "./derive/outcome.ts";
export {GATES, gateById} from "./gates/registry.ts";
export {adviceFor, GATE_ADVICE} from "./gates/advice.ts";
export type {GateDef, GateResult, GateStatus, FileCheck} from "./gates/types.ts";
export {verdictOf, worst, type Verdict} from "./gates/verdict.ts";
export {memorySource, type BundleSource, type FileStream} from "./ingest/source.ts";
export {parseConfig} from "./ingest/config.ts";
export {parseManifest} from "./ingest/manifest.ts";
export {hardwareLabel, isQuickLook, QUICK_LOOK_LABEL} from "./meta.ts";
export {
  METRICS,
  HEADLINE_METRICS,
  metricById,
  REQUEST_METRICS,
  RUN_METRIC_DEFS,
  SAMPLE_METRICS
} from "./metrics/registry.ts";
export type {MetricDef, Bilingual, RequestMetric} from "./metrics/types.ts";
export {
  isSummary,
  type Report,
  type PointReport,
  type MetricValue,
  type RunMetricValue,
  type BundleMeta
} from "./report/types.ts";
export {jsonView, type JsonView} from "./report/jsonView.ts";
export {AnalyzeJson} from "./report/json.ts";
export * from "./schema/index.ts";
export * from "./peers/index.ts";
export * from "./stats/index.ts";
export {SERVER_SERIES, type SeriesPoint} from "./telemetry/series.ts";
export {formatIssue, type Issue} from "./util/issues.ts";
export {dottedPath} from "./util/zodIssues.ts";
export {formatBytes, formatDuration, formatNumber, formatShare, formatWithUnit} from "./format.ts";
export {
  comparability,
  comparabilityKey,
  comparableSet,
  type Comparability,
  type ComparabilityCheck,
  type ComparableRun,
  type CheckId
} from "./compare/comparability.ts";
export {
  compareRuns,
  DISTRIBUTION_METRICS,
  RUN_LEVEL_METRICS,
  type Arm,
  type Comparison,
  type CompareRun,
  type DistributionDiff,
  type Reading,
  type RunDiff
} from "./compare/compare.ts";
export {seedOf} from "./compare/seed.ts";
export {
  compareSpec,
  SPEC_MESSAGE_IDS,
  SPEC_RULES,
  type SpecComparison,
  type SpecDelta,
  type SpecMessage,
  type SpecMessageId,
  type SpecPointVerdict,
  type SpecReading,
  type SpecRun
} from "./compare/spec.ts";
export {
  matchAnswers,
  passRate,
  qualityGuard,
  type AnswerMatch,
  type PassRate,
  type SpecQualityGuard
} from "./compare/specQuality.ts";
export {
  SPEC_DECODE_FIELDS,
  SPEC_SOURCES,
  specDecodeOf,
  type SpecDecodeBlock,
  type SpecFieldDef,
  type SpecSource
} from "./metrics/specBlock.ts";
export {paretoFrontier} from "./pareto/frontier.ts";
export {
  paretoOf,
  PARETO_X,
  PARETO_Y,
  type Pareto,
  type ParetoClass,
  type ParetoPoint,
  type ParetoRun
} from "./pareto/pareto.ts";
export {candidatesOf, SLO_METRICS, type Candidate, type SloMetric} from "./select/candidates.ts";
export {qualityRates, type QualityRate} from "./select/quality.ts";
export * from "./quality/index.ts";
export {
  DEFAULT_CONSTRAINTS,
  exclusions,
  selectConfigs,
  type Constraints,
  type Exclusion,
  type ExclusionCode,
  type Ranked,
  type Selection
} from "./select/select.ts";
export {VERSION_HISTORY, type VersionChange} from "./versionHistory.ts";
export {metricsCsv, requestsCsv, toCsv, type Cell} from "./export/csv.ts";
export {llmdReports, type ExportContext} from "./export/llmdReport.ts";
export {ARG_REDACTION, credentialValues, isCredentialName, redactArgs, redactCommandLine} from "./redact/args.ts";
export * from "./experiment/index.ts";
export {
  LEVEL as SEARCH_LEVEL,
  RESAMPLES as SEARCH_RESAMPLES,
  MIN_LATENCY_RISE,
  MIN_LOAD_RISE,
  MIN_TREND_N,
  QUEUE_GROWTH_RATIO,
  THROUGHPUT_SHARE,
  TREND_Z
} from "./search/index.ts";
export * from "./hardware/index.ts";
export {
  DEFAULT_RULES,
  parseRule,
  regressionGate,
  REGRESSION_STATS,
  type RegressionCheck,
  type RegressionResult,
  type RegressionRule
} from "./compare/regression.ts";
