import {describe, expect, it} from "vitest";

import type {ProbeSamples} from "../../../src/analysis/accumulate/probeSamples.ts";
import type {GateResult} from "../../../src/analysis/gates/types.ts";
import {saturations, searchReports, type SearchPointInput} from "../../../src/analysis/search/report.ts";
import {RunConfigSpec, type RunConfig} from "../../../src/analysis/schema/config.ts";
import type {LoadPoint} from "../../../src/analysis/schema/manifest.ts";

/**
 * 20 successes at load `c`, TTFT `ttft` ms each (ITL 10 ms, E2E 100 ms): request i starts at i × 100/c ms, so the
 * throughput grows with the load (no plateau) and TTFT is flat (no queue growth).
 */
function probe(c: number, ttft: number, mode = "concurrency"): SearchPointInput {
  const n = 20;
  const at = (f: (i: number) => number) => Array.from({length: n}, (_, i) => f(i));
  const samples: ProbeSamples = {
    n,
    ok: at(() => 1),
    ttftMs: at(() => ttft),
    itlMs: at(() => 10),
    e2eMs: at(() => 100),
    good: at(() => (ttft <= 2000 ? 1 : 0)),
    tStartNs: at((i) => (i * 1e8) / c),
    tEndNs: at((i) => (i * 1e8) / c + 1e8)
  };
  const point: LoadPoint = {
    id: `${mode}-${c}`,
    mode: mode as LoadPoint["mode"],
    value: c,
    repeats: 1,
    requests: n,
    durationS: null,
    warmup: 0,
    maxConcurrency: null,
    burstiness: null
  };
  return {point, samples};
}

function config(search: Record<string, unknown> = {}): RunConfig {
  return RunConfigSpec.parse({
    target: {base_url: "http://127.0.0.1:1/v1", model: "m"},
    load: [
      {mode: "rate", values: [1, 2], requests: 20},
      {mode: "search", over: "concurrency", range: [1, 8], requests: 20, warmup: 0, ...search}
    ],
    slo: {percentile: "p95", ttft_ms: 2000, itl_ms: 60, e2e_ms: 30_000}
  });
}

const g6 = (statuses: Record<string, string>): GateResult[] =>
  [{id: "G6", points: Object.entries(statuses).map(([point, status]) => ({point, status}))}] as unknown as GateResult[];
const notes = (answer: number, probes: number) => [
  ...Array.from({length: probes}, () => ({event: "search_probe", detail: {search: 1}})),
  {event: "search_probe", detail: {search: 0}}, // another block's note: not counted
  {event: "search_end", detail: {search: 1, answer, reason: "precision reached"}}
];

describe("searchReports", () => {
  // run order 1, 2, 4, 3: TTFT 100 ms (margin = ITL 10/60 = 1/6) except at 4 (3000 ms: margin 1.5)
  const points = [probe(1, 100), probe(2, 100), probe(4, 3000), probe(3, 100), probe(1, 100, "rate")];

  it("judges the probes in run order and answers from them: 3 holds, 4 fails, the fit crosses 1 at 3.625", () => {
    const [s] = searchReports(config(), points, g6({"concurrency-4": "pass"}), notes(3, 4));
    expect(s!.block).toBe(1);
    expect(s!.probes.map((p) => [p.id, p.order, p.status])).toEqual([
      ["concurrency-1", 0, "pass"],
      ["concurrency-2", 1, "pass"],
      ["concurrency-4", 2, "fail"],
      ["concurrency-3", 3, "pass"]
    ]);
    expect(s!.probes[0]!.margin).toBeCloseTo(1 / 6, 12);
    expect(s!.probes[2]!.margin).toBeCloseTo(1.5, 12);
    expect([s!.answer.highest_pass, s!.answer.lowest_fail]).toEqual([3, 4]);
    // linear crossing between 3 (1/6) and 4 (1.5): 3 + (1 − 1/6) / (1.5 − 1/6) = 3.625; every resample equal
    expect(s!.answer.estimate).toBeCloseTo(3.625, 9);
    expect(s!.answer.interval!.lo).toBeCloseTo(3.625, 9);
    expect(s!.answer.interval!.hi).toBeCloseTo(3.625, 9);
    expect(s!.answer.client_bound).toBeNull();
    expect(s!.answer.statement).toBe(
      "the SLO holds up to concurrency 3 and not at 4 (fit crossing 3.625, 95 % interval 3.625 – 3.625)"
    );
    expect(s!.probes.map((p) => p.client_health)).toEqual([null, null, "pass", null]);
    expect(s!.collector).toEqual({answer: 3, reason: "precision reached", probes: 4});
    expect(s!.agrees).toBe(true);
    expect([s!.over, s!.range, s!.objective, s!.percentile]).toEqual(["concurrency", [1, 8], "slo", "p95"]);
  });

  it("names the client's ceiling when the failing probe's G6 is not a pass; a differing collector answer disagrees", () => {
    const [s] = searchReports(config(), points, g6({"concurrency-4": "warn"}), notes(4, 3));
    expect(s!.answer.client_bound).toBe(
      "the client-health gate G6 of concurrency-4 is warn: the failure may be the client's own ceiling, so the answer is a lower bound"
    );
    expect(s!.answer.statement).toMatch(/; the client-health gate G6 of concurrency-4 is warn/);
    expect(s!.agrees).toBe(false);
    expect(s!.collector!.probes).toBe(3);
    expect(searchReports(config(), points, [], [])[0]!.collector).toBeNull();
    expect(searchReports(config(), points, [], [])[0]!.agrees).toBeNull();
  });

  it("words the bounds: every probe holds (≥ the maximum), none does (< the minimum), goodput objective", () => {
    const all = searchReports(config(), [probe(1, 100), probe(2, 100), probe(4, 100), probe(8, 100)], [], []);
    expect(all[0]!.answer.statement).toBe(
      "the SLO holds at every probe up to concurrency 8: the answer is ≥ 8, bounded by the search range"
    );
    const none = searchReports(config(), [probe(1, 3000)], [], []);
    expect(none[0]!.answer.statement).toBe(
      "the SLO does not hold at the range minimum concurrency 1: the answer is below the range (< 1)"
    );
    const good = searchReports(
      config({objective: "goodput", min_goodput: 0.9}),
      [probe(1, 100), probe(2, 3000)],
      [],
      []
    );
    expect(good[0]!.answer.statement).toMatch(/^goodput ≥ 0\.9 holds up to concurrency 1 and not at 2/);
  });

  it("a point outside the search's mode or range is not a probe", () => {
    const s = searchReports(config({range: [2, 4]}), points, [], [])[0]!;
    expect(s.probes.map((p) => p.id)).toEqual(["concurrency-2", "concurrency-4", "concurrency-3"]);
  });
});

describe("saturations", () => {
  it("a probe as its search judged it; any other point against the next lower point of its mode", () => {
    const flat = (c: number): SearchPointInput => {
      // the same throughput at every load (one request per 100 ms) with E2E doubling: a plateau
      const p = probe(c, 100, "rate");
      return {
        point: p.point,
        samples: {
          ...p.samples,
          tStartNs: p.samples.tStartNs.map((_, i) => i * 1e8),
          tEndNs: p.samples.tEndNs.map((_, i) => i * 1e8 + 1e8),
          e2eMs: p.samples.e2eMs.map(() => 100 * c)
        }
      };
    };
    const m = saturations(config(), [probe(1, 100), probe(2, 100), flat(1), flat(2)]);
    expect(m.get("concurrency-1")!.over_saturated).toBe(false);
    expect(m.get("concurrency-2")!.over_saturated).toBe(false);
    expect(m.get("rate-1")!.over_saturated).toBe(false);
    // rate 2 against rate 1: 2× the load, 1× the throughput, 2× the median E2E
    expect(m.get("rate-2")!.rules).toEqual(["plateau"]);
    expect(m.get("rate-2")!.plateau).toEqual({lower_value: 1, load_ratio: 2, throughput_ratio: 1, latency_ratio: 2});
  });
});
