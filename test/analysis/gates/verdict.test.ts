import {describe, expect, it} from "vitest";

import {evaluateGates, verdictOf, worst} from "../../../src/analysis/gates/verdict.ts";
import type {GateContext, GateDef, GateResult, GateStatus, PointOutcome} from "../../../src/analysis/gates/types.ts";

/**
 * The verdict rule, on hand-made gates (docs: a failed I gate is INVALID; a warning, a failed N gate or a
 * required gate without evidence is INCONCLUSIVE; a W gate is only disclosed). Expected values are the
 * rule applied by hand, not the code's output.
 */
const base = {title: {en: "t", zh: "t"}, description: {en: "d", zh: "d"}, threshold: () => null, anchor: "a"};

const pointGate = (id: string, outcomes: Record<string, PointOutcome>): GateDef => ({
  ...base,
  id,
  slug: `slug_${id}`,
  outcome: "I",
  required: true,
  scope: "point",
  evaluatePoint: (p) => outcomes[p.point.id]!
});

const ctxWith = (ids: string[]): GateContext =>
  ({config: {}, points: ids.map((id) => ({point: {id}}))}) as unknown as GateContext;

const def = (id: string, outcome: "I" | "N" | "W", required = false): GateDef => ({
  ...base,
  id,
  slug: id.toLowerCase(),
  outcome,
  required,
  scope: "bundle",
  evaluate: () => ({status: "pass", reason: "", evidence: {}})
});

const result = (id: string, status: GateStatus, reason = "r"): GateResult => ({
  id,
  slug: id.toLowerCase(),
  threshold: null,
  status,
  reason,
  evidence: {}
});

describe("worst", () => {
  it("orders not_applicable < pass < info < not_evaluable < warn < fail", () => {
    expect(worst([])).toBe("not_applicable");
    expect(worst(["pass", "not_applicable"])).toBe("pass");
    expect(worst(["info", "pass"])).toBe("info");
    expect(worst(["pass", "not_evaluable", "info"])).toBe("not_evaluable");
    expect(worst(["warn", "not_evaluable", "pass"])).toBe("warn");
    expect(worst(["warn", "fail", "pass"])).toBe("fail");
    expect(worst(["fail", "warn"])).toBe("fail");
  });
});

describe("evaluateGates, point-scoped", () => {
  it("takes the worst point and names only the points at that status", () => {
    const g = pointGate("G9", {
      a: {status: "pass", reason: "fine"},
      b: {status: "warn", reason: "late"},
      c: {status: "warn", reason: "later"}
    });
    const [r] = evaluateGates([g], ctxWith(["a", "b", "c"]));
    expect(r!.status).toBe("warn");
    expect(r!.reason).toBe("b: late; c: later");
    expect(r!.points).toEqual([
      {point: "a", status: "pass", reason: "fine"},
      {point: "b", status: "warn", reason: "late"},
      {point: "c", status: "warn", reason: "later"}
    ]);
    expect(r!.slug).toBe("slug_G9");
  });

  it("says how many points pass when all do, and gives a single point's own reason", () => {
    const g = pointGate("G9", {a: {status: "pass", reason: "fine"}, b: {status: "pass", reason: "ok"}});
    expect(evaluateGates([g], ctxWith(["a", "b"]))[0]!.reason).toBe("all 2 load points pass");
    const [one] = evaluateGates([g], ctxWith(["b"]));
    expect(one!.status).toBe("pass");
    expect(one!.reason).toBe("ok");
  });

  it("says a reason every point shares once, and a streams-only gate is not applicable at non-streamed points", () => {
    const same = pointGate("G9", {a: {status: "warn", reason: "late"}, b: {status: "warn", reason: "late"}});
    expect(evaluateGates([same], ctxWith(["a", "b"]))[0]!.reason).toBe("all 2 load points: late");
    // one point at a lesser status: the flagged one is named, not "all"
    const mixed = pointGate("G9", {a: {status: "pass", reason: "late"}, b: {status: "warn", reason: "late"}});
    expect(evaluateGates([mixed], ctxWith(["a", "b"]))[0]!.reason).toBe("b: late");
    const streams = {...pointGate("G8", {a: {status: "fail", reason: "undercount"}}), streamsOnly: true} as GateDef;
    const ctx = {
      config: {},
      points: [{point: {id: "a"}, totals: {measured: 4, nonStreamed: 4}}]
    } as unknown as GateContext;
    expect(evaluateGates([streams], ctx)[0]).toMatchObject({status: "not_applicable"});
    const streamed = {config: {}, points: [{point: {id: "a"}, totals: {measured: 4, nonStreamed: 0}}]};
    expect(evaluateGates([streams], streamed as unknown as GateContext)[0]).toMatchObject({status: "fail"});
  });

  it("is not evaluable without load points, never a pass", () => {
    const [r] = evaluateGates([pointGate("G9", {})], ctxWith([]));
    expect(r).toMatchObject({status: "not_evaluable", reason: "no load points", points: []});
  });
});

describe("verdictOf", () => {
  const gates = [def("GI", "I", true), def("GN", "N"), def("GW", "W", true), def("GR", "N", true)];

  it("a failed I gate is INVALID, and INVALID outranks INCONCLUSIVE", () => {
    const v = verdictOf(gates, [result("GI", "fail", "broken"), result("GN", "fail", "odd")]);
    expect(v).toEqual({verdict: "INVALID", reasons: ["GI gi: broken"]});
  });

  it("a failed N gate, or a warning of any I or N gate, is INCONCLUSIVE", () => {
    expect(verdictOf(gates, [result("GN", "fail", "odd")])).toEqual({
      verdict: "INCONCLUSIVE",
      reasons: ["GN gn: odd"]
    });
    expect(verdictOf(gates, [result("GI", "warn", "close")])).toEqual({
      verdict: "INCONCLUSIVE",
      reasons: ["GI gi: close"]
    });
  });

  it("a W gate never changes the verdict, whatever its status", () => {
    for (const s of ["fail", "warn", "not_evaluable"] as const)
      expect(verdictOf(gates, [result("GW", s)])).toEqual({verdict: "VALID", reasons: []});
  });

  it("missing evidence is INCONCLUSIVE for a required gate only", () => {
    expect(verdictOf(gates, [result("GR", "not_evaluable", "no data")])).toEqual({
      verdict: "INCONCLUSIVE",
      reasons: ["GR gr: no data (not evaluable)"]
    });
    expect(verdictOf(gates, [result("GN", "not_evaluable", "no data")])).toEqual({verdict: "VALID", reasons: []});
  });

  it("pass, info and not_applicable are VALID", () => {
    const v = verdictOf(gates, [result("GI", "pass"), result("GN", "info"), result("GR", "not_applicable")]);
    expect(v).toEqual({verdict: "VALID", reasons: []});
  });
});
