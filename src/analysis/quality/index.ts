export {scoreAnswer, type ScoredAnswer} from "./answers.ts";
export {CASE_METRICS, CaseAccumulator, suiteConcurrency, type CaseReport, type CaseTierReport} from "./cases.ts";
export {boxedContents, expectedNumber, extractLenient, scoreGsm8k, type Extraction} from "./gsm8k.ts";
export {
  checkAll,
  checkConstraint,
  checkLoose,
  CONSTRAINT_KINDS,
  Constraint,
  ConstraintList,
  looseVariants,
  type ConstraintKind,
  type ConstraintResult
} from "./instructions.ts";
export {
  extractFlexible,
  extractStrict,
  LM_EVAL_COMMIT,
  lmEvalExactMatch,
  lmEvalNormalize,
  type LmEvalExtraction
} from "./lmEvalGsm8k.ts";
export {containsPhrase, normalizeForMatch, scoreRetrieval} from "./needle.ts";
export {asciiNumerals, findNumbers, parseNumber, sameNumber} from "./numbers.ts";
export {SCORERS, ScoreSpecError, scoreItem, type ScoreInput, type Scored, type ScorerId} from "./score.ts";
export {
  emptyRate,
  qualitySummary,
  type CaseQuality,
  type ConstraintRate,
  type Gsm8kReadingTotals,
  type Gsm8kTotals,
  type NeedleCell,
  type NeedleTable,
  type PromptRate,
  type QualityGroup,
  type QualitySummary,
  type Rate,
  type ScorerCondition,
  type TierRate,
  type ToolTotals
} from "./summary.ts";
export {checkCall, scoreToolCalls, validateSchema, type JsonSchema, type ToolCall, type ToolDecl} from "./toolCall.ts";
