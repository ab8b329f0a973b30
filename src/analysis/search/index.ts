/** The load search's analysis (issue 14): the one probe judge, the answer with its interval, over-saturation. */
export {probeSamples, emptySamples, addSample, inArrivalOrder, type ProbeSamples} from "../accumulate/probeSamples.ts";
export {LEVEL, RESAMPLES, searchAnswer, type JudgedProbe, type SearchAnswer} from "./answer.ts";
export {crossingOf, isotonicFit, MARGIN_CAP, type Crossing} from "./isotonic.ts";
export {clausesOf, judgeProbe, marginOf, objectiveOf, type Objective, type ProbeVerdict} from "./judge.ts";
export {judgeRecords} from "./records.ts";
export {judgeProbes, saturations, searchReports, type SearchReportValue} from "./report.ts";
export {
  MIN_LATENCY_RISE,
  MIN_LOAD_RISE,
  MIN_TREND_N,
  QUEUE_GROWTH_RATIO,
  THROUGHPUT_SHARE,
  TREND_Z,
  overSaturation,
  pointSummary,
  queueGrowth,
  spearmanTrend,
  type PointSummary,
  type Saturation
} from "./saturation.ts";
