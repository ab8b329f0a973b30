/** Facts read from a request's token-bearing events (indexes into its events, as `deriveRequest` finds them). */
import type {RequestRecord} from "../schema/records.ts";

/** Σ of the per-event token deltas of the given events (null deltas count 0). */
export function deltasOn(events: RequestRecord["events"], idx: readonly number[]): number {
  let n = 0;
  for (const i of idx) n += events[i]![3] ?? 0;
  return n;
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
