/** Strings of a load point's workload block (issue 16): lengths asked for and realised, the prefix-cache ceiling. */
export const enWorkload = {
  wlHeading: "Workload",
  wlKind: "Prompts from: {kind}",
  wlLengths: "Lengths (tokens): requested against realised",
  wlWhat: "what",
  wlRequested: "requested",
  wlRealised: "realised (server's count)",
  wlInput: "prompt",
  wlOutput: "output",
  wlMeanP50P95: "mean · P50 · P95",
  wlPrefix: "Prefix cache: what the workload allows against what the server served",
  wlBound: "ceiling, unbounded cache",
  wlRoom: "ceiling, cache with room for {tokens} tokens ({source})",
  wlRoomConfig: "declared capacity",
  wlRoomInFlight: "the run's most in-flight prompts",
  wlMeasured: "served (Σ cached_tokens / Σ prompt tokens)",
  wlNoCounts: "— the server reported no cached-token counts",
  wlApprox: "Prompt segments are sized ≈ 1 token per filler word (no tokenizer check).",
  wlTtftHit: "TTFT, cache hits",
  wlTtftMiss: "TTFT, misses",
  wlTurns: "TTFT by conversation turn",
  wlTurn: "turn"
};
