import {globalOrdinal, ownCount, owns, WHOLE, type Slice} from "../../src/analysis/schema/shard.ts";
import type {PhaseContext} from "./dispatch.ts";

/**
 * Closed loop over conversations: `users` users, each taking the next whole conversation and sending its
 * `turns` requests in order — request s·K + t is turn t + 1 of conversation s — with `thinkMs` between an
 * answer and the next turn. A conversation's first turn is scheduled at the moment its user was free (as
 * in the closed loop); a later turn at its answer's end plus the think time, so a late dispatch still
 * shows as dispatch lag. A conversation is never split: a stop ends it between turns (those not sent are
 * accounted for by the caller), and a shard (`slice`, dealt whole conversations: group = turns) takes the
 * conversations s with s mod n = k, with its share of the users. Returns the number of requests dispatched
 * and the ranges of the slice's own ordinals never sent (global ordinals).
 */
export async function runSessions(
  ctx: PhaseContext,
  o: {
    users: number;
    turns: number;
    count: number;
    thinkMs: number;
    sleep: (ms: number) => Promise<boolean>;
    slice?: Slice;
  }
): Promise<{sent: number; unsent: [number, number][]}> {
  const slice = o.slice ?? WHOLE;
  if (slice.count > 1 && (slice.group ?? 1) !== o.turns)
    throw new Error(`a sessions shard is dealt whole conversations: group ${slice.group ?? 1} ≠ turns ${o.turns}`);
  const start = Number(ctx.clock.nowNs() - ctx.origin);
  // the slice's own conversations: its j-th first turn is global ordinal globalOrdinal(slice, j·turns)
  const conversations = Math.floor(ownCount(slice, o.count) / o.turns);
  let next = 0;
  let sent = 0;
  const done = new Uint8Array(o.count);
  const user = async () => {
    let free = start;
    for (;;) {
      if (ctx.control.stopped || next >= conversations) return;
      const first = globalOrdinal(slice, next++ * o.turns);
      let tSched = free;
      for (let t = 0; t < o.turns; t++) {
        if (ctx.control.stopped) return;
        if (t > 0 && o.thinkMs > 0) {
          tSched += Math.round(o.thinkMs * 1e6);
          if (!(await o.sleep(o.thinkMs))) return;
        }
        sent++;
        done[first + t] = 1;
        tSched = await ctx.send(first + t, tSched);
      }
      free = tSched;
    }
  };
  await Promise.all(Array.from({length: Math.min(o.users, conversations)}, user));
  return {sent, unsent: unsentRanges(done, slice)};
}

/** The slice's own ordinals not marked done, as ranges of consecutive own ordinals (global from … to). */
function unsentRanges(done: Uint8Array, slice: Slice): [number, number][] {
  const unsent: [number, number][] = [];
  let previous = -1;
  for (let i = 0; i < done.length; i++) {
    if (!owns(slice, i)) continue;
    if (done[i] === 0) {
      const last = unsent.at(-1);
      if (last !== undefined && last[1] === previous) last[1] = i;
      else unsent.push([i, i]);
    }
    previous = i;
  }
  return unsent;
}
