import {globalOrdinal, ownCount, WHOLE, type Slice} from "../../src/analysis/schema/shard.ts";
import type {Clock} from "../effects.ts";
import {Semaphore, type RunControl} from "./control.ts";
import type {Pacer} from "./pacer.ts";

/**
 * Sends one planned request; resolves with its end time (run-relative ns) as soon as the stream is over,
 * and records it right after (so a closed loop can dispatch the next request first). Never rejects.
 */
export type SendFn = (index: number, tSchedNs: number) => Promise<number>;

export interface PhaseContext {
  control: RunControl;
  clock: Clock;
  origin: bigint;
  send: SendFn;
}

const rel = (ctx: PhaseContext, t: bigint) => Number(t - ctx.origin);

/**
 * Closed loop: exactly `concurrency` requests in flight. The first `concurrency` requests are scheduled
 * at the phase start; every later one at the moment its slot freed (its predecessor's end time, tEndNs)
 * and is sent right away (the gap shows as dispatch lag). Stops after `count` requests or, duration-bound, when no new request may start.
 * A shard (`slice`) sends only its own ordinals of the `count` (k, k + n, …), with its own `concurrency`.
 * Returns the number dispatched.
 */
export async function runClosedLoop(
  ctx: PhaseContext,
  o: {concurrency: number; count: number | null; durationNs: number | null; slice?: Slice}
): Promise<number> {
  const slice = o.slice ?? WHOLE;
  const start = ctx.clock.nowNs();
  const deadline = o.durationNs === null ? null : start + BigInt(Math.round(o.durationNs));
  const own = o.count === null ? null : ownCount(slice, o.count);
  let next = 0;
  const worker = async () => {
    let tSched = rel(ctx, start);
    for (;;) {
      if (ctx.control.stopped) return;
      if (own !== null && next >= own) return;
      if (deadline !== null && ctx.clock.nowNs() >= deadline) return;
      const i = globalOrdinal(slice, next++);
      tSched = await ctx.send(i, tSched);
    }
  };
  // one worker per request that can be in flight: never more than the requests planned (size nothing by a
  // number the user typed beyond what is needed)
  const workers = own === null ? o.concurrency : Math.min(o.concurrency, own);
  await Promise.all(Array.from({length: workers}, worker));
  return next;
}

/** One planned send: its ordinal in the phase's plan and its offset from the phase start (ns). */
export interface PlannedSend {
  index: number;
  offsetNs: number;
}

/**
 * Where an open loop takes its planned sends from: a list of offsets (ordinal = position), or the next
 * planned send pulled from a plan, undefined at its end.
 */
export type OffsetSource = readonly number[] | (() => Promise<PlannedSend | undefined>);

/**
 * Open loop: request i is due at phase start + offset i (from a list, or pulled one at a time from a
 * plan that is written to schedule.jsonl ahead of the dispatch). The pacer waits for each deadline;
 * latency counts from the schedule, so a late dispatch shows up as dispatch lag, never hidden. With
 * `maxConcurrency`, a request waits for a free slot (its scheduled time unchanged). Returns the number
 * dispatched.
 */
export async function runOpenLoop(
  ctx: PhaseContext,
  o: {offsetsNs: OffsetSource; maxConcurrency: number | null; pacer: Pacer; onStart?: (t0: bigint) => void}
): Promise<number> {
  const list = typeof o.offsetsNs === "function" ? null : o.offsetsNs;
  const pull = typeof o.offsetsNs === "function" ? o.offsetsNs : null;
  const t0 = ctx.clock.nowNs();
  o.onStart?.(t0);
  const base = rel(ctx, t0);
  const slots = o.maxConcurrency === null ? null : new Semaphore(o.maxConcurrency);
  const pending = new Set<Promise<void>>();
  const stopped = ctx.control.onStop();
  const stopWake = () => slots?.releaseAll();
  void stopped.then(stopWake);
  let dispatched = 0;
  for (let i = 0; ; i++) {
    if (ctx.control.stopped) break;
    const planned = list !== null ? (i < list.length ? {index: i, offsetNs: list[i]!} : undefined) : await pull!();
    if (planned === undefined) break;
    const offset = planned.offsetNs;
    await Promise.race([o.pacer.waitUntil(t0 + BigInt(offset)), stopped]);
    if (ctx.control.stopped) break;
    if (slots) {
      await slots.acquire();
      if (ctx.control.stopped) break;
    }
    dispatched++;
    const p: Promise<void> = ctx.send(planned.index, base + offset).then(() => {
      slots?.release();
      pending.delete(p);
    });
    pending.add(p);
  }
  await Promise.all(pending);
  return dispatched;
}
