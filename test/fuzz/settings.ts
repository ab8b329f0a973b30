import type {Parameters} from "fast-check";

/**
 * fast-check settings shared by the fuzz tests: a fixed seed, so CI runs the same cases every time and a
 * failure reproduces; INFERSCOPE_FUZZ_RUNS and INFERSCOPE_FUZZ_SEED explore further locally
 * (`INFERSCOPE_FUZZ_RUNS=20000 npx vitest run test/fuzz`).
 */
export const FUZZ: Parameters<unknown> = {
  numRuns: Number(process.env.INFERSCOPE_FUZZ_RUNS ?? 300),
  seed: Number(process.env.INFERSCOPE_FUZZ_SEED ?? 20261201),
  endOnFailure: true
};
