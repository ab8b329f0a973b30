import {statProblem} from "../shared/numeric.ts";
import {isObject} from "../shared/parse.ts";
import type {PeerError} from "../shared/types.ts";

/**
 * GuideLLM ≥ 0.5 writes, beside each request's `info.timings`, its own per-request numbers derived from them
 * (GenerativeRequestStats: request_start_time, request_end_time, request_latency, time_to_first_token_ms, …).
 * InferScope reads the timings; these copies are checked so that a file edited in one place but not the other,
 * or holding nonsense, does not import in silence.
 */
const DERIVED = [
  "request_start_time",
  "request_end_time",
  "request_latency",
  "time_to_first_token_ms",
  "time_per_output_token_ms",
  "inter_token_latency_ms",
  "tokens_per_second",
  "output_tokens_per_second"
] as const;

/** Each derived field a number ≥ 0 (or absent/null), and the request's own end not before its start. */
export function derivedFieldErrors(file: string, path: string, raw: unknown): PeerError[] {
  if (!isObject(raw)) return [];
  const errors: PeerError[] = [];
  for (const k of DERIVED) {
    const problem = statProblem(raw[k]);
    if (problem) errors.push({file, path: `${path}.${k}`, expected: problem});
  }
  const start = raw.request_start_time;
  const end = raw.request_end_time;
  if (errors.length === 0 && typeof start === "number" && typeof end === "number" && end < start)
    errors.push({
      file,
      path: `${path}.request_end_time`,
      expected: `a request end no earlier than its request_start_time (${start}), got ${end}`
    });
  return errors;
}

/** Where a request's own TTFT disagrees with its timings by more than this (ms): the file was edited in one place. */
const TTFT_TOLERANCE_MS = 1;

/**
 * The requests whose time_to_first_token_ms differs from (first_token_iteration − request_start) × 1000 by more
 * than 1 ms: GuideLLM computes the one from the other, so a difference means the file was changed after it was
 * written. Returned as one warning naming how many and the first; null when none.
 */
export function ttftDisagreement(
  requests: readonly {raw: unknown; path: string; start: number | null; first: number | null}[]
): string | null {
  const off: {path: string; stated: number; derived: number}[] = [];
  for (const {raw, path, start, first} of requests) {
    if (!isObject(raw) || typeof raw.time_to_first_token_ms !== "number" || start === null || first === null) continue;
    const derived = (first - start) * 1000;
    if (Math.abs(raw.time_to_first_token_ms - derived) > TTFT_TOLERANCE_MS)
      off.push({path, stated: raw.time_to_first_token_ms, derived});
  }
  const e = off[0];
  if (!e) return null;
  return `${off.length} request(s) state a time_to_first_token_ms that disagrees with their own timings by more than ${TTFT_TOLERANCE_MS} ms (first: ${e.path}: ${e.stated} ms stated, ${Number(e.derived.toFixed(3))} ms from info.timings): the file was changed after GuideLLM wrote it; InferScope reads the timings`;
}
