import {z} from "zod";

import {EventKind, RequestRecord} from "../schema/records.ts";

const KINDS: ReadonlySet<string> = new Set(EventKind.options);
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * A hand-unrolled check equivalent to `z.array(SseEvent)` (tested against it in
 * test/analysis/ingest/fastEvents.test.ts). A request carries dozens to thousands of events and
 * validating them through generic zod tuples dominated analysis time; everything else in a record
 * still goes through the zod schema.
 */
export function checkEvents(v: unknown): {path: (string | number)[]; message: string} | null {
  if (!Array.isArray(v)) return {path: [], message: "expected an array of events"};
  for (let i = 0; i < v.length; i++) {
    const e: unknown = v[i];
    if (!Array.isArray(e) || (e.length !== 4 && e.length !== 5))
      return {path: [i], message: "expected [tNs, bytes, kind, tokens] or [tNs, bytes, kind, tokens, payload]"};
    const [t, bytes, kind, tokens, payload] = e as unknown[];
    if (typeof t !== "number" || !Number.isInteger(t) || t > MAX || t < -MAX)
      return {path: [i, 0], message: `expected an integer time in ns, got ${JSON.stringify(t)}`};
    if (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 0 || bytes > MAX)
      return {path: [i, 1], message: `expected a non-negative integer byte count, got ${JSON.stringify(bytes)}`};
    if (typeof kind !== "string" || !KINDS.has(kind))
      return {path: [i, 2], message: `unknown event kind ${JSON.stringify(kind)}`};
    if (tokens !== null && (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 0 || tokens > MAX))
      return {
        path: [i, 3],
        message: `expected a non-negative integer token delta or null, got ${JSON.stringify(tokens)}`
      };
    if (e.length === 5 && payload !== undefined && typeof payload !== "string")
      return {path: [i, 4], message: `expected the event's payload as a string, got ${JSON.stringify(payload)}`};
  }
  return null;
}

const FastEvents = z.unknown().superRefine((v, ctx) => {
  const problem = checkEvents(v);
  if (problem) ctx.addIssue({code: "custom", message: problem.message, path: problem.path});
}) as unknown as typeof RequestRecord.shape.events;

/** RequestRecord with the events array checked by `checkEvents` (same accepted set, faster). */
export const RequestRecordIngest = RequestRecord.extend({events: FastEvents});
