import {describe, expect, it} from "vitest";

import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {analyzeSpec, cleanRun, gateOf, lane, metricOf, point, streamed} from "../../support/bundle.ts";

/** Times (ms) of `n` sends `gapMs` apart from `fromMs`. */
const every = (n: number, gapMs: number, fromMs = 0) => Array.from({length: n}, (_, i) => fromMs + i * gapMs);

/** Send times (ms) from 0 with the given gaps (ms) between them. */
const fromGaps = (gapsMs: readonly number[]) => gapsMs.reduce((t, g) => [...t, t.at(-1)! + g], [0]);

/**
 * `n` gaps (ms) at the quantiles (i − ½)/n of the exponential law of `rate` req/s (a Poisson schedule with
 * no sampling noise), scaled so that they sum to `sumS` seconds when given.
 */
function poissonGapsMs(n: number, rate: number, sumS?: number): number[] {
  const q = Array.from({length: n}, (_, i) => (-Math.log(1 - (i + 0.5) / n) / rate) * 1000);
  const total = q.reduce((a, b) => a + b, 0);
  return sumS === undefined ? q : q.map((g) => (g * sumS * 1000) / total);
}

/** Open-loop requests of `pointId` scheduled at `times` (ms), request i dispatched `lag(i)` ms late. */
function openLoop(pointId: string, times: readonly number[], o: {lag?: (i: number) => number; durMs?: number} = {}) {
  return times.map((t, i) =>
    streamed(`r${i}`, t, {point: pointId, index: i, lagMs: o.lag?.(i) ?? 0, durMs: o.durMs ?? 100})
  );
}

const IMPORTED: Partial<Manifest> = {
  provenance: {
    kind: "imported",
    tool: "vllm",
    toolVersion: null,
    files: [{name: "bench.json", sha256: "a".repeat(64), bytes: 10}]
  }
};

describe("G5 achieved load, closed loop", () => {
  it("passes a closed loop that kept its one slot busy", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 1/1, mean 1.00 while dispatching");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("counts a stream the server held open after its finish as in flight until it closed: the slot was busy", async () => {
    // one slot: r0…r9 of 100 ms each; r10 at 1000 ms streams to its [DONE] at 1051.5 ms, and the server keeps the
    // connection open until the client closes it at 11 100 ms (close_timeout); s0…s8 follow, 100 ms each.
    // Busy while dispatching (0 … 11 900 ms): 1000 + 10 100 + 800 = 11 900 ms → mean 1.00. Counting r10 only to its
    // last event would give (1000 + 51.5 + 800) / 11 900 = 0.16 and fail a closed loop that did hold its slot.
    const hung = streamed("r10", 1000, {durMs: 10_100, index: 10, transportError: "close_timeout"});
    const r = await analyzeSpec(cleanRun([...lane("r", 10), hung, ...lane("s", 9, {startMs: 11_100})]));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 1/1, mean 1.00 while dispatching");
    // the hang itself is the server's, judged by G29; the request still ends at its last event
    expect(gateOf(r, "G29").status).toBe("warn");
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.verdict_reasons.every((x) => !x.startsWith("G5"))).toBe(true);
  });

  it("fails a concurrency-4 point that never had more than 2 requests in flight, making the run INVALID", async () => {
    // two slots of 10 back-to-back requests each (dispatches 0…900 ms): 2 in flight throughout
    const requests = [...lane("a", 10), ...lane("b", 10)].map((r) => ({...r, point: "concurrency-4"}));
    const r = await analyzeSpec(cleanRun(requests, {points: [point("concurrency", 4)]}));
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 2/4, mean 2.00 while dispatching");
    expect(r.verdict).toBe("INVALID");
  });

  /** Slot a: 11 requests over [0, 1100) ms; slot b: 9 requests over [0, 900), the last ending `lastEndMs`. */
  const twoSlots = (lastEndMs: number) =>
    cleanRun(
      [...lane("a", 11), ...lane("b", 8), streamed("b8", 800, {endMs: lastEndMs, index: 8})].map((r) => ({
        ...r,
        point: "concurrency-2"
      })),
      {points: [point("concurrency", 2)]}
    );

  it("passes a mean in flight of exactly 95 % of the target (1.90 of 2)", async () => {
    // dispatches span [0, 1000] ms (a10 at 1000): slot a busy for 1000 ms, slot b for 900 ms
    // mean = (1000 + 900) / 1000 = 1.90 = 0.95 × 2 → pass; peak 2
    const r = await analyzeSpec(twoSlots(900));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 2/2, mean 1.90 while dispatching");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails a mean in flight just under 95 % of the target (1.899 of 2)", async () => {
    // slot b's last request ends at 899 ms: mean = (1000 + 899) / 1000 = 1.899 < 1.90 → fail
    const r = await analyzeSpec(twoSlots(899));
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(r.verdict).toBe("INVALID");
  });

  it("judges a single wave (no more requests than slots) by its peak alone", async () => {
    // 4 requests for 4 slots dispatched at 0, 10, 20, 30 ms, all running until 200 ms: peak 4. The mean while
    // dispatching, (1 + 2 + 3) × 10 ms / 30 ms = 2.0 < 0.95 × 4, says nothing about a ramp-up
    const requests = [0, 10, 20, 30].map((t, i) =>
      streamed(`r${i}`, t, {endMs: 200, index: i, point: "concurrency-4"})
    );
    const r = await analyzeSpec(cleanRun(requests, {points: [point("concurrency", 4)]}));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 4/4 (one wave)");
  });

  it("passes fewer requests than slots when all of them ran at once (3 requests at concurrency 4)", async () => {
    // the peak that can be reached is min(4, 3) = 3
    const requests = [0, 0, 0].map((t, i) => streamed(`r${i}`, t, {index: i, point: "concurrency-4"}));
    const r = await analyzeSpec(cleanRun(requests, {points: [point("concurrency", 4)]}));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 3/4 (one wave)");
  });

  it("fails a single wave whose requests never all ran at once (peak 3 of 4)", async () => {
    // 3 requests over [0, 100), the 4th over [100, 200): at most 3 in flight
    const requests = [0, 0, 0, 100].map((t, i) => streamed(`r${i}`, t, {index: i, point: "concurrency-4"}));
    const r = await analyzeSpec(cleanRun(requests, {points: [point("concurrency", 4)]}));
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 3/4 (one wave)");
  });
});

describe("G5 achieved load, open loop", () => {
  const rate10 = {points: [point("rate", 10)]};

  it("passes a constant-rate schedule at the declared rate, dispatched on time", async () => {
    // 19 gaps of 100 ms = 10.00 req/s for a target of 10: 0 % off; dispatched at the same 10.00 req/s
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(20, 100)), rate10));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe(
      "r0: scheduled 10.00 req/s for a target of 10 (0.00 % off; ≤ 1 % allowed); dispatched 10.00 req/s (100.0 % of scheduled)"
    );
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails a constant-rate schedule 1.01 % faster than declared (99 ms gaps for 10 req/s), making the run INVALID", async () => {
    // 1 / 0.099 s = 10.101 req/s: |10.101 / 10 − 1| = 1.01 % > 1 %
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(20, 99)), rate10));
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toMatch(
      /^r0: scheduled 10\.10 req\/s for a target of 10 \(1\.01 % off; ≤ 1 % allowed\)/
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("passes a constant-rate schedule 0.91 % faster than declared (99.1 ms gaps)", async () => {
    // 1 / 0.0991 s = 10.091 req/s: 0.91 % ≤ 1 %
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(20, 99.1)), rate10));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toMatch(/\(0\.91 % off; ≤ 1 % allowed\)/);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails a Poisson schedule running at 10 req/s for a declared 20 req/s (19 gaps), making the run INVALID", async () => {
    // 19 gaps summing to 1.9 s (10 req/s); at 20 req/s their sum is Gamma(19, rate 20) with mean 0.95 s:
    // P(sum ≥ 1.9 s) = P(Poisson(38) ≤ 18) = 2.45e-4 → two-sided p = 4.9e-4 < 0.001 → not this target
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-20", fromGaps(poissonGapsMs(19, 10, 1.9))), {points: [point("poisson", 20)]})
    );
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toMatch(
      /^r0: scheduled 10\.00 req\/s for a target of 20 over 19 Poisson gaps \(two-sided p = 0\.000 < 0\.001: not this target\)/
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("passes a Poisson schedule at its declared rate", async () => {
    // 19 gaps at the exponential quantiles of 20 req/s sum to 0.9328 s: F = 0.4989 → p = 0.998
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-20", fromGaps(poissonGapsMs(19, 20))), {points: [point("poisson", 20)]})
    );
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toMatch(/over 19 Poisson gaps \(two-sided p = 0\.998, within sampling spread\)/);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("accepts a Poisson schedule within its sampling spread: 19 gaps summing to 1.80 s at 20 req/s (p = 0.0014)", async () => {
    // P(Gamma(19, 20) ≥ 1.80) = P(Poisson(36) ≤ 18) = 7.1e-4 → p = 0.0014 ≥ 0.001
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-20", fromGaps(poissonGapsMs(19, 20, 1.8))), {points: [point("poisson", 20)]})
    );
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toMatch(/scheduled 10\.56 req\/s for a target of 20 .*p = 0\.001, within/);
  });

  it("rejects a Poisson schedule just outside its spread: 19 gaps summing to 1.85 s at 20 req/s (p = 0.0008)", async () => {
    // P(Gamma(19, 20) ≥ 1.85) = P(Poisson(37) ≤ 18) = 4.2e-4 → p = 0.00084 < 0.001
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-20", fromGaps(poissonGapsMs(19, 20, 1.85))), {points: [point("poisson", 20)]})
    );
    expect(gateOf(r, "G5").status).toBe("fail");
  });

  // 8 req/s: 125 ms gaps, so every rate and ratio below is exact in binary floating point
  const rate8 = {points: [point("rate", 8)]};

  it("judges a gamma schedule by the gamma law of its shape: 20 gaps summing to 3.3 s fail at shape 2", async () => {
    // shape 2 at 10 req/s: the sum of 20 gaps is Gamma(40, rate 20), mean 2.0 s: P(sum ≥ 3.3 s) → p = 0.00046 < 0.001
    const r = await analyzeSpec(
      cleanRun(openLoop("gamma-10", every(21, 165)), {points: [point("gamma", 10, {burstiness: 2})]})
    );
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toMatch(
      /^r0: scheduled 6\.06 req\/s for a target of 10 over 20 gamma\(shape 2\) gaps \(two-sided p = 0\.000 < 0\.001/
    );
  });

  it("accepts the same 3.3 s for 20 gaps of a Poisson schedule at 10 req/s (wider spread)", async () => {
    // Gamma(20, rate 10), mean 2.0 s: P(sum ≥ 3.3 s) → p = 0.012 ≥ 0.001
    const r = await analyzeSpec(cleanRun(openLoop("poisson-10", every(21, 165)), {points: [point("poisson", 10)]}));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toMatch(/over 20 Poisson gaps \(two-sided p = 0\.012, within sampling spread\)/);
  });

  it("passes a client that dispatched at exactly 95 % of the scheduled rate", async () => {
    // 19 gaps of 125 ms = 8 req/s; the last of 20 requests leaves 125 ms late:
    // 19 dispatch intervals over 2.5 s = 7.6 req/s = 95 % of 8
    const requests = openLoop("rate-8", every(20, 125), {lag: (i) => (i === 19 ? 125 : 0), durMs: 200});
    const r = await analyzeSpec(cleanRun(requests, rate8));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toMatch(/dispatched 7\.60 req\/s \(95\.0 % of scheduled\)$/);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails a client that dispatched below 95 % of the scheduled rate, making the run INVALID", async () => {
    // 130 ms late: 19 / 2.505 s = 7.585 req/s = 94.8 % < 95 %
    const requests = openLoop("rate-8", every(20, 125), {lag: (i) => (i === 19 ? 130 : 0), durMs: 200});
    const r = await analyzeSpec(cleanRun(requests, rate8));
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toMatch(/dispatched 7\.58 req\/s \(94\.8 % of scheduled\)$/);
    expect(r.verdict).toBe("INVALID");
  });

  it("is not evaluable with a single open-loop request (no gap to measure a rate), leaving the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", [0]), {...rate10, config: {gates: {min_samples: 5}, slo: {percentile: "p50"}}})
    );
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
    expect(r.verdict_reasons).toContain("G5 achieved_load: r0: too few requests to measure a rate (not evaluable)");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("is not evaluable when even one request's times are not on the shared clock", async () => {
    const requests = lane("r", 20);
    requests[3] = {...requests[3]!, timeBase: "request"};
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
    expect(gateOf(r, "G5").reason).toBe("request times are not on a shared clock");
  });

  it("is not evaluable for an imported point whose source does not record the target load", async () => {
    const requests = lane("r", 20).map((x) => ({...x, point: "concurrency-unknown"}));
    const r = await analyzeSpec(
      cleanRun(requests, {points: [point("concurrency", 1, {id: "concurrency-unknown"})], manifest: IMPORTED})
    );
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
    expect(gateOf(r, "G5").reason).toBe("imported: the source does not record the target load");
  });
});

describe("G5 achieved load: traces, lone shards and too few requests", () => {
  it("a trace has no target rate: its schedule is what the timestamps give at the declared speed", async () => {
    // 19 gaps of 100 ms: 19 / 1.9 s = 10.00 req/s, dispatched on time
    const r = await analyzeSpec(cleanRun(openLoop("trace-2", every(20, 100)), {points: [point("trace", 2)]}));
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe(
      "r0: trace at 2× speed: scheduled 10.00 req/s; dispatched 10.00 req/s (100.0 % of scheduled)"
    );
  });

  it("a trace dispatched too slowly fails: each send 10 ms later than the one before", async () => {
    // dispatches 110 ms apart: (20 − 1) / 2.09 s = 9.09 req/s, 90.9 % of the 10.00 scheduled < 95 %
    const r = await analyzeSpec(
      cleanRun(openLoop("trace-2", every(20, 100), {lag: (i) => i * 10, durMs: 400}), {points: [point("trace", 2)]})
    );
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toBe(
      "r0: trace at 2× speed: scheduled 10.00 req/s; dispatched 9.09 req/s (90.9 % of scheduled)"
    );
  });

  it("a trace whose timestamps are all equal has no rate to measure", async () => {
    const r = await analyzeSpec(cleanRun(openLoop("trace-1", every(5, 0)), {points: [point("trace", 1)]}));
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
    expect(gateOf(r, "G5").reason).toBe("r0: too few requests to measure a rate");
  });

  it("one open-loop request has no gap, so no rate", async () => {
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", [0]), {points: [point("rate", 10)]}));
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
    expect(gateOf(r, "G5").reason).toBe("r0: too few requests to measure a rate");
  });

  const shardOf = (index: number, count: number): Partial<Manifest> => ({
    shard: {
      index,
      count,
      planSha256: "a".repeat(64),
      startAt: null,
      startLateNs: null,
      timeSync: {source: null, synchronized: null, offsetMs: null, raw: null, reason: "none answered"}
    }
  });

  it("a lone shard of an open-loop point states its rate and leaves the shape to the merged bundle", async () => {
    // shard 1 of 4 of a 10 req/s constant rate: every 4th arrival, 400 ms apart = 2.50 req/s. Judged against
    // the point's 10 req/s it would be 75 % off; a shard's rate is its share, so it passes
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(20, 400)), {points: [point("rate", 10)], manifest: shardOf(1, 4)})
    );
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe(
      "r0: shard 1 of 4: every 4th arrival of the experiment's schedule, whose shape is judged on the merged bundle: scheduled 2.50 req/s; dispatched 2.50 req/s (100.0 % of scheduled)"
    );
  });

  it("a lone shard still fails when its client dispatched below 95 % of its own schedule", async () => {
    // dispatches 440 ms apart: 19 / 8.36 s = 2.27 req/s, 90.9 % of 2.50
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(20, 400), {lag: (i) => i * 40, durMs: 1200}), {
        points: [point("rate", 10)],
        manifest: shardOf(1, 4)
      })
    );
    expect(gateOf(r, "G5").status).toBe("fail");
    expect(gateOf(r, "G5").reason).toMatch(/scheduled 2\.50 req\/s; dispatched 2\.27 req\/s \(90\.9 % of scheduled\)$/);
  });

  it("a lone shard whose arrivals share one instant has no rate to measure", async () => {
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(4, 0)), {points: [point("rate", 10)], manifest: shardOf(0, 2)})
    );
    expect(gateOf(r, "G5").status).toBe("not_evaluable");
  });
});

describe("G7 latency from the schedule", () => {
  it("passes a closed loop: the schedule is the moment a slot freed", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G7").status).toBe("pass");
    expect(gateOf(r, "G7").reason).toBe("closed loop: scheduled = slot freed; both views kept");
  });

  it("passes an open loop whose every request has a scheduled time", async () => {
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(20, 100)), {points: [point("rate", 10)]}));
    expect(gateOf(r, "G7").status).toBe("pass");
    expect(gateOf(r, "G7").reason).toBe("open loop: latency measured from the schedule; dispatch view kept");
  });

  it("fails an open loop in which one request has no scheduled time, making the run INVALID", async () => {
    const requests = openLoop("rate-10", every(20, 100));
    requests[7] = {...requests[7]!, tSchedNs: null};
    const r = await analyzeSpec(cleanRun(requests, {points: [point("rate", 10)]}));
    expect(gateOf(r, "G7").status).toBe("fail");
    expect(gateOf(r, "G7").reason).toBe("1 open-loop requests lack a scheduled time");
    expect(r.verdict).toBe("INVALID");
  });

  it("is not evaluable for imported requests that carry dispatch times only", async () => {
    const requests = lane("r", 20).map((x) => ({...x, tSchedNs: null}));
    const r = await analyzeSpec(cleanRun(requests, {manifest: IMPORTED}));
    expect(gateOf(r, "G7").status).toBe("not_evaluable");
    expect(gateOf(r, "G7").reason).toBe(
      "imported: 20 requests carry no scheduled send time (the source records dispatch times only)"
    );
  });

  it("is not evaluable without measured requests", async () => {
    const r = await analyzeSpec(
      cleanRun(lane("w", 20, {phase: "warmup"}), {points: [point("concurrency", 1, {warmup: 20})]})
    );
    expect(gateOf(r, "G7").status).toBe("not_evaluable");
    expect(r.verdict_reasons).toContain("G7 schedule_view: no measured requests (not evaluable)");
  });
});

describe("G14 warmup excluded", () => {
  const warm8 = {points: [point("concurrency", 1, {warmup: 8})]};

  it("passes when no warmup was planned", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G14").status).toBe("pass");
    expect(gateOf(r, "G14").reason).toBe("no warmup planned");
  });

  it("passes 8 planned warmups, recorded, finished before measuring and excluded from the metrics", async () => {
    // warmups over [0, 800) ms with a 40 ms TTFT; measured from 800 ms with a 5 ms TTFT
    const warmups = lane("w", 8, {phase: "warmup", ttftMs: 40});
    const r = await analyzeSpec(cleanRun([...warmups, ...lane("r", 20, {startMs: 800})], warm8));
    expect(gateOf(r, "G14").status).toBe("pass");
    expect(gateOf(r, "G14").reason).toBe("8 warmup requests (8 planned) excluded and finished before measuring");
    const ttft = metricOf(r, "ttft_ms") as {n: number; max: number};
    expect(ttft.n).toBe(20);
    expect(ttft.max).toBeCloseTo(5, 9);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns when 8 warmups were planned and none was recorded, making the run INCONCLUSIVE", async () => {
    // the collector noted the 8 warmups as never sent (G30 accounts for them; G14 still warns)
    const run = cleanRun(lane("r", 20), warm8);
    const notSent = {
      kind: "note" as const,
      tNs: 0,
      event: "not_sent",
      point: "concurrency-1",
      repeat: 0,
      detail: {phase: "warmup", from: 0, to: 7, reason: "the phase ended before they were due"}
    };
    const r = await analyzeSpec({...run, client: [notSent, ...run.client!]});
    expect(gateOf(r, "G14").status).toBe("warn");
    expect(gateOf(r, "G14").reason).toBe(
      "fewer warmup requests recorded than planned (concurrency-1 r0: 0/8): the measured requests may have met a cold server"
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns when 7 of 8 planned warmups were recorded", async () => {
    const r = await analyzeSpec(
      cleanRun([...lane("w", 7, {phase: "warmup"}), ...lane("r", 20, {startMs: 700})], warm8)
    );
    expect(gateOf(r, "G14").status).toBe("warn");
    expect(gateOf(r, "G14").reason).toMatch(/\(concurrency-1 r0: 7\/8\)/);
  });

  it("checks every repeat: a second repeat without its warmup warns", async () => {
    const r0 = [...lane("w", 8, {phase: "warmup"}), ...lane("r", 20, {startMs: 800})];
    const r1 = lane("s", 20, {startMs: 3000, repeat: 1});
    const r = await analyzeSpec(cleanRun([...r0, ...r1], {points: [point("concurrency", 1, {warmup: 8, repeats: 2})]}));
    expect(gateOf(r, "G14").status).toBe("warn");
    expect(gateOf(r, "G14").reason).toMatch(/\(concurrency-1 r1: 0\/8\)/);
  });

  it("fails when a warmup was still running when measurement began, making the run INVALID", async () => {
    // the last warmup (700 ms) runs until 850 ms; the first measured request is scheduled at 800 ms
    const warmups = [...lane("w", 7, {phase: "warmup"}), streamed("w7", 700, {phase: "warmup", durMs: 150, index: 7})];
    const r = await analyzeSpec(cleanRun([...warmups, ...lane("r", 20, {startMs: 800})], warm8));
    expect(gateOf(r, "G14").status).toBe("fail");
    expect(gateOf(r, "G14").reason).toBe("warmup still running when measurement began: concurrency-1 r0");
    expect(r.verdict).toBe("INVALID");
  });

  it("passes when the last warmup ends at the instant the first measured request is scheduled", async () => {
    const r = await analyzeSpec(
      cleanRun([...lane("w", 8, {phase: "warmup"}), ...lane("r", 20, {startMs: 800})], warm8)
    );
    expect(gateOf(r, "G14").status).toBe("pass");
  });

  it("is not evaluable for an imported run that records no warmups", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20), {...warm8, manifest: IMPORTED}));
    expect(gateOf(r, "G14").status).toBe("not_evaluable");
    expect(gateOf(r, "G14").reason).toBe("imported: the source does not record warmup requests");
  });

  it("flags warmups that replay the measured prompts unsalted (reference G14: not drawn from measured prompts unless salted)", async () => {
    // salting off; the 8 warmups send the prompts of measured requests 0…7 (same digest, no salt)
    const digest = (i: number) => i.toString(16).padStart(64, "0");
    const warmups = lane("w", 8, {phase: "warmup"}).map((w, i) => ({...w, salt: null, promptDigest: digest(i)}));
    const measured = lane("r", 20, {startMs: 800}).map((m, i) => ({...m, salt: null, promptDigest: digest(i)}));
    const r = await analyzeSpec(
      cleanRun([...warmups, ...measured], {...warm8, config: {workload: {ignore_eos: false, salt: false}}})
    );
    expect(gateOf(r, "G14").status).not.toBe("pass");
    expect(r.verdict).not.toBe("VALID");
  });
});

describe("G21 arrival fidelity", () => {
  const rate10 = {points: [point("rate", 10)]};

  it("does not apply to a closed loop", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G21").status).toBe("not_applicable");
    expect(gateOf(r, "G21").reason).toBe("closed loop");
  });

  it("passes an on-time constant-rate schedule", async () => {
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(20, 100)), rate10));
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toBe(
      "0/20 dispatches more than 5 ms behind schedule (worst 0.0 ms; ≤ 5 % allowed); planned spacing within 0.00 % of 1/rate"
    );
  });

  it("counts a dispatch exactly 5 ms behind schedule as on time", async () => {
    // lag 5 ms is not more than 5 ms: 0 late
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(20, 100), {lag: (i) => (i === 4 || i === 9 ? 5 : 0)}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/^0\/20 dispatches more than 5 ms behind schedule \(worst 5\.0 ms/);
  });

  it("warns when 2 of 20 dispatches are 5.01 ms behind (10 % > 5 % allowed below 100 requests)", async () => {
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(20, 100), {lag: (i) => (i === 4 || i === 9 ? 5.01 : 0)}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("warn");
    expect(gateOf(r, "G21").reason).toMatch(/^2\/20 dispatches more than 5 ms behind schedule/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("allows 5 % late below 100 requests: 1 of 20 late passes", async () => {
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(20, 100), {lag: (i) => (i === 9 ? 50 : 0), durMs: 200}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/^1\/20 dispatches .* \(worst 50\.0 ms; ≤ 5 % allowed\)/);
  });

  it("allows 5 % late below 100 requests: 4 of 99 late (4.04 %) passes", async () => {
    const late = new Set([10, 30, 50, 70]);
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(99, 100), {lag: (i) => (late.has(i) ? 50 : 0), durMs: 200}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/^4\/99 dispatches .* ≤ 5 % allowed\)/);
  });

  it("allows only 1 % late from 100 requests: 2 of 100 late (2 %) warns", async () => {
    const late = new Set([30, 70]);
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(100, 100), {lag: (i) => (late.has(i) ? 50 : 0), durMs: 200}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("warn");
    expect(gateOf(r, "G21").reason).toMatch(/^2\/100 dispatches .* ≤ 1 % allowed\)/);
  });

  it("allows only 1 % late from 100 requests: 1 of 100 late passes", async () => {
    const r = await analyzeSpec(
      cleanRun(openLoop("rate-10", every(100, 100), {lag: (i) => (i === 50 ? 50 : 0), durMs: 200}), rate10)
    );
    expect(gateOf(r, "G21").status).toBe("pass");
  });

  it("catches 10 of 30 dispatches lagging up to 400 ms", async () => {
    // requests 10…19 leave 40, 80, …, 400 ms late; the first and the last are on time (G5's dispatch rate holds)
    const lag = (i: number) => (i >= 10 && i < 20 ? 40 * (i - 9) : 0);
    const r = await analyzeSpec(cleanRun(openLoop("rate-10", every(30, 100), {lag, durMs: 500}), rate10));
    const g = gateOf(r, "G21");
    expect(g.status).toBe("warn");
    // 10 > 5 % × 30 = 1.5
    expect(g.reason).toMatch(/^10\/30 dispatches more than 5 ms behind schedule \(worst 400\.0 ms; ≤ 5 % allowed\)/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns when a constant-rate plan's spacing strays 1.1 % from 1/rate", async () => {
    // one gap of 101.1 ms among 100 ms gaps: |0.1011 × 10 − 1| = 1.1 % > 1 %
    const r = await analyzeSpec(
      cleanRun(
        openLoop(
          "rate-10",
          every(20, 100).map((t, i) => (i >= 10 ? t + 1.1 : t))
        ),
        rate10
      )
    );
    expect(gateOf(r, "G21").status).toBe("warn");
    expect(gateOf(r, "G21").reason).toMatch(/planned spacing within 1\.10 % of 1\/rate$/);
  });

  it("passes a constant-rate plan whose spacing strays 0.9 % from 1/rate", async () => {
    // one gap of 100.9 ms: 0.9 % ≤ 1 %
    const r = await analyzeSpec(
      cleanRun(
        openLoop(
          "rate-10",
          every(20, 100).map((t, i) => (i >= 10 ? t + 0.9 : t))
        ),
        rate10
      )
    );
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/planned spacing within 0\.90 % of 1\/rate$/);
  });

  it("warns when Poisson arrivals come evenly spaced (KS rejects the exponential law)", async () => {
    // 20 gaps of exactly 100 ms at a declared Poisson 10 req/s: F(0.1 s) = 1 − e^−1 = 0.632, so D = 0.632;
    // (√20 + 0.12 + 0.11/√20) · D = 2.918 → p = 2·e^(−2·2.918²) ≈ 8e-8 < 0.01. G5 still passes: the sum is 2.0 s.
    const r = await analyzeSpec(cleanRun(openLoop("poisson-10", every(21, 100)), {points: [point("poisson", 10)]}));
    const g = gateOf(r, "G21");
    expect(g.status).toBe("warn");
    expect(g.reason).toMatch(/actual gaps KS D=0\.632, p=0\.000 over 20 vs poisson\(10\/s\)/);
    expect(g.reason).toMatch(/planned gaps KS D=0\.632, p=0\.000 over 20 vs poisson\(10\/s\)/);
    expect(gateOf(r, "G5").status).toBe("pass");
  });

  it("tests gamma arrivals against the gamma law of their shape", async () => {
    // shape 2 at 10 req/s is Gamma(2, rate 20): F(0.1 s) = 1 − e^−2 · (1 + 2) = 0.594, so evenly spaced gaps give D = 0.594
    const r = await analyzeSpec(
      cleanRun(openLoop("gamma-10", every(21, 100)), {points: [point("gamma", 10, {burstiness: 2})]})
    );
    expect(gateOf(r, "G21").status).toBe("warn");
    expect(gateOf(r, "G21").reason).toMatch(/actual gaps KS D=0\.594, p=0\.000 over 20 vs gamma\(10\/s, shape 2\)/);
  });

  it("skips the KS test below 20 gaps", async () => {
    const r = await analyzeSpec(cleanRun(openLoop("poisson-10", every(20, 100)), {points: [point("poisson", 10)]}));
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/actual gaps: only 19 \(< 20\) for a KS test; planned gaps: only 19/);
  });

  /** `n` gaps spread evenly over 0–200 ms ((2i − 1)/n · 100 ms): uniform with the mean 100 ms of 10 req/s. */
  const uniformGaps = (n: number) => Array.from({length: n}, (_, i) => ((2 * i + 1) / n) * 100);

  it("accepts Poisson gaps whose KS p is just above 0.01 (100 uniform gaps: D = 0.158, p = 0.0116)", async () => {
    // D = 0.1584 (at the 35th gap, 69 ms, F = 0.498 vs 34/100); (10 + 0.12 + 0.011) · D = 1.605
    // → p = 2·(e^(−2·1.605²) − e^(−8·1.605²) + …) = 0.0116 ≥ 0.01 (exact KS: 0.0117); the sum, 10.0 s, is G5's mean
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-10", fromGaps(uniformGaps(100))), {points: [point("poisson", 10)]})
    );
    expect(gateOf(r, "G21").status).toBe("pass");
    expect(gateOf(r, "G21").reason).toMatch(/actual gaps KS D=0\.158, p=0\.012 over 100/);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("rejects Poisson gaps whose KS p is just below 0.01 (105 uniform gaps: D = 0.158, p = 0.0091)", async () => {
    // D = 0.1582; (10.247 + 0.12 + 0.011) · D = 1.642 → p = 0.0091 < 0.01 (exact KS: 0.0092)
    const r = await analyzeSpec(
      cleanRun(openLoop("poisson-10", fromGaps(uniformGaps(105))), {points: [point("poisson", 10)]})
    );
    expect(gateOf(r, "G21").status).toBe("warn");
    expect(gateOf(r, "G21").reason).toMatch(/actual gaps KS D=0\.158, p=0\.009 over 105/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("is not evaluable in open loop without scheduled dispatch times", async () => {
    const requests = openLoop("rate-10", every(20, 100)).map((x) => ({...x, tSchedNs: null}));
    const r = await analyzeSpec(cleanRun(requests, rate10));
    expect(gateOf(r, "G21").status).toBe("not_evaluable");
    expect(gateOf(r, "G21").reason).toBe("no dispatch times with a schedule");
  });
});
