import {TOKEN_KINDS, type RequestRecord, type SseEvent} from "../schema/records.ts";
import type {Outcome} from "./outcome.ts";

/**
 * Per-request facts derived from the raw record: the only place where raw timestamps become
 * "first token", "last token", outcome and token counts. Metrics are formulas over these facts.
 * All times stay in the record's ns time base; null means "not observed".
 */
export interface DerivedRequest {
  record: RequestRecord;
  outcome: Outcome;
  success: boolean;
  /** Start of the schedule view: scheduled time, else dispatch time. */
  tStart: number | null;
  tSched: number | null;
  tDisp: number | null;
  tHdr: number | null;
  tByte1: number | null;
  /** First SSE data event of any kind. */
  tEv1: number | null;
  /** First non-empty delta on any channel (content, reasoning, tool call). */
  tTok1: number | null;
  /** First non-empty content or tool-call delta (first visible output). */
  tContent1: number | null;
  /** Last token-bearing event. */
  tTokN: number | null;
  /** Stream end: tEndNs, else the last event (null for imports whose records do not hold every event). */
  tEnd: number | null;
  tokenEvents: number;
  /** Output tokens from the server (usage), or the sum of per-event deltas; null when unknown. */
  out: number | null;
  in: number | null;
  cached: number | null;
  /** True when every token-bearing event carries a server token delta. */
  deltasKnown: boolean;
  /** Token-bearing events whose delta was > 1 (multi-token chunks). */
  multiTokenEvents: number;
  hasReasoning: boolean;
  errorEvents: number;
  timeBase: "run" | "request";
  /** False when the record holds only the first and last token events (imports): chunk counts and gaps are unknown. */
  chunksKnown: boolean;
}

const isOk = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

export function deriveRequest(r: RequestRecord): DerivedRequest {
  let tEv1: number | null = null;
  let tTok1: number | null = null;
  let tContent1: number | null = null;
  let tTokN: number | null = null;
  let lastEvent: number | null = null;
  let tokenEvents = 0;
  let errorEvents = 0;
  let parseErrors = 0;
  let done = false;
  let deltaSum = 0;
  let deltasKnown = true;
  let multi = 0;
  let hasReasoning = false;
  for (const ev of r.events) {
    const [t, , kind, tokens] = ev;
    lastEvent = t;
    if (kind === "done") {
      done = true;
      continue;
    }
    if (tEv1 === null) tEv1 = t;
    if (tokens !== null) deltaSum += tokens;
    if (kind === "error") errorEvents++;
    else if (kind === "parse_error") parseErrors++;
    if (!TOKEN_KINDS.has(kind)) continue;
    tokenEvents++;
    if (tTok1 === null) tTok1 = t;
    if (kind === "reasoning") hasReasoning = true;
    else if (tContent1 === null) tContent1 = t;
    tTokN = t;
    if (tokens === null) deltasKnown = false;
    else if (tokens > 1) multi++;
  }
  // Imported records do not hold the stream's terminal marker: the source tool's success verdict stands.
  const coverage = r.eventCoverage ?? "all";
  const terminal = done || r.finishReason !== null || coverage !== "all";
  const outcome = classify(r, {terminal, tokenEvents, errorEvents, parseErrors});
  const usageOut = r.usage?.completionTokens ?? null;
  const out = r.usageSource === "none" ? null : (usageOut ?? (r.usageSource === "server_continuous" ? deltaSum : null));
  return {
    record: r,
    outcome,
    success: outcome === "success",
    tStart: r.tSchedNs ?? r.tDispNs,
    tSched: r.tSchedNs,
    tDisp: r.tDispNs,
    tHdr: r.tHdrNs,
    tByte1: r.tByte1Ns,
    tEv1,
    tTok1,
    tContent1,
    tTokN,
    tEnd: r.tEndNs ?? (coverage === "all" ? lastEvent : null),
    tokenEvents,
    out,
    in: r.usage?.promptTokens ?? null,
    cached: r.usage?.cachedTokens ?? null,
    deltasKnown: tokenEvents > 0 && deltasKnown,
    multiTokenEvents: multi,
    hasReasoning,
    errorEvents,
    timeBase: r.timeBase,
    chunksKnown: coverage !== "first_last"
  };
}

function classify(
  r: RequestRecord,
  s: {terminal: boolean; tokenEvents: number; errorEvents: number; parseErrors: number}
): Outcome {
  const ok = isOk(r.httpStatus);
  if (ok && s.tokenEvents > 0 && s.terminal && s.errorEvents === 0 && s.parseErrors === 0) return "success";
  if (r.transportError !== null) {
    switch (r.transportError) {
      case "timeout_headers":
      case "timeout_body":
      case "timeout_total":
      case "conn_refused":
      case "conn_reset":
      case "client_abort":
        return r.transportError;
      case "dns":
        return "conn_refused";
      case "event_too_large":
        return "parse_error";
      default:
        return "transport_error";
    }
  }
  if (!ok) return "http_error";
  if (s.errorEvents > 0) return "inband_error";
  if (s.parseErrors > 0) return "parse_error";
  // A 2xx answer that was not an event stream (a JSON or HTML body: proxy pages, a server ignoring
  // `stream`) has no events and its body excerpt in errorMessage.
  if (r.events.length === 0 && r.errorMessage !== null) return "parse_error";
  if (!s.terminal) return "truncated_stream";
  return "empty_output";
}

/** Gaps between consecutive token-bearing events (inter-chunk latency samples), in ns. */
export function chunkGaps(events: readonly SseEvent[], emit: (gapNs: number) => void): void {
  let prev: number | null = null;
  for (const [t, , kind] of events) {
    if (!TOKEN_KINDS.has(kind)) continue;
    if (prev !== null) emit(t - prev);
    prev = t;
  }
}

/**
 * Per-token gaps: for each token-bearing event after the first, with gap Δt and token delta Δn ≥ 1,
 * emit Δn samples of Δt/Δn. Tokens reported on non-content events (usage jumps) are attributed to
 * the next token-bearing event; an event with Δn = 0 merges its gap into the next one, so no 0-ms
 * samples are invented. Tokens in the first token event produce no sample.
 */
export function tokenGaps(events: readonly SseEvent[], emit: (gapNs: number, count: number) => void): void {
  let prev: number | null = null;
  let pending = 0;
  for (const [t, , kind, tokens] of events) {
    if (tokens !== null && !TOKEN_KINDS.has(kind)) {
      pending += tokens;
      continue;
    }
    if (!TOKEN_KINDS.has(kind)) continue;
    const n = (tokens ?? 0) + pending;
    pending = 0;
    if (prev === null) {
      prev = t;
      continue;
    }
    if (n >= 1) {
      emit((t - prev) / n, n);
      prev = t;
    } else {
      pending = 0;
    }
  }
}
