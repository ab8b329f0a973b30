import type {Phase, RequestRecord, SseEvent} from "../../src/analysis/schema/records.ts";
import type {PromptSegments, WorkloadTag} from "../../src/analysis/schema/workload.ts";
import {boundText} from "../../src/analysis/util/utf8.ts";
import type {Redactor} from "../redact.ts";
import type {Attempt} from "./send.ts";
import type {StreamResult} from "./types.ts";

export interface RequestIdentity {
  id: string;
  point: string;
  repeat: number;
  index: number;
  phase: Phase;
  tSchedNs: number | null;
  promptDigest: string;
  promptTokensIntended: number | null;
  /** null: the request asks for no output (embeddings). */
  maxTokens: number | null;
  salt: string | null;
  promptText?: string;
  workload?: WorkloadTag;
  promptSegments?: PromptSegments;
}

/** The raw request record: the transport's observations plus who the request was. No metric is computed here. */
export function toRecord(
  who: RequestIdentity,
  r: StreamResult & {attempts?: Attempt[]},
  saveText: boolean
): Omit<RequestRecord, "seq"> {
  const rec: Omit<RequestRecord, "seq"> = {
    id: who.id,
    point: who.point,
    repeat: who.repeat,
    index: who.index,
    phase: who.phase,
    timeBase: "run",
    tSchedNs: who.tSchedNs,
    tCallNs: r.tCallNs,
    tConnNs: r.tConnNs,
    tTlsNs: r.tTlsNs,
    socketReused: r.socketReused,
    tDispNs: r.tDispNs,
    tHdrNs: r.tHdrNs,
    tByte1Ns: r.tByte1Ns,
    tEndNs: r.tEndNs,
    events: r.events,
    httpStatus: r.httpStatus,
    finishReason: r.finishReason,
    usage: r.usage,
    usageSource: r.usageSource,
    serverTimings: r.serverTimings,
    transportError: r.transportError,
    errorMessage: r.errorMessage,
    promptDigest: who.promptDigest,
    responseDigest: r.responseDigest,
    promptTokensIntended: who.promptTokensIntended,
    maxTokens: who.maxTokens,
    salt: who.salt
  };
  if (r.body !== null) rec.body = r.body;
  if (who.workload !== undefined) rec.workload = who.workload;
  if (who.promptSegments !== undefined) rec.promptSegments = who.promptSegments;
  if (r.attempts !== undefined && r.attempts.length > 0) rec.attempts = r.attempts;
  if (saveText) {
    if (who.promptText !== undefined) rec.promptText = who.promptText;
    rec.responseText = r.responseText;
    if (r.reasoningText) rec.reasoningText = r.reasoningText;
  }
  return rec;
}

/**
 * Scrubs secret values from the free-text fields of a record (error text, response and prompt text, raw
 * event payloads, the head of a JSON answer). Structural fields (ids, kinds, numbers, digests) are never rewritten: they cannot carry a
 * secret and a scrub must not corrupt them (a header value equal to an event kind would otherwise turn into
 * a mark).
 */
export function redactRecord(rec: Omit<RequestRecord, "seq">, redact: Redactor): Omit<RequestRecord, "seq"> {
  const out = {...rec};
  // bounded after the scrub: a mark may be longer than the secret it replaces
  if (out.errorMessage !== null) out.errorMessage = boundText(redact(out.errorMessage));
  if (out.responseText !== undefined) out.responseText = redact(out.responseText);
  if (out.reasoningText !== undefined) out.reasoningText = redact(out.reasoningText);
  if (out.promptText !== undefined) out.promptText = redact(out.promptText);
  if (out.finishReason !== null) out.finishReason = redact(out.finishReason);
  if (out.attempts !== undefined)
    out.attempts = out.attempts.map((a) => ({
      ...a,
      errorMessage: a.errorMessage === null ? null : boundText(redact(a.errorMessage))
    }));
  if (out.body !== undefined && out.body.head !== "") out.body = {...out.body, head: redact(out.body.head)};
  if (redact.size > 0 && out.events.some((e) => e[4] !== undefined)) {
    const events = out.events.map((e): typeof e => (e[4] === undefined ? e : [e[0], e[1], e[2], e[3], redact(e[4])]));
    out.events = secretAcrossEvents(events, redact)
      ? events.map((e) => (e[4] === undefined ? e : [e[0], e[1], e[2], e[3], PAYLOAD_WITHHELD]))
      : events;
  }
  return out;
}

/** A raw event payload withheld because the stream's text, joined across events, holds a secret. */
export const PAYLOAD_WITHHELD = "[REDACTED:payload withheld: the streamed text holds a secret across events]";

/** String values of the text fields of SSE payloads (content, reasoning, text), as written in the JSON. */
const TEXT_FIELD = /"(?:content|reasoning_content|reasoning|text)"\s*:\s*"((?:[^"\\]|\\.)*)/g;

/**
 * Whether the streamed text, joined across events, still holds a secret once each payload was scrubbed alone: a
 * server echoing a key split over two chunks ("sk-ENV" + "SECRET…"). Read from the text fields of the payloads
 * (JSON-escaped; the redactor knows that variant).
 */
function secretAcrossEvents(events: readonly SseEvent[], redact: Redactor): boolean {
  let joined = "";
  for (const e of events) if (e[4] !== undefined) for (const m of e[4].matchAll(TEXT_FIELD)) joined += m[1];
  return joined !== "" && redact(joined) !== joined;
}
