import {CliError, EXIT} from "../cliError.ts";

/** `p`, or a CliError (exit 3: the target did not answer in time) after `ms`. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | null = null;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(
          () => reject(new CliError(`${what} took longer than ${ms / 1000} s`, {exitCode: EXIT.unreachable})),
          ms
        );
      })
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
