import {realClock} from "../effects.ts";

/**
 * A drift-free pacer for open-loop dispatch. Deadlines are absolute (ns relative to `origin` on the
 * pacer's clock), so lateness never accumulates. It sleeps with setTimeout until about `spinMs` before
 * the deadline, then polls the clock in a setImmediate loop (which still lets I/O run between polls,
 * unlike a busy spin that would delay every other stream's timestamps).
 */
export interface PacerOptions {
  clock?: () => bigint;
  /** Deadlines are relative to this clock reading (default 0n: absolute clock values). */
  origin?: bigint;
  /** Length of the final polling stretch (default 1.5 ms; Node timers have a 1 ms floor and fire late). */
  spinMs?: number;
}

export interface Pacer {
  /** Resolves at or after the deadline; lateNs = how late (≥ 0). */
  waitUntil(deadlineNs: number | bigint): Promise<{lateNs: number}>;
}

/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createPacer(o: PacerOptions = {}): Pacer {
  const clock = o.clock ?? realClock.nowNs;
  const origin = o.origin ?? 0n;
  const spinNs = (o.spinMs ?? 1.5) * 1e6;
  if (!(spinNs >= 0)) throw new Error(`createPacer: spinMs must be ≥ 0, got ${o.spinMs}`);
  return {
    waitUntil(deadlineNs) {
      const target = origin + (typeof deadlineNs === "bigint" ? deadlineNs : BigInt(Math.round(deadlineNs)));
      return new Promise((resolve) => {
        const step = (): void => {
          const rem = Number(target - clock());
          if (rem <= 0) return resolve({lateNs: -rem});
          // a timer holds at most 2^31 − 1 ms (longer is fired after 1 ms): a longer wait sleeps in parts
          if (rem > spinNs) setTimeout(step, Math.min(MAX_TIMER_MS, Math.max(1, Math.floor((rem - spinNs) / 1e6))));
          else setImmediate(step);
        };
        step();
      });
    }
  };
}
