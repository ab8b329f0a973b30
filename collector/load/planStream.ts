/**
 * An open-loop plan written to schedule.jsonl ahead of the dispatch, in chunks: every planned request is
 * on disk before it is sent, and a plan of billions of arrivals is never held in memory (at most `ahead`
 * offsets are).
 */
export interface PlanStream {
  /** Writes and flushes the first chunk (before the first dispatch). */
  prime(): Promise<void>;
  /** The next planned offset (ns), or undefined at the end of the plan. */
  next(): Promise<number | undefined>;
  /** Offsets written to the schedule so far. */
  readonly written: number;
}

export function planStream(o: {
  offsets: Iterator<number>;
  /** Appends one schedule record (index = position in the plan). */
  append: (offsetNs: number, index: number) => void;
  flush: () => Promise<void>;
  /** Offsets kept written ahead of the dispatch (default 10,000). */
  ahead?: number;
}): PlanStream {
  const ahead = Math.max(2, o.ahead ?? 10_000);
  const queue: number[] = [];
  let head = 0;
  let written = 0;
  let done = false;
  const fill = async (n: number): Promise<void> => {
    for (let k = 0; k < n && !done; k++) {
      const r = o.offsets.next();
      if (r.done) {
        done = true;
        break;
      }
      o.append(r.value, written++);
      queue.push(r.value);
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
    }
  };
}
