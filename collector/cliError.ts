/**
 * Exit codes of the `inferscope` command line (documented in `--help` and docs/collector.md).
 * Only collector/cli.ts turns them into a process exit.
 */
export const EXIT = {
  ok: 0,
  /** unexpected internal error (a bug) */
  internal: 1,
  /** bad configuration or usage */
  usage: 2,
  /** the target server could not be reached */
  unreachable: 3,
  /** the run finished but a verdict is not VALID (collect, gate) or a check failed (verify) */
  notValid: 4,
  /** evidence could not be written (disk full, I/O error, unwritable folder) */
  writeFailed: 5,
  /** experiment: some variants failed to start or to collect (the others ran; the record says which) */
  variantsFailed: 6,
  /** gate --baseline: the candidate or the baseline is not VALID (no regression is judged on such a run) */
  baselineNotValid: 7,
  /** interrupted by Ctrl-C / SIGTERM */
  interrupted: 130
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error meant for the user: a lowercase message and the exit code the CLI ends with. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, options: {exitCode: number; cause?: unknown}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause});
    this.name = "CliError";
    this.exitCode = options.exitCode;
  }
}
