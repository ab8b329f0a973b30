import type {ProbeSamples} from "../../../src/analysis/accumulate/probeSamples.ts";
import {RunConfigSpec, type RunConfig} from "../../../src/analysis/schema/config.ts";

/** Samples of `ttft` successes (ITL 10 ms, E2E 100 ms, one request every 100 ms) plus `failures`. */
export function samples(ttft: readonly number[], failures = 0, good?: readonly number[]): ProbeSamples {
  const n = ttft.length + failures;
  const ok = [...ttft.map(() => 1), ...Array<number>(failures).fill(0)];
  const at = (f: (i: number) => number) => Array.from({length: n}, (_, i) => f(i));
  return {
    n,
    ok,
    ttftMs: at((i) => (i < ttft.length ? ttft[i]! : NaN)),
    itlMs: at((i) => (i < ttft.length ? 10 : NaN)),
    e2eMs: at((i) => (i < ttft.length ? 100 : NaN)),
    good: at((i) => good?.[i] ?? (i < ttft.length ? 1 : 0)),
    tStartNs: at((i) => i * 1e8),
    tEndNs: at((i) => i * 1e8 + 1e8)
  };
}

export function config(slo: Record<string, unknown> = {}, gates: Record<string, unknown> = {}): RunConfig {
  return RunConfigSpec.parse({
    target: {base_url: "http://127.0.0.1:1/v1", model: "m"},
    load: {mode: "concurrency", values: [1]},
    slo: {percentile: "p95", ttft_ms: 19, itl_ms: 60, e2e_ms: 1000, ...slo},
    gates
  });
}
