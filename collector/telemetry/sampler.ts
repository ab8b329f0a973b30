import type {Clock} from "../effects.ts";

export interface Sampler {
  /** Stops the loop and waits for a tick in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs` on absolute deadlines (no drift, no overlap: a slow tick makes the
 * next one start late rather than twice). The first tick runs immediately.
 */
export function startSampler(options: {intervalMs: number; clock: Clock; tick: () => Promise<void> | void}): Sampler {
  const intervalNs = BigInt(Math.round(options.intervalMs * 1e6));
  let next = options.clock.nowNs();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  const loop = async () => {
    while (!stopped) {
      try {
        await options.tick();
      } catch {
        // a tick records its own failures; the loop must survive
      }
      next += intervalNs;
      const now = options.clock.nowNs();
      if (next < now) next = now;
      const waitMs = Number(next - now) / 1e6;
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, waitMs);
      });
      wake = null;
    }
  };
  running = loop();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      (wake as (() => void) | null)?.();
      await running;
    }
  };
}
