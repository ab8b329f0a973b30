import {describe, expect, it} from "vitest";

import {parseRule, regressionGate} from "../../../src/analysis/compare/regression.ts";
import type {CompareRun} from "../../../src/analysis/compare/compare.ts";

/**
 * Issue 18: the regression gate's rule on hand-made per-request samples. TTFT of the baseline: 100, 101, …,
 * 139 ms (n = 40, nearest-rank p95 = the 38th value = 137 ms, median 119.5 ms).
 */
function run(bundle: string, ttfts: number[], over: Partial<CompareRun> = {}): CompareRun {
  return {
    bundle,
    measure_version: "2",
    verdict: "VALID",
    gates: [{id: "G6", slug: "client_health", status: "pass", reason: "", evidence: {}, threshold: null}],
    meta: {model: "m", workloadKey: "w"},
    load_points: [{id: "concurrency-2"}],
    rows: ttfts.map((v, i) => ({
      id: `r${i}`,
      point: "concurrency-2",
      repeat: 0,
      phase: "measure",
      outcome: "success",
      ttftMs: v,
      e2eMs: v * 2,
      itlMs: 5
    })),
    ...over
  } as unknown as CompareRun;
}

const base = Array.from({length: 40}, (_, i) => 100 + i);
const rule = (metric: string, maxPct = 5) => parseRule(metric, maxPct) as Exclude<ReturnType<typeof parseRule>, string>;

describe("the regression gate (issue 18)", () => {
  it("fails a candidate 20 % slower: its p95 137 → 164.4 ms is +20 %, and the interval's lower bound is above 5 %", () => {
    const r = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 1.2)
      ),
      [rule("ttft_ms:p95")]
    );
    const c = r.checks[0]!;
    expect([c.baseline, c.candidate]).toEqual([137, 137 * 1.2]);
    expect(c.regressionPct).toBeCloseTo(20, 9);
    expect(c.lo!).toBeGreaterThan(5);
    expect(c.status).toBe("fail");
    expect(r.status).toBe("fail");
  });

  it("passes the same samples (regression 0 %, the interval around it) and an improvement", () => {
    const same = regressionGate(run("old", base), run("new", [...base].reverse()), [rule("ttft_ms:p95")]);
    expect(same.checks[0]!.regressionPct).toBe(0);
    expect(same.checks[0]!.lo!).toBeLessThanOrEqual(0);
    expect(same.status).toBe("pass");
    const faster = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 0.8)
      ),
      [rule("ttft_ms:p50")]
    );
    expect(faster.checks[0]!.regressionPct).toBeCloseTo(-20, 9);
    expect(faster.status).toBe("pass");
  });

  it("a small shift inside the noise passes: 3 % slower at a 5 % allowance", () => {
    const r = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 1.03)
      ),
      [rule("e2e_ms:p50")]
    );
    expect(r.checks[0]!.regressionPct).toBeCloseTo(3, 9);
    expect(r.checks[0]!.lo!).toBeLessThan(5);
    expect(r.status).toBe("pass");
  });

  it("withholds a p95 below 20 samples a side, and refuses runs of another workload with the reason", () => {
    const few = regressionGate(run("old", base.slice(0, 19)), run("new", base), [rule("ttft_ms:p95")]);
    expect(few.checks[0]!.status).toBe("not_evaluable");
    expect(few.checks[0]!.reason).toBe("p95 needs n ≥ 20 on each side (n=19 vs n=40)");
    expect(few.status).toBe("not_evaluable");
    const other = regressionGate(
      run("old", base),
      run("new", base, {meta: {model: "m", workloadKey: "other"}} as never)
    );
    expect(other.status).toBe("not_comparable");
    expect(other.checks).toEqual([]);
    expect(other.comparability.reasons.map((x) => x.en).join(" ")).toMatch(/workload/);
  });

  it("is the same on every run (seeded from the two bundle ids)", () => {
    const a = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 1.1)
      ),
      [rule("ttft_ms:p95")]
    );
    const b = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 1.1)
      ),
      [rule("ttft_ms:p95")]
    );
    expect(a.checks[0]).toEqual(b.checks[0]);
    expect(a.method.seed).toBe(b.method.seed);
  });

  it("reads metric:stat rules and says which metrics have per-request samples", () => {
    expect(parseRule("itl_ms:p99", 10)).toEqual({metric: "itl_ms", stat: "p99", maxPct: 10});
    expect(parseRule("ttft_ms", 5)).toEqual({metric: "ttft_ms", stat: "p95", maxPct: 5});
    expect(parseRule("goodput_pct:p50", 5)).toMatch(/per-request samples are kept for ttft_ms, itl_ms, e2e_ms/);
    expect(parseRule("ttft_ms:p42", 5)).toMatch(/one of p50, p90, p95, p99/);
  });
});
