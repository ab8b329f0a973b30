import type {Logger} from "../effects.ts";
import {stderrLogger} from "../effects.ts";

/** Where a command writes: `out` = stdout (results, the bundle path last), `err` = stderr (progress, notes). */
export interface Io {
  out(line: string): void;
  err: Logger;
}

export function defaultIo(): Io {
  return {out: (line) => process.stdout.write(`${line}\n`), err: stderrLogger()};
}
