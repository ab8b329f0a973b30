/**
 * English strings of the speculative-decoding comparison (src/analysis/compare/spec.ts): one per message id
 * of SPEC_MESSAGE_IDS, filled with the message's params by t(lang, id, params).
 */
export const enSpec = {
  specNotComparable: "Not comparable ({checks}): no verdict on speculative decoding.",
  specNoSharedPoint: "The spec-on and spec-off runs share no load point.",
  specTotalThroughputNotUsed:
    "Output tok/s including TTFT (the legacy 'total throughput') is never used to judge speculative decoding: it hides the TTFT cost. The gain is judged on pure decode speed and ITL.",
  specTtftExpected:
    "TTFT changes by {pct}% with speculation on: expected, the draft and verify work comes before the first token.",
  specUnfitShortOutput:
    "Unfit to judge: outputs of {tokens} tokens (< {min}). With short outputs the first token dominates and the gain is not amortised.",
  specUnfitOutputUnknown: "Unfit to judge: the output length is unknown (set max_tokens ≥ {min}).",
  specUnfitLongPrompt:
    "Unfit to judge the gain: prompts of {tokens} tokens are not short (> {max}); judge with short prompts and long outputs.",
  specDecodeFaster: "Pure decode speed {on} vs {off} tok/s ({pct}%, beyond the ±{threshold}% noise band): faster.",
  specDecodeSlower: "Pure decode speed {on} vs {off} tok/s ({pct}%, beyond the ±{threshold}% noise band): slower.",
  specDecodeNoClearDifference:
    "Pure decode speed {on} vs {off} tok/s ({pct}%, within ±{threshold}%): no clear difference.",
  specDecodeNotEvaluated: "Pure decode speed not evaluated: a median is missing ({on} vs {off} tok/s).",
  specSlowerDraftCost:
    "Speculation can be slower: a draft that costs nearly as much as the target (e.g. a model as its own draft) spends more than acceptance saves.",
  specItlChange: "ITL {on} vs {off} ms/token ({pct}%).",
  specAcceptance: "Acceptance rate {rate}% ({source}); mean acceptance length {length} tokens per step.",
  specAcceptanceNotExported: "Acceptance rate unknown: {reason}.",
  specCollapse:
    "Long-context collapse: at {prompt} prompt tokens spec-on decodes {on} tok/s, below {threshold} × spec-off's {off} tok/s (ratio {ratio}). Turn speculation off for long contexts.",
  specCollapseShortContext:
    "Decode collapse: at {prompt} prompt tokens (not a long context) spec-on decodes {on} tok/s, below {threshold} × spec-off's {off} tok/s (ratio {ratio}): speculation costs more than it saves on this stack even with short prompts.",
  specNoiseUnknown:
    "No second spec-off run: the answers' noise is taken as zero (greedy spec-off runs are expected to repeat their answers).",
  specQualityWithinNoise:
    "Answers: {differOn}% of {matched} matched answers differ spec-on vs spec-off, against {differOff}% spec-off vs spec-off: within the noise (margin {margin} points).",
  specQualityBeyondNoise:
    "Answers: {differOn}% of {matched} matched answers differ spec-on vs spec-off, against {differOff}% spec-off vs spec-off: beyond the noise (margin {margin} points).",
  specQualityNotEvaluated:
    "Answers not compared: fewer than {min} case-suite answers match across the runs ({matched}).",
  specQualityPassRateDrop: "Quality: the scorers pass {on}% spec-on against {off}% spec-off.",
  specGainWithChangedAnswers:
    "Flag: the decode gain comes with answers that differ beyond the noise. Check output quality before turning speculation on."
} as const;
