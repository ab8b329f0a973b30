import {describe, expect, it} from "vitest";

import {DEFAULT_RULES, parseRule, regressionGate} from "../../../src/analysis/compare/regression.ts";
import {seedOf} from "../../../src/analysis/compare/seed.ts";
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
    // an inherited property is no statistic, and a trailing part is not ignored (audit)
    expect(parseRule("ttft_ms:toString", 5)).toMatch(/one of p50, p90, p95, p99/);
    expect(parseRule("ttft_ms:p95:p50", 5)).toBe(
      "--metric ttft_ms:p95:p50: expected METRIC or METRIC:STAT (e.g. ttft_ms:p95)"
    );
  });

  it("reads each statistic as the report publishes it: p50 the midpoint median, P90 from n = 10", () => {
    // 100, 101 … 139 (n = 40): the median is (119 + 120) / 2 = 119.5, not the nearest rank's 119
    const same = regressionGate(run("old", base), run("new", base), [rule("ttft_ms:p50")]).checks[0]!;
    expect([same.baseline, same.candidate]).toEqual([119.5, 119.5]);
    // n = 12 each side: P90 needs 10 (the report's floor), so it is judged; P95 (20) is not
    const twelve = base.slice(0, 12); // 100 … 111: nearest-rank P90 = the ⌈10.8⌉ = 11th value, 110
    const p90 = regressionGate(run("old", twelve), run("new", twelve), [rule("ttft_ms:p90"), rule("ttft_ms:p95")]);
    expect(p90.checks.map((c) => [c.status, c.baseline])).toEqual([
      ["pass", 110],
      ["not_evaluable", null]
    ]);
  });

  it("judges ttft, itl and e2e at p95 with 5 % by default, each from its own per-request values", () => {
    expect(DEFAULT_RULES).toEqual([
      {metric: "ttft_ms", stat: "p95", maxPct: 5},
      {metric: "itl_ms", stat: "p95", maxPct: 5},
      {metric: "e2e_ms", stat: "p95", maxPct: 5}
    ]);
    const r = regressionGate(run("old", base), run("new", base));
    expect(r.checks.map((c) => [c.metric, c.stat, c.baseline])).toEqual([
      ["ttft_ms", "p95", 137],
      ["itl_ms", "p95", 5],
      ["e2e_ms", "p95", 274] // e2e = 2 × ttft in these rows
    ]);
  });

  it("counts only the point's successful measured requests with a value", () => {
    const old = run("old", base);
    const extra = [
      {...old.rows![0]!, id: "w", phase: "warmup", ttftMs: 1e6},
      {...old.rows![0]!, id: "f", outcome: "http_error", ttftMs: 1e6},
      {...old.rows![0]!, id: "o", point: "concurrency-9", ttftMs: 1e6},
      {...old.rows![0]!, id: "n", ttftMs: null},
      {...old.rows![0]!, id: "i", ttftMs: Number.POSITIVE_INFINITY}
    ];
    const noisy = {...old, rows: [...old.rows!, ...extra]} as CompareRun;
    const c = regressionGate(noisy, run("new", base), [rule("ttft_ms:p95")]).checks[0]!;
    expect([c.nBaseline, c.nCandidate, c.baseline]).toEqual([40, 40, 137]);
  });

  it("evaluates a p95 at exactly 20 a side, and names the short side", () => {
    const twenty = base.slice(0, 20);
    expect(regressionGate(run("old", twenty), run("new", twenty), [rule("ttft_ms:p95")]).checks[0]!.status).toBe(
      "pass"
    );
    const c = regressionGate(run("old", base), run("new", base.slice(0, 19)), [rule("ttft_ms:p95")]).checks[0]!;
    expect(c.status).toBe("not_evaluable");
    expect(c.reason).toBe("p95 needs n ≥ 20 on each side (n=40 vs n=19)");
    expect([c.baseline, c.regressionPct, c.lo]).toEqual([null, null, null]);
    const zero = regressionGate(
      run(
        "old",
        base.map(() => 0)
      ),
      run("new", base),
      [rule("ttft_ms:p50")]
    ).checks[0]!;
    expect(zero.status).toBe("not_evaluable");
    expect(zero.reason).toBe("the baseline's p50 is 0: no relative change");
  });

  it("fails only strictly above the allowance: a limit equal to the lower bound passes", () => {
    const slower = base.map((v) => v * 1.2);
    const first = regressionGate(run("old", base), run("new", slower), [rule("ttft_ms:p95")], {seed: 7}).checks[0]!;
    expect(first.lo!).toBeLessThanOrEqual(first.regressionPct!);
    expect(first.hi!).toBeGreaterThanOrEqual(first.regressionPct!);
    expect(first.reason).toMatch(
      /^regressed 20\.0 % \[-?[\d.]+, [\d.]+\]: even the interval's lower bound is above the allowed 5 %$/
    );
    const atEdge = regressionGate(run("old", base), run("new", slower), [rule("ttft_ms:p95", first.lo!)], {seed: 7});
    expect(atEdge.checks[0]!.status).toBe("pass");
    expect(atEdge.checks[0]!.reason).toMatch(/: the interval's lower bound is within the allowed /);
  });

  it("a 50 % interval lies inside the 95 % one (same seed)", () => {
    const b = base.map((v) => v * 1.1);
    const wide = regressionGate(run("old", base), run("new", b), [rule("ttft_ms:p50")], {seed: 3}).checks[0]!;
    const narrow = regressionGate(run("old", base), run("new", b), [rule("ttft_ms:p50")], {seed: 3, level: 0.5})
      .checks[0]!;
    expect(narrow.lo!).toBeGreaterThan(wide.lo!);
    expect(narrow.hi!).toBeLessThan(wide.hi!);
  });

  it("records its method and seed, and takes a given seed", () => {
    const r = regressionGate(run("old", base), run("new", base), [rule("ttft_ms:p95")]);
    expect(r.method).toEqual({resamples: 2000, level: 0.95, prng: "mulberry32", seed: seedOf("old\nnew")});
    expect(
      regressionGate(run("old", base), run("new", base), [rule("ttft_ms:p95")], {seed: 11, resamples: 500}).method
    ).toEqual({
      resamples: 500,
      level: 0.95,
      prng: "mulberry32",
      seed: 11
    });
  });

  it("judges every baseline point; one failing rule fails the gate; an unjudged rule or a dropped point is not a pass", () => {
    const two = (bundle: string, xs: number[], points = ["concurrency-2", "concurrency-4"]) => {
      const r = run(bundle, xs);
      return {
        ...r,
        load_points: points.map((id) => ({id})),
        rows: points.flatMap((id) => r.rows!.map((x) => ({...x, id: `${id}-${x.id}`, point: id})))
      } as CompareRun;
    };
    const r = regressionGate(two("old", base), two("new", base, ["concurrency-4"]), [rule("ttft_ms:p95")]);
    // the candidate dropped concurrency-2: its regression is unknown, so the gate cannot pass
    expect(r.checks.map((c) => [c.point, c.status])).toEqual([
      ["concurrency-2", "not_evaluable"],
      ["concurrency-4", "pass"]
    ]);
    expect(r.checks[0]!.reason).toBe("the candidate has no load point concurrency-2");
    expect(r.status).toBe("not_evaluable");
    const mixed = regressionGate(
      run("old", base),
      run(
        "new",
        base.map((v) => v * 1.2)
      ),
      [rule("ttft_ms:p95"), rule("itl_ms:p95")]
    );
    expect(mixed.checks.map((c) => c.status)).toEqual(["fail", "pass"]);
    expect(mixed.status).toBe("fail");
    const partly = regressionGate(run("old", base), run("new", base), [rule("ttft_ms:p95"), rule("itl_ms:p99")]);
    expect(partly.checks.map((c) => c.status)).toEqual(["pass", "not_evaluable"]);
    expect(partly.status).toBe("not_evaluable");
  });
});
