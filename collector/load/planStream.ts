import {owns, WHOLE, type Slice} from "../../src/analysis/schema/shard.ts";
import type {PlannedSend} from "./dispatch.ts";

/**
 * An open-loop plan written to schedule.jsonl ahead of the dispatch, in chunks: every planned request is
 * on disk before it is sent, and a plan of billions of arrivals is never held in memory (at most `ahead`
 * offsets are). A shard's plan is its slice of the global plan: the same offsets, its own ordinals only.
 */
export interface PlanStream {
  /** Writes and flushes the first chunk (before the first dispatch). */
  prime(): Promise<void>;
  /** The next planned send (global ordinal, offset in ns), or undefined at the end of the plan. */
  next(): Promise<PlannedSend | undefined>;
  /** This shard's planned sends written to the schedule so far. */
  readonly written: number;
  /** Ordinals of the global plan generated so far (every shard's). */
  readonly generated: number;
}

export function planStream(o: {
  offsets: Iterator<number>;
  /** Appends one schedule record (index = ordinal in the global plan). */
  append: (offsetNs: number, index: number) => void;
  flush: () => Promise<void>;
  /** Offsets kept written ahead of the dispatch (default 10,000). */
  ahead?: number;
  /** The shard's slice (default: the whole plan). */
  slice?: Slice;
}): PlanStream {
  const ahead = Math.max(2, o.ahead ?? 10_000);
  const slice = o.slice ?? WHOLE;
  const queue: PlannedSend[] = [];
  let head = 0;
  let written = 0;
  let generated = 0;
  let done = false;
  const fill = async (n: number): Promise<void> => {
    for (let k = 0; k < n && !done;) {
      const r = o.offsets.next();
      if (r.done) {
        done = true;
        break;
      }
      const index = generated++;
      if (!owns(slice, index)) continue;
      o.append(r.value, index);
      queue.push({index, offsetNs: r.value});
      written++;
      k++;
    }
    await o.flush();
  };
  return {
    prime: () => fill(ahead),
    async next() {
      if (!done && queue.length - head < ahead / 2) {
        queue.splice(0, head);
        head = 0;
        await fill(Math.ceil(ahead / 2));
      }
      return head < queue.length ? queue[head++] : undefined;
    },
    get written() {
      return written;
    },
    get generated() {
      return generated;
    }
  };
}
