import {describe, expect, it} from "vitest";

import {scoreAnswer} from "../../src/analysis/quality/answers.ts";
import {scoreItem} from "../../src/analysis/quality/score.ts";
import type {CaseAnswer} from "../../src/analysis/schema/records.ts";
import {QUALITY_VERSION} from "../../src/analysis/schema/versions.ts";

function answer(p: Partial<CaseAnswer> & Pick<CaseAnswer, "caseId" | "scorer">): CaseAnswer {
  return {
    seq: 0,
    itemId: "item",
    requestId: "run-item-r0",
    point: null,
    tier: null,
    repeat: 0,
    round: null,
    promptDigest: null,
    expected: null,
    response: "",
    toolCalls: [],
    finishReason: "stop",
    error: null,
    details: {},
    ...p
  };
}

describe("scoreAnswer", () => {
  it("scores a raw GSM8K answer into its three readings under this analyzer's quality version", () => {
    const a = answer({
      caseId: "gsm8k",
      itemId: "gsm8k-0",
      scorer: "gsm8k",
      expected: "18",
      response: "16 - 3 - 4 = 9; 9 * 2 = 18\n#### 18",
      details: {line: 1}
    });
    const {records, specError} = scoreAnswer(a);
    expect(specError).toBeNull();
    expect(records.map((r) => [r.scorer, r.verdict, r.qualityVersion])).toEqual([
      ["gsm8k_strict", "pass", QUALITY_VERSION],
      ["gsm8k_flexible", "pass", QUALITY_VERSION],
      ["gsm8k_lenient", "pass", QUALITY_VERSION]
    ]);
    // the verdicts are exactly scoreItem's; the case facts, repeat and finish reason sit beside them
    const direct = scoreItem({
      scorer: "gsm8k",
      response: a.response,
      expected: "18",
      finishReason: "stop",
      error: null
    });
    expect(records.map((r) => [r.verdict, r.reason, r.extracted])).toEqual(
      direct.map((s) => [s.verdict, s.reason, s.extracted])
    );
    expect(records[0]!.details).toEqual({line: 1, extractable: true, repeat: 0, finishReason: "stop"});
    expect(Object.keys(records[0]!.details)).toEqual(["line", "extractable", "repeat", "finishReason"]);
    expect(records[0]).toMatchObject({caseId: "gsm8k", itemId: "gsm8k-0", requestId: "run-item-r0", expected: "18"});
  });

  it("keeps the round of a multi-turn item and the tool calls as assembled", () => {
    const calls = [{name: "get_weather", arguments: '{"city":"Paris"}'}];
    const tools = [{name: "get_weather", parameters: {type: "object", properties: {city: {type: "string"}}}}];
    const {records} = scoreAnswer(
      answer({caseId: "case_02_tool_call", scorer: "tool_schema", round: 2, toolCalls: calls, params: {tools}})
    );
    expect(records).toHaveLength(1);
    expect(records[0]!.verdict).toBe("pass");
    expect(records[0]!.details).toMatchObject({round: 2, repeat: 0, toolCalls: calls, valid: 1, invalid: 0});
  });

  it("counts no tool call without a response (a non-2xx answer), and fails it with the error", () => {
    const tools = [{name: "get_weather", parameters: {type: "object"}}];
    const {records} = scoreAnswer(
      answer({
        caseId: "case_02_tool_call",
        scorer: "tool_schema",
        response: null,
        toolCalls: [{name: "get_weather", arguments: "{}"}],
        finishReason: null,
        error: "http 500: boom",
        params: {tools}
      })
    );
    expect([records[0]!.verdict, records[0]!.reason, records[0]!.extracted]).toEqual([
      "fail",
      "no usable response: http 500: boom",
      []
    ]);
  });

  it("does not evaluate an item whose scorer specification is unusable, and says why", () => {
    const {records, specError} = scoreAnswer(answer({caseId: "case_10_needle", scorer: "bleu"}));
    expect(specError).toMatch(/^unknown scorer "bleu" \(known: gsm8k, /);
    expect(records).toEqual([
      expect.objectContaining({
        scorer: "bleu",
        verdict: "not_evaluated",
        reason: expect.stringMatching(/^not evaluated: the case's scorer specification is unusable: unknown scorer/)
      })
    ]);
  });
});
