/** English strings: quality cases and scorers on the run report. */
export const enQuality = {
  quality: "Quality",
  qualityNone: "Quality not evaluated for this bundle (not evaluated is not zero).",
  scorer: "Scorer",
  gsm8kNote:
    "Accuracy is over every item: truncated, failed and unextractable answers are wrong and stay in the denominator. Coverage = share of items with a complete response from which that reading extracted an answer.",
  gsm8kLmEval:
    'Strict and flexible are lm-evaluation-harness\'s gsm8k filters and its exact_match: strict-match takes the first "#### N", flexible-extract the last number-like match, and both compare the text with commas, "$" and a final period removed. Lenient is our own reading: the last "#### N", else the last \\boxed{N}, else the last number, reading Unicode digits, fractions and currency. lm-eval read at commit',
  gsm8kV1:
    'Scored under quality version 1, before lm-eval parity: strict was the last "#### N" or else the last \\boxed{N}, flexible the last number. These are not lm-eval\'s readings and are not comparable with them; coverage was recorded for flexible only, and no lenient reading was recorded.',
  gsm8kRule: "Reading",
  gsm8kStrict: "Strict (lm-eval strict-match)",
  gsm8kFlexible: "Flexible (lm-eval flexible-extract)",
  gsm8kLenient: "Lenient",
  gsm8kStrictV1: "Strict (v1)",
  gsm8kFlexibleV1: "Flexible (v1)",
  gsm8kNotRecorded: "not recorded",
  condition: "Condition",
  accuracy: "Accuracy",
  coverage: "Coverage",
  passRate: "Pass rate",
  qualityLayer: "Quality layer",
  qualitySectionNotEvaluated: "not evaluated ({not_evaluated})",
  qualitySectionNotEvaluated2: ", +{not_evaluated} not evaluated",
  qualitySectionIdleOneAtA: "idle (one at a time)",
  qualitySectionUnderLoad: "under load: {p}",
  qualitySectionOneAtATime: "one at a time",
  qualitySectionInFlight: "{n} in flight",
  qualitySectionPrefixNoSuccess: "unknown: none of this case's measured requests succeeded",
  qualitySectionPrefixNoPromptLog:
    "unknown: the bundle logs no prompts to bound the prefix cache by (it predates the prompt log)",
  qualitySectionNoTier: "not applicable: the case states no tiers",
  qualitySectionNeedleDepth: "needle depth",
  qualitySectionContextTokens: "context tokens",
  qualitySectionThisBundleWasCollected:
    "This bundle was collected from a model with random (untrained) weights: its answers are gibberish, so every quality score is near zero by construction. The quality numbers below test the measurement, not the model.",
  qualitySectionCasePerformanceByTier: "Case performance by tier",
  qualitySectionTieredCasesAreRead:
    "Tiered cases are read at their stated tier (★: the heaviest tier; the last round for conversations), with every tier beside it; a cross-tier mix is never the headline. SLO pass = requests meeting every SLO ÷ all requests (failures stay in the denominator). Medians need n ≥ 5.",
  qualitySectionCase: "Case",
  qualitySectionTier: "Tier",
  qualitySectionSentAs: "Sent as",
  qualitySectionSuccess: "Success",
  qualitySectionSloPass: "SLO pass",
  qualitySectionDecodeP50TokS: "Decode p50 (tok/s)",
  qualitySectionPrefillP50TokS: "Prefill p50 (tok/s)",
  qualitySectionPrefixCache: "Prefix cache: ceiling / served",
  qualitySectionPrefixCacheTitle:
    "Share of prompt tokens an unbounded prefix cache could have served (items sharing a document's start) / the share the server reported as cached. Where it served any, TTFT and prefill of the tier are not the whole prefill.",
  qualitySectionStatedTier: "stated tier",
  qualitySectionRecordsOfDifferentQuality:
    "Records of different quality versions are listed apart, never combined or compared.",
  qualitySectionTheseRecordsWereScored:
    "These records were scored under quality version {qualityVersion}, not the current definition: do not compare them with current scores.",
  qualitySectionFrozen:
    "Verdicts frozen in the bundle when it was collected, read as recorded: this analyzer did not score these answers.",
  qualitySectionPassRateAllItems: "Pass rate (all items)",
  qualitySectionStatedTier2: "Stated tier",
  qualitySectionEveryTier: "Every tier",
  qualitySectionPerConstraint: "Per constraint",
  qualitySectionStrictChecksTheResponse:
    "Strict checks the response as it is; loose (as in IFEval) passes when a variant without asterisks, the first line or the last line passes.",
  qualitySectionConstraint: "Constraint",
  qualitySectionStrict: "Strict",
  qualitySectionLoose: "Loose",
  qualitySectionPerPromptRows: "Per prompt ({prompts} rows)",
  qualitySectionPrompt: "Prompt",
  qualitySectionToolCalls: " tool calls: ",
  qualitySectionReturnedValidAndInvalid:
    "{where}: {calls} returned, {valid} valid and {invalid} invalid against the declared schema",
  qualitySectionNeedleRetrievalByContext: "Needle retrieval by context length × depth (lost in the middle)",
  qualitySectionOverall: "overall",
  qualitySectionDepth: "depth",
  qualityTableQualityVersion: "Quality version"
} as const satisfies Record<string, string>;
