import {describe, expect, it} from "vitest";

import {analyzeSpec, cleanRun, gateOf, lane, loopSamples, streamed, type BundleSpec} from "../../support/bundle.ts";

/**
 * `n` back-to-back 100 ms requests on one slot; request i is dispatched `lag(i)` ms after its slot freed and
 * streams 10 tokens 4 ms apart from 2 ms after dispatch (done 39.5 ms after it, so a 50 ms lag still fits).
 */
const lagged = (n: number, lag: (i: number) => number) =>
  Array.from({length: n}, (_, i) => streamed(`r${i}`, i * 100, {index: i, lagMs: lag(i), ttftMs: 2, gapMs: 4}));

/** Below 20 requests G4 needs a smaller floor for the run to be VALID. */
const small: Partial<BundleSpec> = {config: {gates: {min_samples: 5}, slo: {percentile: "p50"}}};

describe("G6 client health", () => {
  it("passes a healthy loop (delay p99 1 ms) with on-time dispatches", async () => {
    // 20 requests over [0, 2000] ms; windows of 500 ms ending 500…2000 ms: 4 overlap the point
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G6").status).toBe("pass");
    expect(gateOf(r, "G6").reason).toBe(
      "loop delay p99 ≤ 1.00 ms (worst of 4 windows during the point); dispatch lag p95 (n < 100) 0.000 ms"
    );
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("passes an event-loop delay p99 of exactly 5 ms", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20), {client: loopSamples(0, 2000, {p99Ms: 5})}));
    expect(gateOf(r, "G6").status).toBe("pass");
  });

  it("warns on an event-loop delay p99 of 5.01 ms, making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20), {client: loopSamples(0, 2000, {p99Ms: 5.01})}));
    expect(gateOf(r, "G6").status).toBe("warn");
    expect(gateOf(r, "G6").reason).toBe("event-loop delay p99 5.01 ms > 5 ms (worst of 4 windows during the point)");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("ignores a loop-delay spike in a window outside the point's measured span", async () => {
    // the point spans [0, 2000] ms; a window over (9500, 10000] ms with a 50 ms p99 does not overlap it
    const client = [...loopSamples(0, 2000), ...loopSamples(9500, 10_000, {p99Ms: 50})];
    const r = await analyzeSpec(cleanRun(lane("r", 20), {client}));
    expect(gateOf(r, "G6").status).toBe("pass");
  });

  it("passes when the loop ran more than 5 ms late exactly 1 % of the time", async () => {
    // 50 requests over [0, 5000] ms, 10 windows of 500 ms; one 55 ms stall: (55 − 5) / 5000 = 1.00 % ≤ 1 %
    const client = loopSamples(0, 5000, {stalls: [[1700, 55]]});
    const r = await analyzeSpec(cleanRun(lane("r", 50), {client}));
    expect(gateOf(r, "G6").status).toBe("pass");
    expect(gateOf(r, "G6").reason).toMatch(/loop > 5 ms late 1\.00 % of the time/);
  });

  it("warns when the loop ran more than 5 ms late over 1 % of the time, though every window's p99 looks fine", async () => {
    // one 56 ms stall: (56 − 5) / 5000 = 1.02 % > 1 %; the windows' delay p99 stays 1 ms
    const client = loopSamples(0, 5000, {stalls: [[1700, 56]]});
    const r = await analyzeSpec(cleanRun(lane("r", 50), {client}));
    expect(gateOf(r, "G6").status).toBe("warn");
    expect(gateOf(r, "G6").reason).toBe("loop > 5 ms late 1.02 % of the time > 1.0 %");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("below 20 requests judges the largest dispatch lag: 4.99 ms passes", async () => {
    const r = await analyzeSpec(
      cleanRun(
        lagged(10, (i) => (i === 6 ? 4.99 : 0)),
        small
      )
    );
    expect(gateOf(r, "G6").status).toBe("pass");
    expect(gateOf(r, "G6").reason).toMatch(/dispatch lag max \(n < 20\) 4\.990 ms$/);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("below 20 requests judges the largest dispatch lag: exactly 5 ms passes", async () => {
    const r = await analyzeSpec(
      cleanRun(
        lagged(10, (i) => (i === 6 ? 5 : 0)),
        small
      )
    );
    expect(gateOf(r, "G6").status).toBe("pass");
  });

  it("below 20 requests judges the largest dispatch lag: 5.01 ms warns", async () => {
    const r = await analyzeSpec(
      cleanRun(
        lagged(10, (i) => (i === 6 ? 5.01 : 0)),
        small
      )
    );
    expect(gateOf(r, "G6").status).toBe("warn");
    expect(gateOf(r, "G6").reason).toBe("dispatch lag max (n < 20) 5.01 ms > 5 ms");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("from 20 requests judges the dispatch-lag p95: one 50 ms lag of 20 passes", async () => {
    // nearest rank ⌈0.95 × 20⌉ = 19: the 19th smallest of 19 zeros and one 50 ms is 0
    const r = await analyzeSpec(cleanRun(lagged(20, (i) => (i === 6 ? 50 : 0))));
    expect(gateOf(r, "G6").status).toBe("pass");
    expect(gateOf(r, "G6").reason).toMatch(/dispatch lag p95 \(n < 100\) 0\.000 ms$/);
  });

  it("from 20 requests judges the dispatch-lag p95: lags of 4.99 and 50 ms pass, 5.01 and 50 ms warn", async () => {
    // the 19th smallest of 18 zeros, x and 50 is x
    const under = await analyzeSpec(cleanRun(lagged(20, (i) => (i === 6 ? 4.99 : i === 9 ? 50 : 0))));
    expect(gateOf(under, "G6").status).toBe("pass");
    const over = await analyzeSpec(cleanRun(lagged(20, (i) => (i === 6 ? 5.01 : i === 9 ? 50 : 0))));
    expect(gateOf(over, "G6").status).toBe("warn");
    expect(gateOf(over, "G6").reason).toBe("dispatch lag p95 (n < 100) 5.01 ms > 5 ms");
  });

  it("from 100 requests judges the dispatch-lag p99: one 50 ms lag passes, two warn", async () => {
    // nearest rank ⌈0.99 × 100⌉ = 99: one outlier sits above it, two reach it
    const one = await analyzeSpec(cleanRun(lagged(100, (i) => (i === 40 ? 50 : 0))));
    expect(gateOf(one, "G6").status).toBe("pass");
    expect(gateOf(one, "G6").reason).toMatch(/dispatch lag p99 0\.000 ms$/);
    const two = await analyzeSpec(cleanRun(lagged(100, (i) => (i === 40 || i === 80 ? 50 : 0))));
    expect(gateOf(two, "G6").status).toBe("warn");
    expect(gateOf(two, "G6").reason).toBe("dispatch lag p99 50.00 ms > 5 ms");
  });

  it("is not evaluable without event-loop samples, which leaves the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20), {client: undefined}));
    expect(gateOf(r, "G6").status).toBe("not_evaluable");
    expect(gateOf(r, "G6").reason).toBe("no event-loop samples recorded; dispatch lag p95 (n < 100) 0.000 ms");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("is not evaluable with neither event-loop samples nor dispatch times", async () => {
    const requests = lane("r", 20).map((x) => ({...x, tSchedNs: null}));
    const r = await analyzeSpec(cleanRun(requests, {client: undefined}));
    expect(gateOf(r, "G6").status).toBe("not_evaluable");
    expect(gateOf(r, "G6").reason).toBe("no client metrics and no dispatch times recorded");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });
});
