import type {JsonBody} from "../schema/body.ts";
import type {RequestRecord} from "../schema/records.ts";
import {transportOutcome, type Outcome} from "./outcome.ts";
import type {DerivedRequest} from "./request.ts";
import {transportTimes} from "./times.ts";

/**
 * Per-request facts of a non-streamed embeddings request (`record.body` present). It has no events and no
 * output tokens: the stream's facts are null (never zero), and its latency is the whole answer, from the
 * schedule (or dispatch) to the end of the body.
 *
 * Success: a 2xx status, a JSON body, exactly one vector per input, every vector of one length > 0 and
 * every entry a finite number. A transport error decides first (as for streams), except a close timeout,
 * which cannot happen to a body that ended.
 */
export function embeddingOutcome(r: RequestRecord, body: JsonBody): Outcome {
  const ok = r.httpStatus !== null && r.httpStatus >= 200 && r.httpStatus < 300;
  const byTransport = transportOutcome(r.transportError);
  if (byTransport !== null) return byTransport;
  if (!ok) return "http_error";
  if (!body.json) return "parse_error";
  const v = body.vectors;
  if (v === null || v.length !== body.inputs) return "invalid_embedding";
  const dims = v[0]!;
  if (dims === 0 || v.some((n) => n !== dims) || body.nonFinite > 0) return "invalid_embedding";
  return "success";
}

export function deriveEmbedding(r: RequestRecord, body: JsonBody): DerivedRequest {
  const outcome = embeddingOutcome(r, body);
  return {
    record: r,
    outcome,
    success: outcome === "success",
    nonStreamed: true,
    ...transportTimes(r),
    tEv1: null,
    tTok1: null,
    tContent1: null,
    tAnswer1: null,
    tTokN: null,
    tTerminal: null,
    tEnd: r.tEndNs,
    tokenIdx: [],
    tokenEvents: 0,
    out: null,
    in: r.usage?.promptTokens ?? null,
    cached: r.usage?.cachedTokens ?? null,
    deltasKnown: false,
    multiTokenEvents: 0,
    nonEmptyEvents: 0,
    streamTokens: 0,
    emptyText: false,
    eosOnFinish: false,
    hung: false,
    hangNs: null,
    hasReasoning: false,
    tReason1: null,
    reasoningTokens: null,
    errorEvents: 0,
    timeBase: r.timeBase,
    chunksKnown: true
  };
}
