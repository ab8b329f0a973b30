import {describe, expect, it} from "vitest";

import {qualitySummary} from "../../src/analysis/quality/summary.ts";
import {scoreItem, ScoreSpecError} from "../../src/analysis/quality/score.ts";
import type {QualityRecord} from "../../src/analysis/schema/records.ts";
import {QUALITY_VERSION} from "../../src/analysis/schema/versions.ts";

let seq = 0;
function rec(p: Partial<QualityRecord> & Pick<QualityRecord, "caseId" | "scorer" | "verdict">): QualityRecord {
  return {
    seq: seq++,
    qualityVersion: QUALITY_VERSION,
    itemId: `i${seq}`,
    requestId: null,
    point: null,
    tier: null,
    promptDigest: null,
    response: "",
    extracted: null,
    expected: null,
    reason: null,
    details: {},
    ...p
  };
}

describe("qualitySummary", () => {
  it("counts not evaluated apart, never in the denominator", () => {
    const s = qualitySummary([
      rec({caseId: "case_01_generation", scorer: "none", verdict: "not_evaluated"}),
      rec({caseId: "case_01_generation", scorer: "none", verdict: "not_evaluated"}),
      rec({caseId: "case_02_tool_call", scorer: "tool_schema", verdict: "pass", details: {valid: 1, invalid: 0}}),
      rec({caseId: "case_02_tool_call", scorer: "tool_schema", verdict: "fail", details: {valid: 0, invalid: 2}})
    ]);
    const [c1, c2] = s.groups[0]!.cases;
    expect(c1!.scorers[0]!.rate).toEqual({pass: 0, fail: 0, not_evaluated: 2, n: 0, rate: null});
    expect(c2!.scorers[0]!.rate).toEqual({pass: 1, fail: 1, not_evaluated: 0, n: 2, rate: 0.5});
    expect(c2!.tools).toEqual([{point: null, calls: 3, valid: 1, invalid: 2}]);
  });

  it("never combines quality versions", () => {
    const s = qualitySummary([
      rec({caseId: "case_10_needle", scorer: "needle", verdict: "pass", qualityVersion: "0"}),
      rec({caseId: "case_10_needle", scorer: "needle", verdict: "fail"})
    ]);
    expect(s.versions).toEqual(["0", QUALITY_VERSION]);
    expect(s.groups.map((g) => [g.qualityVersion, g.current, g.cases[0]!.scorers[0]!.rate.rate])).toEqual([
      ["0", false, 1],
      [QUALITY_VERSION, true, 0]
    ]);
  });

  it("reads a tiered case at its stated tier with every tier beside it", () => {
    const s = qualitySummary([
      rec({caseId: "case_06_reasoning", scorer: "numeric", tier: "easy", verdict: "pass"}),
      rec({caseId: "case_06_reasoning", scorer: "numeric", tier: "easy", verdict: "pass"}),
      rec({caseId: "case_06_reasoning", scorer: "numeric", tier: "hard", verdict: "fail"}),
      rec({caseId: "case_06_reasoning", scorer: "numeric", tier: "medium", verdict: "pass"})
    ]);
    const sc = s.groups[0]!.cases[0]!.scorers[0]!;
    expect(sc.tiers.map((t) => [t.tier, t.rate.pass, t.rate.n])).toEqual([
      ["easy", 2, 2],
      ["medium", 1, 1],
      ["hard", 0, 1]
    ]);
    expect(sc.headlineTier).toBe("hard");
    expect(sc.headline.rate).toBe(0);
    expect(sc.rate.rate).toBe(0.75); // every item, shown apart from the headline
  });

  it("keeps idle and under-load conditions apart, idle first", () => {
    const s = qualitySummary([
      rec({caseId: "case_11_instruction", scorer: "instructions_strict", verdict: "fail", point: "concurrency-4"}),
      rec({caseId: "case_11_instruction", scorer: "instructions_strict", verdict: "pass"})
    ]);
    expect(s.groups[0]!.cases[0]!.scorers.map((x) => [x.point, x.rate.rate])).toEqual([
      [null, 1],
      ["concurrency-4", 0]
    ]);
  });

  it("builds the needle heatmap per length × depth with margins", () => {
    const cell = (tier: string, depth: number, verdict: "pass" | "fail") =>
      rec({caseId: "case_10_needle", scorer: "needle", tier, verdict, details: {depth}});
    const s = qualitySummary([
      cell("1024", 0, "pass"),
      cell("1024", 0.5, "fail"),
      cell("512", 0, "pass"),
      cell("512", 0.5, "pass"),
      cell("512", 0.5, "fail")
    ]);
    const t = s.groups[0]!.cases[0]!.needle[0]!;
    expect(t.lengths).toEqual(["512", "1024"]);
    expect(t.depths).toEqual([0, 0.5]);
    expect(t.cells.map((c) => [c.length, c.depth, c.rate.pass, c.rate.n])).toEqual([
      ["512", 0, 1, 1],
      ["512", 0.5, 1, 2],
      ["1024", 0, 1, 1],
      ["1024", 0.5, 0, 1]
    ]);
    expect(t.byDepth.map((d) => [d.depth, d.rate.pass, d.rate.n])).toEqual([
      [0, 2, 2],
      [0.5, 1, 3]
    ]);
    expect(t.overall.rate).toBe(0.6);
  });

  it("GSM8K totals: accuracy over all items, coverage per reading apart", () => {
    const items = [
      scoreItem({scorer: "gsm8k", response: "#### 18", expected: 18}),
      // no "#### ": strict-match reads nothing, flexible-extract and lenient read 18
      scoreItem({scorer: "gsm8k", response: "it is 18", expected: 18}),
      // truncated: wrong and not covered in every reading
      scoreItem({scorer: "gsm8k", response: "#### 18", expected: 18, finishReason: "length"}),
      scoreItem({scorer: "gsm8k", response: "no idea", expected: 18})
    ];
    const records = items
      .flat()
      .map((s) =>
        rec({caseId: "gsm8k", scorer: s.scorer, verdict: s.verdict, details: s.details, extracted: s.extracted})
      );
    expect(qualitySummary(records).groups[0]!.cases[0]!.gsm8k).toEqual([
      {
        point: null,
        n: 4,
        definition: "lm-eval",
        strict: {correct: 1, accuracy: 0.25, coverage: 0.25},
        flexible: {correct: 2, accuracy: 0.5, coverage: 0.5},
        lenient: {correct: 2, accuracy: 0.5, coverage: 0.5}
      }
    ]);
  });

  it("GSM8K records of QUALITY_VERSION 1 keep their own meaning: no lenient, coverage under flexible", () => {
    // as written then: gsm8k_strict and gsm8k_flexible, one `scorable` flag on both (the flexible coverage)
    const v1 = (itemId: string, strict: "pass" | "fail", flexible: "pass" | "fail", scorable: boolean) =>
      (["strict", "flexible"] as const).map((mode) =>
        rec({
          caseId: "gsm8k",
          scorer: `gsm8k_${mode}`,
          itemId,
          qualityVersion: "1",
          verdict: mode === "strict" ? strict : flexible,
          details: {scorable}
        })
      );
    const records = [
      ...v1("a", "pass", "pass", true),
      ...v1("b", "fail", "pass", true),
      ...v1("c", "fail", "fail", false)
    ];
    expect(qualitySummary(records).groups[0]!.cases[0]!.gsm8k).toEqual([
      {
        point: null,
        n: 3,
        definition: "v1",
        strict: {correct: 1, accuracy: 1 / 3, coverage: null},
        flexible: {correct: 2, accuracy: 2 / 3, coverage: 2 / 3},
        lenient: null
      }
    ]);
  });

  it("per constraint and per prompt, strict and loose", () => {
    const params = {constraints: [{kind: "json"}, {kind: "no_commas"}]};
    const records = [
      ...scoreItem({scorer: "instructions", response: '{"a":1}', expected: null, params}),
      ...scoreItem({scorer: "instructions", response: '```\n{"a":1}\n```', expected: null, params}),
      ...scoreItem({scorer: "instructions", response: '{"a":1,"b":2}', expected: null, params})
    ].map((s, i) =>
      rec({
        caseId: "case_11_instruction",
        scorer: s.scorer,
        verdict: s.verdict,
        details: s.details,
        itemId: `p${i >> 1}`
      })
    );
    const c = qualitySummary(records).groups[0]!.cases[0]!;
    expect(c.constraints.map((k) => [k.kind, k.strict.pass, k.strict.n, k.loose.pass, k.loose.n])).toEqual([
      ["json", 2, 3, 3, 3],
      ["no_commas", 2, 3, 2, 3]
    ]);
    expect(c.prompts.map((p) => [p.itemId, p.strict.rate, p.loose.rate])).toEqual([
      ["p0", 1, 1],
      ["p1", 0, 1],
      ["p2", 0, 0]
    ]);
  });
});

describe("scoreItem", () => {
  it("rejects unusable specifications with a message naming the problem", () => {
    expect(() => scoreItem({scorer: "gsm8k", response: "1", expected: "many"})).toThrow(ScoreSpecError);
    expect(() =>
      scoreItem({scorer: "instructions", response: "x", expected: null, params: {constraints: [{kind: "nope"}]}})
    ).toThrow(/params.constraints\[0\]/);
    expect(() => scoreItem({scorer: "tool_schema", response: "", expected: null})).toThrow(/params.tools/);
    expect(() => scoreItem({scorer: "judge", response: "", expected: null})).toThrow(/unknown scorer "judge"/);
  });

  it("'none' is not evaluated with its reason, whatever the response", () => {
    expect(
      scoreItem({scorer: "none", response: null, expected: null, params: {reason: "latency tier"}, error: "http 500"})
    ).toEqual([
      {scorer: "none", verdict: "not_evaluated", reason: "not evaluated: latency tier", extracted: null, details: {}}
    ]);
  });

  it("instructions: a failed or truncated response fails every constraint, with the reason", () => {
    const params = {constraints: [{kind: "lowercase"}]};
    const [strict] = scoreItem({
      scorer: "instructions",
      response: "ok",
      expected: null,
      params,
      finishReason: "length"
    });
    expect(strict).toMatchObject({verdict: "fail", reason: "truncated: the response hit max_tokens before it ended"});
    expect((strict!.details.constraints as {pass: boolean; reason: string}[])[0]).toEqual({
      index: 0,
      kind: "lowercase",
      pass: false,
      reason: "truncated"
    });
    const [e] = scoreItem({scorer: "instructions", response: null, expected: null, params, error: "http 500"});
    expect(e!.reason).toBe("no usable response: http 500");
  });

  it("numeric reads the marked answer first, else the last number", () => {
    expect(scoreItem({scorer: "numeric", response: "#### 240\n(about 250)", expected: 240})[0]!.verdict).toBe("pass");
    expect(scoreItem({scorer: "numeric", response: "the total is 240", expected: 240})[0]!.verdict).toBe("pass");
  });
});
