import type {PhaseContext} from "./dispatch.ts";

/**
 * Closed loop over conversations: `users` users, each taking the next whole conversation and sending its
 * `turns` requests in order — request s·K + t is turn t + 1 of conversation s — with `thinkMs` between an
 * answer and the next turn. A conversation's first turn is scheduled at the moment its user was free (as
 * in the closed loop); a later turn at its answer's end plus the think time, so a late dispatch still
 * shows as dispatch lag. A conversation is never split: a stop ends it between turns (those not sent are
 * accounted for by the caller). Returns the number of requests dispatched and the index ranges never sent.
 */
export async function runSessions(
  ctx: PhaseContext,
  o: {users: number; turns: number; count: number; thinkMs: number; sleep: (ms: number) => Promise<boolean>}
): Promise<{sent: number; unsent: [number, number][]}> {
  const start = Number(ctx.clock.nowNs() - ctx.origin);
  const conversations = Math.floor(o.count / o.turns);
  let next = 0;
  let sent = 0;
  const done = new Uint8Array(o.count);
  const user = async () => {
    let free = start;
    for (;;) {
      if (ctx.control.stopped || next >= conversations) return;
      const s = next++;
      let tSched = free;
      for (let t = 0; t < o.turns; t++) {
        if (ctx.control.stopped) return;
        if (t > 0 && o.thinkMs > 0) {
          tSched += Math.round(o.thinkMs * 1e6);
          if (!(await o.sleep(o.thinkMs))) return;
        }
        sent++;
        done[s * o.turns + t] = 1;
        tSched = await ctx.send(s * o.turns + t, tSched);
      }
      free = tSched;
    }
  };
  await Promise.all(Array.from({length: Math.min(o.users, conversations)}, user));
  const unsent: [number, number][] = [];
  for (let i = 0; i < o.count; i++) {
    if (done[i] === 1) continue;
    const last = unsent.at(-1);
    if (last !== undefined && last[1] === i - 1) last[1] = i;
    else unsent.push([i, i]);
  }
  return {sent, unsent};
}
