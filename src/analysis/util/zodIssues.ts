import type {z} from "zod";

/**
 * The one place where a zod issue becomes a location and a message. Every reader of external input
 * (bundle records, configs, peer result files) reports schema errors through these, so a path reads
 * the same everywhere.
 */

/** One zod issue: where in the value (already formatted) and what went wrong. */
export interface LocatedIssue {
  path: string;
  message: string;
}

/** Dotted path of a zod issue path: `load.values.0`; empty string for the value itself. */
export const dottedPath = (path: readonly PropertyKey[]): string => path.map(String).join(".");

/** Key path of a config: `target.headers`, `load.values[0]` (dots between keys, brackets around indices). */
export const keyPath = (path: readonly PropertyKey[]): string =>
  path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");

/** JSON path of a zod issue path: `$.benchmarks[0].metrics`, `$["p99.9"]`. */
export function jsonPath(path: readonly PropertyKey[], base = "$"): string {
  let out = base;
  for (const k of path)
    out +=
      typeof k === "number"
        ? `[${k}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(k))
          ? `.${String(k)}`
          : `[${JSON.stringify(String(k))}]`;
  return out;
}

const lower = (s: string): string => (s ? s[0]!.toLowerCase() + s.slice(1) : s);

/**
 * A zod message as the continuation of "expected …":
 * "Invalid input: expected number, received string" → "number, received string".
 */
export const expectation = (message: string): string =>
  lower(message)
    .replace(/^invalid input: /, "")
    .replace(/^expected /, "");

/** Every issue of a zod error with its path formatted by `format` (dotted by default). */
export function zodIssueList(
  error: z.ZodError,
  format: (path: readonly PropertyKey[]) => string = dottedPath
): LocatedIssue[] {
  return error.issues.map((i) => ({path: format(i.path), message: i.message}));
}
