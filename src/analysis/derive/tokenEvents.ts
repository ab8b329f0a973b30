/** Facts read from a request's token-bearing events (indexes into its events, as `deriveRequest` finds them). */
import {max} from "d3-array";

import type {RequestRecord} from "../schema/records.ts";

/**
 * The stream's own token count from per-event deltas. A delta on a token-bearing event is streamed; so is a
 * jump of the running count on an event without text that comes before later text (a tool parser or UTF-8
 * buffer releases the counted tokens' text afterwards: fault F9). A jump after the last text is not streamed
 * (the server's claim alone), except one token on a natural stop: the end-of-sequence token on a trailing
 * usage chunk, as on a finish chunk.
 */
export function streamedDeltas(events: RequestRecord["events"], idx: readonly number[], naturalStop: boolean): number {
  const token = new Set(idx);
  const last = max(idx) ?? -1;
  let n = 0;
  let trailing = 0;
  for (let i = 0; i < events.length; i++) {
    const d = events[i]![3] ?? 0;
    if (token.has(i) || i < last) n += d;
    else trailing += d;
  }
  return n + (naturalStop && trailing === 1 ? 1 : 0);
}

/**
 * The first answer token's time (`tAnswer1`): the first token event after the last reasoning event that comes
 * before the first content (or the last reasoning event at all, when no content came).
 */
export function answerStart(
  events: RequestRecord["events"],
  tokenIdx: readonly number[],
  tContent1: number | null
): number | null {
  let after = -1;
  for (const i of tokenIdx) {
    const [t, , kind] = events[i]!;
    if (tContent1 !== null && t >= tContent1) break;
    if (kind === "reasoning") after = i;
  }
  const first = tokenIdx.find((i) => i > after && events[i]![2] !== "reasoning");
  return first === undefined ? null : events[first]![0];
}
