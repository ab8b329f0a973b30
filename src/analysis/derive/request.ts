import {TOKEN_KINDS, type EventKind, type RequestRecord, type SseEvent} from "../schema/records.ts";
import {answerStart, streamedDeltas} from "./tokenEvents.ts";
import {deriveEmbedding} from "./embedding.ts";
import {transportOutcome, type Outcome} from "./outcome.ts";
import {transportTimes} from "./times.ts";

/**
 * Per-request facts derived from the raw record: the only place where raw timestamps become
 * "first token", "last counted token", outcome and token counts. Metrics are formulas over these facts.
 * All times stay in the record's ns time base; null means "not observed".
 */
export interface DerivedRequest {
  record: RequestRecord;
  outcome: Outcome;
  success: boolean;
  /** A non-streamed answer (embeddings, derive/embedding.ts): no events, no output tokens, no TTFT. */
  nonStreamed: boolean;
  /** Start of the schedule view: scheduled time, else dispatch time. */
  tStart: number | null;
  tSched: number | null;
  /** The client began the request (bundle v2; the first attempt's start when it was re-sent), else null. */
  tCall: number | null;
  /** TCP connected / TLS finished (fresh connections, bundle v2). */
  tConn: number | null;
  tTls: number | null;
  tDisp: number | null;
  tHdr: number | null;
  tByte1: number | null;
  /** First SSE data event of any kind. */
  tEv1: number | null;
  /** First event carrying counted output (a non-empty delta on any channel, see `tokenIdx`). */
  tTok1: number | null;
  /** First non-empty content or tool-call delta (first visible output). */
  tContent1: number | null;
  /**
   * First token of the answer: the first token-bearing event after the thinking (after the last reasoning
   * event before the first content), an empty-text token the server counts included; the first token event
   * when the stream has no reasoning channel. Null without answer tokens.
   */
  tAnswer1: number | null;
  /**
   * Where the counted output tokens end: the last token-bearing event, or a finish event after it that
   * carries the end-of-sequence token (see `eosOnFinish`).
   */
  tTokN: number | null;
  /** Time of the terminal marker ([DONE] or the first event with a finish_reason), or null. */
  tTerminal: number | null;
  /**
   * End of the request: tEndNs, else the last event (null for imports whose records do not hold every
   * event). For a stream that hung after its terminal marker, the last event (the hang is in `hung`).
   */
  tEnd: number | null;
  /** Indices into record.events of the events that carry counted output tokens, in order. */
  tokenIdx: number[];
  tokenEvents: number;
  /** Output tokens from the server (usage), or the sum of per-event deltas; null when unknown. */
  out: number | null;
  in: number | null;
  cached: number | null;
  /** True when every token-bearing event carries a server token delta. */
  deltasKnown: boolean;
  /** Token-bearing events whose delta was > 1 (multi-token chunks). */
  multiTokenEvents: number;
  /** Events with a non-empty delta (each carries at least one token): a lower bound of the output. */
  nonEmptyEvents: number;
  /**
   * The stream's own count: Σ per-event deltas when known, less a jump of the running count after the last text
   * (not streamed: `streamedDeltas`), else one token per streamed event that can carry
   * one (token-bearing events and empty-text events).
   */
  streamTokens: number;
  /** The server counted tokens that the stream delivered as empty text only (partial UTF-8 held back). */
  emptyText: boolean;
  /** A finish event after the last text carries the end-of-sequence token that usage counts. */
  eosOnFinish: boolean;
  /** The stream stayed open after its terminal marker until the client closed it. */
  hung: boolean;
  /** How long it stayed open past the terminal marker, ns (hung streams), else null. */
  hangNs: number | null;
  hasReasoning: boolean;
  /** First non-empty reasoning delta (reasoning models), else null. */
  tReason1: number | null;
  /**
   * Output tokens spent thinking: the server's usage (completion_tokens_details.reasoning_tokens), else the
   * exact per-event deltas of the reasoning events (0 when the stream shows none), else null (unknown).
   */
  reasoningTokens: number | null;
  errorEvents: number;
  timeBase: "run" | "request";
  /** False when the record holds only the first and last token events (imports): chunk counts and gaps are unknown. */
  chunksKnown: boolean;
}

export interface DeriveOptions {
  /**
   * Bundle v1 recorded an empty-text delta as `role`; on the completions endpoint (which has no role chunks)
   * such events are empty-text events. Set for v1 bundles of the completions endpoint.
   */
  roleIsEmptyText?: boolean;
  /** Hangs longer than this after the terminal marker are recorded as such (bundle v1 did not say; ns). */
  closeNs?: number;
}

const isOk = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
const DEFAULT_CLOSE_NS = 10_000 * 1e6;

/** One pass over a request's events: first and terminal times, token-carrying events, counts by kind. */
interface EventScan {
  tEv1: number | null;
  tContent1: number | null;
  tTerminal: number | null;
  lastEvent: number | null;
  errorEvents: number;
  parseErrors: number;
  done: boolean;
  deltaSum: number;
  hasReasoning: boolean;
  tReason1: number | null;
  /** Σ per-event token deltas of the reasoning events, and whether every one had a delta. */
  reasoningDelta: number;
  reasoningDeltaKnown: boolean;
  nonEmpty: number;
  empties: number;
  lastFinish: number;
  /** Indexes of the events that carry tokens. */
  tokenIdx: number[];
}

function scanEvents(events: RequestRecord["events"], emptyKind: EventKind): EventScan {
  const s: EventScan = {
    tEv1: null,
    tContent1: null,
    tTerminal: null,
    lastEvent: null,
    errorEvents: 0,
    parseErrors: 0,
    done: false,
    deltaSum: 0,
    hasReasoning: false,
    tReason1: null,
    reasoningDelta: 0,
    reasoningDeltaKnown: true,
    nonEmpty: 0,
    empties: 0,
    lastFinish: -1,
    tokenIdx: []
  };
  for (let i = 0; i < events.length; i++) {
    const [t, , kind, tokens] = events[i]!;
    s.lastEvent = t;
    if (kind === "done") {
      s.done = true;
      s.tTerminal ??= t;
      continue;
    }
    if (s.tEv1 === null) s.tEv1 = t;
    if (tokens !== null) s.deltaSum += tokens;
    if (kind === "error") s.errorEvents++;
    else if (kind === "parse_error") s.parseErrors++;
    else if (kind === "finish") {
      s.lastFinish = i;
      s.tTerminal ??= t;
    } else if (kind === emptyKind) s.empties++;
    if (TOKEN_KINDS.has(kind)) {
      s.nonEmpty++;
      s.tokenIdx.push(i);
      if (kind === "reasoning") {
        s.hasReasoning = true;
        s.tReason1 ??= t;
        if (tokens === null) s.reasoningDeltaKnown = false;
        else s.reasoningDelta += tokens;
      } else if (s.tContent1 === null) s.tContent1 = t;
    } else if (kind === emptyKind && tokens !== null && tokens >= 1) s.tokenIdx.push(i); // counted by the server
  }
  return s;
}

/**
 * Where the counted tokens are when the text events do not show them all (adds them to `s.tokenIdx`):
 * tokens the server streamed only as empty-text chunks, and the end-of-sequence token on the finish chunk.
 */
function countedTokens(
  r: RequestRecord,
  s: EventScan,
  emptyKind: EventKind,
  out: number | null,
  deltasKnown: boolean
): {emptyText: boolean; eosOnFinish: boolean} {
  const events = r.events;
  const tokenIdx = s.tokenIdx;
  // The server counted tokens that it streamed only as empty-text chunks: those chunks are its tokens.
  let emptyText = false;
  if (s.nonEmpty === 0 && tokenIdx.length === 0 && s.empties > 0 && out !== null && out >= 1) {
    emptyText = true;
    for (let i = 0; i < events.length; i++) if (events[i]![2] === emptyKind) tokenIdx.push(i);
  }
  // The end-of-sequence token of a natural stop arrives with the finish chunk after the last text: the
  // counted tokens end there. Known exactly from per-event deltas; without them, when the server counted
  // more tokens than the stream showed events and the stop was not a length limit.
  // A model that stops at once (its first token is the end-of-sequence token) streams only that finish
  // chunk: the server counted one token and the answer is complete, and empty. A count above one with no token
  // streamed at all is not that: the tokens it claims never arrived (an empty output, not a one-token answer).
  let eosOnFinish = false;
  const lastToken = tokenIdx.at(-1) ?? -1;
  if (s.lastFinish > lastToken) {
    const delta = events[s.lastFinish]![3];
    const natural = r.finishReason !== null && r.finishReason !== "length";
    const claimed = out !== null && out > tokenIdx.length && (tokenIdx.length > 0 || out === 1);
    if (deltasKnown ? delta !== null && delta >= 1 : natural && claimed) eosOnFinish = true;
  }
  if (eosOnFinish) tokenIdx.push(s.lastFinish);
  return {emptyText, eosOnFinish};
}

/** A successful stream the server kept open past its terminal marker: its end is its last event. */
function hangOf(
  r: RequestRecord,
  s: EventScan,
  tEnd: number | null,
  closeNs: number
): {tEnd: number | null; hung: boolean; hangNs: number | null} {
  if (s.tTerminal === null || s.lastEvent === null || tEnd === null) return {tEnd, hung: false, hangNs: null};
  const closedByClient = r.transportError === "close_timeout" || r.transportError === "timeout_body";
  // measured from the terminal marker, as the gate (G29) and the collector's close timeout define it
  if (closedByClient || tEnd - s.tTerminal > closeNs)
    return {tEnd: s.lastEvent, hung: true, hangNs: tEnd - s.tTerminal};
  return {tEnd, hung: false, hangNs: null};
}

export function deriveRequest(r: RequestRecord, o: DeriveOptions = {}): DerivedRequest {
  if (r.body !== undefined) return deriveEmbedding(r, r.body);
  const events = r.events;
  const emptyKind: EventKind = o.roleIsEmptyText ? "role" : "empty";
  const s = scanEvents(events, emptyKind);
  if (s.tTerminal === null && r.finishReason !== null) s.tTerminal = s.lastEvent;

  const usageOut = r.usage?.completionTokens ?? null;
  const out =
    r.usageSource === "none" ? null : (usageOut ?? (r.usageSource === "server_continuous" ? s.deltaSum : null));
  const deltasKnown = r.usageSource === "server_continuous";
  const {emptyText, eosOnFinish} = countedTokens(r, s, emptyKind, out, deltasKnown);
  const tokenIdx = s.tokenIdx;

  let multi = 0;
  for (const i of tokenIdx) {
    const n = events[i]![3];
    if (n !== null && n > 1) multi++;
  }
  const tTok1 = tokenIdx.length > 0 ? events[tokenIdx[0]!]![0] : null;
  const tAnswer1 = answerStart(events, tokenIdx, s.tContent1);
  const tTokN = tokenIdx.length > 0 ? events[tokenIdx.at(-1)!]![0] : null;

  // Imported records do not hold the stream's terminal marker: the source tool's success verdict stands.
  const coverage = r.eventCoverage ?? "all";
  const terminal = s.done || r.finishReason !== null || coverage !== "all";
  const outcome = classify(r, {
    terminal,
    tokenEvents: tokenIdx.length,
    errorEvents: s.errorEvents,
    parseErrors: s.parseErrors
  });
  const success = outcome === "success";
  const end = r.tEndNs ?? (coverage === "all" ? s.lastEvent : null);
  const {tEnd, hung, hangNs} = success
    ? hangOf(r, s, end, o.closeNs ?? DEFAULT_CLOSE_NS)
    : {tEnd: end, hung: false, hangNs: null};
  // empty-text events that were not taken as token events can still each hold a token the server counts
  const uncountedEmpties = emptyText ? 0 : s.empties - tokenIdx.filter((i) => events[i]![2] === emptyKind).length;
  // with per-event deltas, the stream's own count is what it streamed: a jump of the running count after the
  // last text is the server's claim, not streamed (streamedDeltas)
  const natural = r.finishReason !== null && r.finishReason !== "length";
  const streamTokens = deltasKnown ? streamedDeltas(events, tokenIdx, natural) : tokenIdx.length + uncountedEmpties;
  return {
    record: r,
    outcome,
    success,
    nonStreamed: false,
    ...transportTimes(r),
    tEv1: s.tEv1,
    tTok1,
    tContent1: s.tContent1,
    tAnswer1,
    tTokN,
    tTerminal: s.tTerminal,
    tEnd,
    tokenIdx,
    tokenEvents: tokenIdx.length,
    out,
    in: r.usage?.promptTokens ?? null,
    cached: r.usage?.cachedTokens ?? null,
    deltasKnown: tokenIdx.length > 0 && deltasKnown && tokenIdx.every((i) => events[i]![3] !== null),
    multiTokenEvents: multi,
    nonEmptyEvents: s.nonEmpty,
    streamTokens,
    emptyText,
    eosOnFinish,
    hung,
    hangNs,
    hasReasoning: s.hasReasoning,
    tReason1: s.tReason1,
    reasoningTokens:
      r.usage?.reasoningTokens ??
      (deltasKnown && s.reasoningDeltaKnown && tokenIdx.length > 0 ? s.reasoningDelta : null),
    errorEvents: s.errorEvents,
    timeBase: r.timeBase,
    chunksKnown: coverage !== "first_last"
  };
}

function classify(
  r: RequestRecord,
  s: {terminal: boolean; tokenEvents: number; errorEvents: number; parseErrors: number}
): Outcome {
  const ok = isOk(r.httpStatus);
  // A complete answer (terminal marker, tokens, no error event) is a success even when the transport then
  // failed or hung: the failure after the end is recorded (`hung`, transportError) and gated apart.
  if (ok && s.tokenEvents > 0 && s.terminal && s.errorEvents === 0 && s.parseErrors === 0) return "success";
  const byTransport = transportOutcome(r.transportError);
  if (byTransport !== null) return byTransport;
  if (!ok) return "http_error";
  if (s.errorEvents > 0) return "inband_error";
  if (s.parseErrors > 0) return "parse_error";
  // A 2xx answer that was not an event stream (a JSON or HTML body: proxy pages, a server ignoring
  // `stream`) has no events and its body excerpt in errorMessage.
  if (r.events.length === 0 && r.errorMessage !== null) return "parse_error";
  if (!s.terminal) return "truncated_stream";
  return "empty_output";
}

/** Gaps between consecutive token-bearing events (raw kinds; peers' chunk definitions), in ns. */
export function chunkGaps(events: readonly SseEvent[], emit: (gapNs: number) => void): void {
  let prev: number | null = null;
  for (const [t, , kind] of events) {
    if (!TOKEN_KINDS.has(kind)) continue;
    if (prev !== null) emit(t - prev);
    prev = t;
  }
}

/** Gaps between consecutive events that carry counted tokens of one derived request (inter-chunk latency), in ns. */
export function tokenEventGaps(d: DerivedRequest, emit: (gapNs: number) => void): void {
  const ev = d.record.events;
  for (let k = 1; k < d.tokenIdx.length; k++) emit(ev[d.tokenIdx[k]!]![0] - ev[d.tokenIdx[k - 1]!]![0]);
}

/**
 * Per-token gaps: for each token-bearing event after the first, with gap Δt and token delta Δn ≥ 1,
 * emit Δn samples of Δt/Δn. Tokens reported on non-token events (usage jumps) are attributed to the next
 * token-bearing event; an event with Δn = 0 merges its gap into the next one, so no 0-ms samples are
 * invented. Tokens in the first token event produce no sample. `isToken` says which events carry tokens
 * (default: a non-empty delta).
 */
export function tokenGaps(
  events: readonly SseEvent[],
  emit: (gapNs: number, count: number) => void,
  isToken: (index: number) => boolean = (i) => TOKEN_KINDS.has(events[i]![2])
): void {
  let prev: number | null = null;
  let pending = 0;
  for (let i = 0; i < events.length; i++) {
    const [t, , , tokens] = events[i]!;
    const token = isToken(i);
    if (!token) {
      if (tokens !== null) pending += tokens;
      continue;
    }
    const n = (tokens ?? 0) + pending;
    pending = 0;
    if (prev === null) {
      prev = t;
      continue;
    }
    if (n >= 1) {
      emit((t - prev) / n, n);
      prev = t;
    }
  }
}

/** Per-token gaps of one derived request over the events that carry its counted tokens. */
export function requestTokenGaps(d: DerivedRequest, emit: (gapNs: number, count: number) => void): void {
  const set = new Set(d.tokenIdx);
  tokenGaps(d.record.events, emit, (i) => set.has(i));
}
