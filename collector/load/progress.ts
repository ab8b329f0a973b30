import cliProgress from "cli-progress";

import type {Clock, Logger} from "../effects.ts";

/** Progress of one phase of one load point. Progress goes to stderr only; stdout carries the bundle path. */
export interface Progress {
  start(label: string, total: number | null, durationS: number | null): void;
  tick(ok: boolean): void;
  end(): void;
}

export const silentProgress: Progress = {start: () => undefined, tick: () => undefined, end: () => undefined};

interface State {
  label: string;
  total: number | null;
  durationS: number | null;
  done: number;
  errors: number;
  t0: bigint;
}

const rateOf = (s: State, clock: Clock) => {
  const el = Number(clock.nowNs() - s.t0) / 1e9;
  return el > 0 ? s.done / el : 0;
};

/** A cli-progress bar on a terminal; a plain line every `everyMs` otherwise. */
export function createProgress(log: Logger, clock: Clock, everyMs = 5000): Progress {
  let s: State | null = null;
  if (log.tty) {
    let bar: cliProgress.SingleBar | null = null;
    return {
      start(label, total, durationS) {
        s = {label, total, durationS, done: 0, errors: 0, t0: clock.nowNs()};
        bar = new cliProgress.SingleBar({
          stream: log.stream,
          format: `{label} [{bar}] {value}/{total}{unit} | {done} done | {rate} req/s | errors {errors}`,
          hideCursor: false,
          clearOnComplete: false,
          fps: 5
        });
        bar.start(total ?? Math.ceil(durationS ?? 0), 0, {
          label,
          done: 0,
          rate: "0.0",
          errors: 0,
          unit: total === null ? " s" : ""
        });
      },
      tick(ok) {
        if (!s || !bar) return;
        s.done++;
        if (!ok) s.errors++;
        const value = s.total === null ? Math.floor(Number(clock.nowNs() - s.t0) / 1e9) : s.done;
        bar.update(value, {done: s.done, rate: rateOf(s, clock).toFixed(1), errors: s.errors});
      },
      end() {
        bar?.stop();
        bar = null;
        s = null;
      }
    };
  }
  let timer: NodeJS.Timeout | null = null;
  const line = () => {
    if (!s) return;
    const of = s.total === null ? ` (${s.durationS ?? "?"} s planned)` : `/${s.total}`;
    log.info(`[progress] ${s.label}: ${s.done}${of} done, ${rateOf(s, clock).toFixed(1)} req/s, ${s.errors} errors`);
  };
  return {
    start(label, total, durationS) {
      s = {label, total, durationS, done: 0, errors: 0, t0: clock.nowNs()};
      timer = setInterval(line, everyMs);
      timer.unref();
    },
    tick(ok) {
      if (!s) return;
      s.done++;
      if (!ok) s.errors++;
    },
    end() {
      if (timer) clearInterval(timer);
      timer = null;
      line();
      s = null;
    }
  };
}
