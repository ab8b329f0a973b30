import type {LauncherSpec, VariantRecord} from "../../src/analysis/schema/experiment.ts";
import type {Effects} from "../effects.ts";

export type TeardownStep = VariantRecord["teardown"][number];

/**
 * What the experiment keeps on disk about a live server (state.json), so that a later run can tear down
 * what a killed one left behind: the process group it started (with the start time that tells a recycled
 * PID apart), or the container it named.
 */
export type LiveHandle =
  | {kind: "process"; variant: string; pid: number; startTicks: string | null; command: string[]}
  | {kind: "docker"; variant: string; container: string; docker: string}
  | {kind: "external"; variant: string};

/** A launched server: where it answers, how it was started, its log, and its one teardown. */
export interface Launched {
  baseUrl: string;
  /** The command line as started (not yet redacted). */
  command: string[] | null;
  handle: LiveHandle;
  /** Why the server is gone (exit code or signal), or null while it runs. */
  exited(): Promise<string | null>;
  /** The server's output so far (stdout and stderr interleaved, the last few MiB). */
  logs(): Promise<string>;
  /** Stops it (idempotent); every step and whether it worked. */
  stop(): Promise<TeardownStep[]>;
}

export interface LaunchRequest {
  fx: Effects;
  variant: string;
  launcher: LauncherSpec;
  /** Arguments the grid adds after the launcher's own. */
  extraArgs: readonly string[];
  /** Placeholder values ({port} and {host} are added by the launcher). */
  vars: Readonly<Record<string, string>>;
  /** Folder relative paths (cwd) are resolved against. */
  planDir: string;
}
