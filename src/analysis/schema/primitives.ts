import {z} from "zod";

/** Integer nanoseconds relative to the run's monotonic origin (manifest.monotonicOriginNs). */
export const RelNs = z
  .number()
  .int()
  .min(-Number.MAX_SAFE_INTEGER)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("integer nanoseconds relative to the run's monotonic origin");

export const Sha256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "expected 64 lowercase hex characters")
  .describe("sha256 digest, lowercase hex");

export const IsoTime = z.iso.datetime({offset: true}).describe("ISO 8601 wall-clock time");

export const DecimalNs = z
  .string()
  .regex(/^[0-9]+$/, "expected a decimal integer string")
  .describe("CLOCK_MONOTONIC nanoseconds as a decimal string (process.hrtime.bigint())");

export const Slug = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "expected letters, digits, '.', '_' or '-'");

/**
 * A file's path inside a bundle or experiment folder: segments of letters, digits, '.', '_' or '-' joined by
 * '/', none of them '.' or '..' — a manifest cannot name a file outside its folder, nor one file twice.
 */
export const BundlePath = z
  .string()
  .regex(
    /^(?!\.{1,2}(?:\/|$))(?!.*\/\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/,
    "expected a relative path inside the folder: segments of letters, digits, '.', '_' or '-' joined by '/', none '.' or '..'"
  )
  .describe("path relative to the bundle folder");

export const NonNegInt = z.number().int().nonnegative();
