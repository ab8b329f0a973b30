import {z} from "zod";

import {shownValue} from "./jsonScan.ts";
import type {PeerError} from "./types.ts";

/** A number, also accepted when written as a numeric string (pandas/LLMPerf write "550"). */
export const NumLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, "expected a number")
    .transform(Number)
]);

/** Integer nanoseconds, exact: bigint for values beyond 2^53 (epoch timestamps), else a number. */
export const NsInt = z.union([z.bigint(), z.number().int()]);

/** Nanoseconds between two exact timestamps, as a number. */
export const nsDiff = (a: bigint | number, b: bigint | number): number => Number(BigInt(a) - BigInt(b));

/** Converts a time value to ns by its unit string (ns, us, ms, s/sec). */
export function timeToNs(value: number, unit: string): number | null {
  const u = unit.toLowerCase();
  if (u === "ns") return Math.round(value);
  if (u === "us" || u === "µs") return Math.round(value * 1e3);
  if (u === "ms") return Math.round(value * 1e6);
  if (u === "s" || u === "sec" || u === "seconds") return Math.round(value * 1e9);
  return null;
}

/** Minimum of exact timestamps. */
export function minBig(xs: readonly (bigint | number)[]): bigint | null {
  let m: bigint | null = null;
  for (const x of xs) {
    const b = BigInt(x);
    if (m === null || b < m) m = b;
  }
  return m;
}

/**
 * The one rule for every time an importer puts in a record (records hold integer ns in a double): on the record's
 * clock it must be a whole number of ns from 0 to 2^53 − 1 (about 104 days): finite, not before time 0, exact.
 */
export const MAX_RECORD_NS = Number.MAX_SAFE_INTEGER;

/** One time of a request: where the file holds it, what it is, its value there (for the message), its ns in the record. */
export interface RequestTime {
  path: string;
  what: string;
  value: number | bigint;
  ns: number;
  /** The unit of `value` where it differs from the request's (AIPerf: ns timestamps, ms metrics). */
  unit?: string;
}

/**
 * The first problem with one request's times, in the order they must come (start ≤ first token ≤ last token ≤
 * end; absent ones left out), as an error naming the file, the JSON path and the value; null when there is none.
 * Each time must land on the record's clock as an integer ns in 0 … 2^53 − 1 (`origin` names time 0: "the
 * request's start", "the run's first request"), and none may come before the one listed ahead of it.
 */
export function requestTimeError(
  file: string,
  unit: string,
  origin: string,
  times: readonly (RequestTime | null)[]
): PeerError | null {
  const shown = (t: RequestTime) => `${shownValue(t.value)} ${t.unit ?? unit}`;
  let prev: RequestTime | null = null;
  for (const t of times) {
    if (t === null) continue;
    const got = `got ${shown(t)}`;
    if (!Number.isFinite(t.ns) || t.ns > MAX_RECORD_NS)
      return {
        file,
        path: t.path,
        expected: `${t.what} that a record holds exactly: at most 2^53 − 1 ns (about 104 days) after ${origin}, ${got}`
      };
    if (prev !== null && t.ns < prev.ns)
      return {
        file,
        path: t.path,
        expected: `${t.what} no earlier than ${prev.what} (${prev.path} = ${shown(prev)}), ${got}`
      };
    if (t.ns < 0) return {file, path: t.path, expected: `${t.what} no earlier than ${origin}, ${got}`};
    prev = t;
  }
  return null;
}

/** A token count a record keeps: a whole number ≥ 0 that a double holds exactly (≤ 2^53 − 1). */
export const TokenCount = z.number().superRefine((v, ctx) => {
  if (!Number.isSafeInteger(v) || v < 0)
    ctx.addIssue({
      code: "custom",
      input: v,
      message: `expected a token count (a whole number from 0 to 2^53 − 1), got ${v}`
    });
});

/**
 * A statistic a tool reported of a latency, a throughput or a count (a mean, a percentile, a total): a number ≥ 0,
 * or null where it had no values (Python's NaN). Anything else is refused with the value, never read as "not
 * reported": the same rule as vLLM's and SGLang's statistics (vllm/format.ts). Null when the value is fine.
 */
export function statProblem(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v < 0n ? `a non-negative number, got ${v}` : null;
  if (typeof v !== "number") return `a number, got ${shownValue(v)}`;
  return v < 0 ? `a non-negative number, got ${v}` : null;
}

/** A count a tool reported (requests by status): a whole number ≥ 0, or null. Null when the value is fine. */
export function countProblem(v: unknown): string | null {
  const p = statProblem(v);
  if (p !== null) return p;
  return typeof v === "number" && !Number.isInteger(v) ? `a whole number, got ${v}` : null;
}
