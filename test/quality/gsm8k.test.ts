import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {
  boxedContents,
  expectedNumber,
  extractFlexible,
  extractStrict,
  scoreGsm8k
} from "../../src/analysis/quality/gsm8k.ts";

const SAMPLE = readFileSync(join(import.meta.dirname, "..", "fixtures", "gsm8k-sample.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as {question: string; answer: string});

describe("extractStrict: the number after the last ####, else the last \\boxed{}", () => {
  it.each([
    ["#### 18", 18],
    ["work...\n#### 1,234.", 1234],
    ["#### $70,000", 70000],
    ["#### -12\nthen 5 more words", -12],
    ["first #### 3 then #### 4", 4],
    ["The answer is \\boxed{42}.", 42],
    ["\\boxed{1} … so \\boxed{\\frac{3}{4}}", 0.75],
    ["\\boxed{18 \\text{ dollars}}", 18],
    ["####\u00a0\u221212", -12],
    ["#### \uff15\uff10", 50]
  ])("%j → %d", (text, value) => {
    expect(extractStrict(text)?.value).toBe(value);
  });

  it("is unextractable without a marker, or with a marker and no number", () => {
    expect(extractStrict("the answer is 18")).toBeNull();
    expect(extractStrict("#### eighteen")).toBeNull();
    expect(extractStrict("\\boxed{x + y}")).toBeNull();
  });

  it("reads nested braces inside \\boxed{}", () => {
    expect(boxedContents("a \\boxed{\\frac{1}{2}} b \\boxed{7}")).toEqual(["\\frac{1}{2}", "7"]);
    expect(boxedContents("unclosed \\boxed{3")).toEqual([]);
  });
});

describe("extractFlexible: the last number anywhere", () => {
  it.each([
    ["so 5 eggs, then 7", 7],
    ["9 * 2 = $18.", 18],
    ["She has 3,500 apples", 3500],
    ["it is -4", -4],
    ["#### 18\nNote: 5 more", 5],
    ["\\boxed{\\frac{1}{4}}", 0.25],
    ["Answer: \u0664\u0662", 42]
  ])("%j → %d", (text, value) => {
    expect(extractFlexible(text)?.value).toBe(value);
  });

  it("is null when there is no number", () => {
    expect(extractFlexible("no idea")).toBeNull();
  });
});

describe("expectedNumber reads the dataset's answer", () => {
  it("from a number, a numeric string or a full solution ending in #### N", () => {
    expect(expectedNumber(18)).toBe(18);
    expect(expectedNumber("1,000")).toBe(1000);
    expect(expectedNumber("He has 9*2=<<9*2=18>>18\n#### 18")).toBe(18);
    expect(expectedNumber("eighteen")).toBeNull();
    expect(expectedNumber(null)).toBeNull();
  });

  it("for every item of the shipped sample", () => {
    expect(SAMPLE).toHaveLength(20);
    expect(SAMPLE.map((s) => expectedNumber(s.answer))).toEqual([
      18, 3, 70000, 540, 20, 64, 260, 160, 45, 460, 366, 694, 13, 18, 60, 125, 230, 57500, 7, 6
    ]);
  });
});

describe("scoreGsm8k keeps every item in the denominator", () => {
  const ok = {truncated: false, error: null};

  it("the dataset's own solutions score 20/20 strict and flexible", () => {
    for (const s of SAMPLE) {
      const v = scoreGsm8k({response: s.answer, expected: expectedNumber(s.answer)!, ...ok});
      expect([v.strict.verdict, v.flexible.verdict, v.scorable]).toEqual(["pass", "pass", true]);
    }
  });

  it("a right number without the marker passes flexible only", () => {
    const v = scoreGsm8k({response: "so the total is 18.", expected: 18, ...ok});
    expect(v.strict).toMatchObject({verdict: "fail", reason: expect.stringMatching(/^unextractable/)});
    expect(v.flexible.verdict).toBe("pass");
    expect(v.scorable).toBe(true);
  });

  it("a truncated answer is wrong even when its number is right, and is not covered", () => {
    const v = scoreGsm8k({response: "#### 18 and then it rambles", expected: 18, truncated: true, error: null});
    expect([v.strict.verdict, v.flexible.verdict, v.scorable]).toEqual(["fail", "fail", false]);
    expect(v.strict.reason).toMatch(/truncated/);
    expect(v.strict.extracted?.value).toBe(18); // kept as evidence
  });

  it("no response and an error are wrong with their reason", () => {
    expect(scoreGsm8k({response: null, expected: 1, ...ok}).strict.reason).toBe("no response");
    const e = scoreGsm8k({response: "", expected: 1, truncated: false, error: "http 500"});
    expect(e.flexible).toMatchObject({verdict: "fail", reason: "no usable response: http 500"});
  });

  it("a wrong number says what it read", () => {
    expect(scoreGsm8k({response: "#### 17", expected: 18, ...ok}).strict.reason).toBe(
      "wrong: extracted 17, expected 18"
    );
  });
});
