/** A counting semaphore (open-loop max_concurrency): waiters are served in arrival order. */
export class Semaphore {
  #free: number;
  #waiters: (() => void)[] = [];
  constructor(n: number) {
    this.#free = n;
  }
  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  release(): void {
    const w = this.#waiters.shift();
    if (w) w();
    else this.#free++;
  }
  /** Wakes every waiter (used when stopping: they re-check the stop flag). */
  releaseAll(): void {
    for (const w of this.#waiters.splice(0)) w();
  }
}

export type StopKind = "interrupt" | "write_error";

/**
 * The run's stop switch. `stop` ends dispatching; in-flight requests are aborted at once (write error) or
 * after the grace period (interrupt). Sleeps and waits watch `stopped` so the run winds down promptly.
 */
export class RunControl {
  stopped: {kind: StopKind; reason: string} | null = null;
  #inFlight = new Set<AbortController>();
  #listeners: (() => void)[] = [];
  #graceTimer: NodeJS.Timeout | null = null;

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Told when the first request goes in flight and when the last one ends (the loop monitors run in between). */
  #busy: {watch(): void; rest(): void} | null = null;

  track(): AbortController {
    const ac = new AbortController();
    this.#inFlight.add(ac);
    if (this.#inFlight.size === 1) this.#busy?.watch();
    return ac;
  }

  untrack(ac: AbortController): void {
    if (this.#inFlight.delete(ac) && this.#inFlight.size === 0) this.#busy?.rest();
  }

  /** `watch` when requests go in flight (now, if some are), `rest` when none are left. */
  onBusy(busy: {watch(): void; rest(): void}): void {
    this.#busy = busy;
    if (this.#inFlight.size > 0) busy.watch();
  }

  /** First call wins; a second interrupt aborts in-flight requests without waiting for the grace period. */
  stop(kind: StopKind, reason: string, graceMs: number): void {
    if (this.stopped) {
      if (kind === "interrupt" || this.stopped.kind === "write_error") this.abortAll();
      return;
    }
    this.stopped = {kind, reason};
    for (const l of this.#listeners.splice(0)) l();
    if (kind === "write_error" || graceMs <= 0) this.abortAll();
    else {
      this.#graceTimer = setTimeout(() => this.abortAll(), graceMs);
      this.#graceTimer.unref();
    }
  }

  abortAll(): void {
    for (const ac of this.#inFlight) ac.abort();
  }

  /** Resolves when `stop` is called (immediately if already stopped). */
  onStop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.#listeners.push(resolve));
  }

  /** Sleeps `ms`, or less if the run is stopped meanwhile. Returns false when cut short. */
  async sleep(ms: number): Promise<boolean> {
    if (this.stopped) return false;
    let timer: NodeJS.Timeout | null = null;
    const slept = await Promise.race([
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), ms);
      }),
      this.onStop().then(() => false)
    ]);
    if (timer) clearTimeout(timer);
    return slept;
  }

  dispose(): void {
    if (this.#graceTimer) clearTimeout(this.#graceTimer);
  }
}
