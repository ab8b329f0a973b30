import {z} from "zod";

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
