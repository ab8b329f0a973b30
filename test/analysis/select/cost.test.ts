import {describe, expect, it} from "vitest";

import {
  candidatesOf,
  DEFAULT_CONSTRAINTS,
  selectConfigs,
  type Candidate,
  type Constraints,
  type Fact
} from "../../../src/analysis/index.ts";

const lat = (p95: number) => ({p50: p95 / 2, p90: null, p95, p99: null});
const known = (value: number): Fact => ({value, from: "test", reason: null});
const unknown = (reason: string): Fact => ({value: null, from: null, reason});

/** A candidate that meets the default constraints, costing `usd` $/Mtok output and `j` J per output token. */
function cand(bundle: string, usd: Fact | null, j: Fact | null, over: Partial<Candidate> = {}): Candidate {
  const c: Candidate = {
    bundle,
    set: JSON.stringify(["2", over.model ?? "m", "in=512 out=64"]),
    point: "concurrency-4",
    model: "m",
    hardware: "1× H100",
    engine: "vllm",
    variant: null,
    overSaturated: false,
    verdict: "VALID",
    clientHealth: "pass",
    nSuccess: 100,
    throughputPerGpu: 500,
    divisorKind: "gpu",
    interactivity: 50,
    latency: {ttft_ms: lat(300), itl_ms: lat(20), e2e_ms: lat(3000)},
    withheld: {ttft_ms: {}, itl_ms: {}, e2e_ms: {}},
    quality: [],
    ...over
  };
  if (usd !== null) c.cost = {perMOutput: usd, perRequest: unknown("not used here")};
  if (j !== null) c.energy = {joulesPerOutputToken: j, sparse: false, reason: null};
  return c;
}

const k = (over: Partial<Constraints> = {}): Constraints => ({...DEFAULT_CONSTRAINTS, ...over});
const bundles = (rs: readonly {candidate: Candidate}[]) => rs.map((r) => r.candidate.bundle);
const reasons = (s: ReturnType<typeof selectConfigs>) =>
  s.excluded.map((e) => [e.candidate.bundle, e.reasons.map((r) => r.text.en)]);

describe("selectConfigs with a cost limit", () => {
  it("sets no cost or energy limit and ranks by throughput by default", () => {
    expect([DEFAULT_CONSTRAINTS.maxUsdPerMOutput, DEFAULT_CONSTRAINTS.maxJoulesPerToken]).toEqual([null, null]);
    expect(DEFAULT_CONSTRAINTS.rankBy).toBe("throughput");
  });

  it("passes $0.40/Mtok and excludes $0.70/Mtok under a limit of $0.50", () => {
    const s = selectConfigs([cand("a", known(0.4), null), cand("b", known(0.7), null)], k({maxUsdPerMOutput: 0.5}));
    expect(bundles(s.qualifying)).toEqual(["a"]);
    expect(reasons(s)).toEqual([["b", ["$0.70 per million output tokens > $0.50"]]]);
    expect(s.excluded[0]!.reasons[0]!.code).toBe("cost_exceeded");
  });

  it("passes a cost exactly at the limit (≤)", () => {
    expect(bundles(selectConfigs([cand("a", known(0.5), null)], k({maxUsdPerMOutput: 0.5})).qualifying)).toEqual(["a"]);
  });

  it("never lets an unknown cost pass: it is excluded with the reason, and a missing cost reads as unknown", () => {
    const s = selectConfigs(
      [
        cand("a", known(0.4), null),
        cand("u", unknown("no price for H100 in prices.yaml"), null),
        cand("n", null, null)
      ],
      k({maxUsdPerMOutput: 0.5})
    );
    expect(bundles(s.qualifying)).toEqual(["a"]);
    expect(reasons(s)).toEqual([
      ["n", ["cost unknown: the analysis was not given the hardware data"]],
      ["u", ["cost unknown: no price for H100 in prices.yaml"]]
    ]);
    expect(s.excluded.map((e) => e.reasons[0]!.code)).toEqual(["cost_unknown", "cost_unknown"]);
    expect(s.excluded[1]!.reasons[0]!.text.zh).toBe("成本未知：no price for H100 in prices.yaml");
  });

  it("leaves an unknown cost alone when no cost limit is set and the ranking is by throughput", () => {
    const s = selectConfigs([cand("u", unknown("no price"), null)], k());
    expect(bundles(s.qualifying)).toEqual(["u"]);
  });

  it("counts unknown cost as the reason when nothing qualifies", () => {
    const s = selectConfigs(
      [cand("u", unknown("no price"), null), cand("v", unknown("window unknown"), null)],
      k({maxUsdPerMOutput: 1})
    );
    expect(s.noRecommendation?.map((r) => r.en)).toEqual(["2 of 2 configurations: cost unknown"]);
  });
});

describe("selectConfigs ranked by cost", () => {
  // throughput order: c (900) > b (600) > a (400); cost order: a ($0.40) < b ($0.55) < c ($0.70)
  const three = [
    cand("a", known(0.4), null, {throughputPerGpu: 400}),
    cand("b", known(0.55), null, {throughputPerGpu: 600}),
    cand("c", known(0.7), null, {throughputPerGpu: 900})
  ];

  it("ranks by throughput per GPU unless asked, then by $/Mtok output lowest first", () => {
    expect(bundles(selectConfigs(three, k()).qualifying)).toEqual(["c", "b", "a"]);
    const s = selectConfigs(three, k({rankBy: "cost"}));
    expect(s.qualifying.map((r) => `${r.candidate.bundle}#${r.rank}`)).toEqual(["a#1", "b#2", "c#3"]);
    expect(bundles(s.recommended)).toEqual(["a"]);
  });

  it("breaks a cost tie by throughput per GPU", () => {
    const s = selectConfigs(
      [
        cand("slow", known(0.4), null, {throughputPerGpu: 300}),
        cand("fast", known(0.4), null, {throughputPerGpu: 800})
      ],
      k({rankBy: "cost"})
    );
    expect(bundles(s.qualifying)).toEqual(["fast", "slow"]);
  });

  it("cannot rank an unknown cost by cost: excluded with the reason, even without a limit", () => {
    const s = selectConfigs([...three, cand("u", unknown("no GPU on this host"), null)], k({rankBy: "cost"}));
    expect(bundles(s.qualifying)).toEqual(["a", "b", "c"]);
    expect(reasons(s)).toEqual([["u", ["cost unknown: no GPU on this host"]]]);
  });

  it("ranks within each model and recommends each model's cheapest", () => {
    const s = selectConfigs(
      [...three, cand("o", known(2), null, {model: "other"}), cand("p", known(1), null, {model: "other"})],
      k({rankBy: "cost"})
    );
    expect(s.qualifying.map((r) => `${r.candidate.bundle}#${r.rank}`)).toEqual(["a#1", "b#2", "c#3", "p#1", "o#2"]);
    expect(bundles(s.recommended)).toEqual(["a", "p"]);
  });
});

describe("selectConfigs with an energy limit", () => {
  it("passes 0.8 J/token, excludes 1.2 J/token under 1 J, and never passes unknown or sparse energy", () => {
    const sparse = cand("s", null, known(0.5));
    sparse.energy!.sparse = true;
    sparse.energy!.reason = "only 3 power samples inside the window (the rule asks for 10)";
    const s = selectConfigs(
      [
        cand("a", null, known(0.8)),
        cand("b", null, known(1.2)),
        cand("u", null, unknown("no GPU power telemetry (no GPU listed)")),
        sparse
      ],
      k({maxJoulesPerToken: 1})
    );
    expect(bundles(s.qualifying)).toEqual(["a"]);
    expect(reasons(s)).toEqual([
      ["b", ["1.20 J per output token > 1.00 J"]],
      ["s", ["energy too sparse to trust: only 3 power samples inside the window (the rule asks for 10)"]],
      ["u", ["energy unknown: no GPU power telemetry (no GPU listed)"]]
    ]);
    expect(s.excluded.map((e) => e.reasons[0]!.code)).toEqual(["energy_exceeded", "energy_sparse", "energy_unknown"]);
  });

  it("gives both reasons when cost and energy both fail", () => {
    const s = selectConfigs([cand("x", known(3), known(4))], k({maxUsdPerMOutput: 1, maxJoulesPerToken: 2}));
    expect(reasons(s)).toEqual([
      ["x", ["$3.00 per million output tokens > $1.00", "4.00 J per output token > 2.00 J"]]
    ]);
  });
});

describe("candidatesOf reads cost and energy from the hardware block", () => {
  const point = (id: string) => ({
    id,
    mode: "concurrency",
    value: 1,
    verdict: "VALID" as const,
    n_success: 40,
    metrics: {output_throughput_tok_s: {value: 100}}
  });
  const hwPoint = (id: string, usd: Fact) => ({
    point: id,
    cost: {perMOutput: usd, perRequest: known(0.002)},
    energy: {joulesPerOutputToken: known(0.9), sparse: false, reason: null, samples: 40}
  });
  const run = (hardware: unknown) =>
    ({
      bundle: "b1",
      gates: [{id: "G6", status: "pass"}],
      load_points: [point("concurrency-1"), point("concurrency-2")],
      quality: [],
      meta: {model: "m", hardware: "1× H100", engine: "vllm", gpus: 1},
      hardware
    }) as unknown as Parameters<typeof candidatesOf>[0];

  it("matches each load point by id; a point missing from the block is unknown with the reason", () => {
    const [one, two] = candidatesOf(run({points: [hwPoint("concurrency-1", known(0.45))]}));
    expect(one!.cost).toEqual({perMOutput: known(0.45), perRequest: known(0.002)});
    expect(one!.energy).toEqual({joulesPerOutputToken: known(0.9), sparse: false, reason: null});
    expect(two!.cost!.perMOutput).toEqual(unknown("load point concurrency-2 not in the hardware block"));
  });

  it("reads as unknown, never 0, when the report has no hardware block", () => {
    const [c] = candidatesOf(run(undefined));
    expect(c!.cost!.perMOutput.value).toBeNull();
    expect(c!.cost!.perMOutput.reason).toBe("the analysis was not given the hardware data");
    expect(c!.energy!.joulesPerOutputToken.value).toBeNull();
  });
});
