import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {
  boxedContents,
  expectedNumber,
  extractLastNumber,
  extractLenient,
  extractMarked,
  scoreGsm8k,
  type AnswerInput
} from "../../src/analysis/quality/gsm8k.ts";
import {
  extractFlexible,
  extractStrict,
  lmEvalExactMatch,
  lmEvalNormalize
} from "../../src/analysis/quality/lmEvalGsm8k.ts";

const SAMPLE = readFileSync(join(import.meta.dirname, "..", "fixtures", "gsm8k-sample.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as {question: string; answer: string});

// Expected values below are worked out by hand from lm-evaluation-harness's gsm8k.yaml (commit 4e7e0d47):
// strict-match `#### (\-?[0-9\.\,]+)`, first match; flexible-extract `(-?[$0-9.,]{2,})|(-?[0-9]+)`, last
// match, first non-empty group; exact_match after removing "," "$" "(?s).*#### " "\.$" and lowercasing.

describe("lmEvalNormalize: gsm8k.yaml's regexes_to_ignore in order, then ignore_case", () => {
  it.each([
    // "," and "$" go everywhere, not only as thousands separators or a leading sign
    ["1,234", "1234"],
    ["$1,234.50", "1234.50"],
    // "(?s).*#### " is greedy across lines: the reference keeps only what follows its last "#### "
    ["Natalia sold 48/2 = <<48/2=24>>24 clips.\n#### 72", "72"],
    ["a #### 1\n#### 2", "2"],
    // "\.$" removes one final period; Python's $ also matches before a final newline, which stays
    ["5.", "5"],
    ["5.\n", "5\n"],
    ["5..", "5."],
    // decimals are kept as written: exact_match compares strings, not numbers
    ["5.00", "5.00"],
    ["[INVALID]", "[invalid]"]
  ])("%j → %j", (text, normalized) => {
    expect(lmEvalNormalize(text)).toBe(normalized);
  });

  it("compares prediction and reference after the same normalisation", () => {
    expect(lmEvalExactMatch("1,234", "He earns 1,234 dollars\n#### 1234")).toBe(true);
    expect(lmEvalExactMatch("5.00", "5")).toBe(false); // "5.00" ≠ "5"
    expect(lmEvalExactMatch("-3", "3")).toBe(false); // the sign is kept
  });
});

describe("extractStrict is lm-eval's strict-match: group 1 of the first `#### N`", () => {
  it.each([
    ["#### 18", "18", "18"],
    // the class has "," and "." so the separator and a trailing period are extracted, then ignored
    ["#### 1,234", "1,234", "1234"],
    ["#### 5.", "5.", "5"],
    ["#### 5.00", "5.00", "5.00"],
    ["#### -12\nthen 5 more words", "-12", "-12"],
    // first match, not last: lm-eval's group_select defaults to 0
    ["#### 3\n#### 4", "3", "3"],
    // "#### 7" occurs inside "##### 7"; the regex is not anchored to a line start
    ["##### 7", "7", "7"],
    // punctuation alone is a match: extracted, then compared as ""
    ["#### .", ".", ""]
  ])("%j → %j (compared as %j)", (text, extracted, compared) => {
    expect(extractStrict(text)).toEqual({text: extracted, compared, via: "strict-match"});
  });

  it.each([
    // "$" is not in `[0-9\.\,]`, so the marker is followed by nothing it reads
    "#### $20",
    // no "#### " at all
    "The answer is 42.",
    // the space after #### is part of the pattern
    "####18",
    // U+2212 and fullwidth digits are not ASCII `-` and `[0-9]`
    "#### \u221212",
    "#### \uff15\uff10",
    "#### eighteen",
    "\\boxed{42}"
  ])("%j is [invalid] (null)", (text) => {
    expect(extractStrict(text)).toBeNull();
  });
});

describe("extractFlexible is lm-eval's flexible-extract: the last match, its first non-empty group", () => {
  it.each([
    // "42." matches group 1 (three characters of [$0-9.,]); the period is removed when compared
    ["The answer is 42.", "42.", "42"],
    // "$20" matches group 1 and "$" is an ignored regex, so `#### $20` passes flexible
    ["#### $20", "$20", "20"],
    // last match, not first; lone "5" and "7" only match group 2 (group 1 needs two characters)
    ["so 5 eggs, then 7", "7", "7"],
    ["#### 3\n#### 4", "4", "4"],
    ["#### 18\nNote: 5 more", "5", "5"],
    ["She has 3,500 apples", "3,500", "3500"],
    // tuple groups: "-5" fails group 1 ("-" then a single class character), matches group 2: ("", "-5")
    ["it is -5", "-5", "-5"],
    // "-15" matches group 1: ("-15", "")
    ["it is -15", "-15", "-15"],
    // a fraction is two numbers; the last is the denominator
    ["half is 1/2", "2", "2"],
    // an ellipsis joins the number: "42..." loses only its final period
    ["The answer is 42...", "42...", "42.."],
    // LaTeX display math: "$$" is two class characters, so the last match is the closing "$$"
    ["$$\\boxed{18}$$", "$$", ""]
  ])("%j → %j (compared as %j)", (text, extracted, compared) => {
    expect(extractFlexible(text)).toEqual({text: extracted, compared, via: "flexible-extract"});
  });

  it.each([
    "no idea",
    // Arabic-Indic and fullwidth digits are outside the ASCII class
    "Answer: \u0664\u0662",
    "\uff15\uff10",
    // one lone "." or "," is a single class character and there is no digit
    "Well, I think so."
  ])("%j is [invalid] (null)", (text) => {
    expect(extractFlexible(text)).toBeNull();
  });
});

describe("extractMarked: the number after the last ####, else the last \\boxed{} (QUALITY_VERSION 1's strict)", () => {
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
    expect(extractMarked(text)?.value).toBe(value);
  });

  it("is unextractable without a marker, or with a marker and no number", () => {
    expect(extractMarked("the answer is 18")).toBeNull();
    expect(extractMarked("#### eighteen")).toBeNull();
    expect(extractMarked("\\boxed{x + y}")).toBeNull();
  });

  it("reads nested braces inside \\boxed{}", () => {
    expect(boxedContents("a \\boxed{\\frac{1}{2}} b \\boxed{7}")).toEqual(["\\frac{1}{2}", "7"]);
    expect(boxedContents("unclosed \\boxed{3")).toEqual([]);
  });
});

describe("extractLastNumber: the last number anywhere (QUALITY_VERSION 1's flexible)", () => {
  it.each([
    ["so 5 eggs, then 7", 7],
    ["9 * 2 = $18.", 18],
    ["She has 3,500 apples", 3500],
    ["it is -4", -4],
    ["#### 18\nNote: 5 more", 5],
    ["\\boxed{\\frac{1}{4}}", 0.25],
    ["Answer: \u0664\u0662", 42]
  ])("%j → %d", (text, value) => {
    expect(extractLastNumber(text)?.value).toBe(value);
  });

  it("is null when there is no number", () => {
    expect(extractLastNumber("no idea")).toBeNull();
  });
});

describe("extractLenient: the marked answer, else the last number", () => {
  it.each([
    // the marker's currency sign is read, where lm-eval's strict-match reads nothing
    ["#### $20", 20, "####"],
    // the last marker, where strict-match takes the first
    ["#### 3\n#### 4", 4, "####"],
    // the marker wins over a later number, where flexible-extract takes the later one
    ["#### 18\nNote: 5 more", 18, "####"],
    ["$$\\boxed{18}$$", 18, "boxed"],
    ["#### \u221212", -12, "####"],
    ["The answer is 42.", 42, "last_number"],
    ["Answer: \u0664\u0662", 42, "last_number"],
    ["half is \\frac{1}{2}", 0.5, "last_number"]
  ])("%j → %d via %s", (text, value, via) => {
    expect(extractLenient(text)).toMatchObject({value, via});
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
  const item = (response: string | null, expected: number, more: Partial<AnswerInput> = {}): AnswerInput => ({
    response,
    expected,
    reference: String(expected),
    ...ok,
    ...more
  });
  const verdicts = (i: AnswerInput) => {
    const v = scoreGsm8k(i);
    return [v.strict.verdict, v.flexible.verdict, v.lenient.verdict];
  };

  it("the dataset's own solutions score 20/20 in all three readings, against the full solution as reference", () => {
    // each solution has one "#### N" (strict), ends with N (flexible) and N is what expectedNumber reads (lenient)
    for (const s of SAMPLE) {
      const v = scoreGsm8k(item(s.answer, expectedNumber(s.answer)!, {reference: s.answer}));
      expect([v.strict, v.flexible, v.lenient].map((m) => [m.verdict, m.extractable])).toEqual([
        ["pass", true],
        ["pass", true],
        ["pass", true]
      ]);
    }
  });

  it("`#### $20` is unextractable strict but passes flexible and lenient", () => {
    const v = scoreGsm8k(item("#### $20", 20));
    expect(v.strict).toMatchObject({
      verdict: "fail",
      extractable: false,
      reason: expect.stringMatching(/^unextractable/)
    });
    expect(v.flexible).toMatchObject({verdict: "pass", extracted: {text: "$20", compared: "20"}});
    expect(v.lenient).toMatchObject({verdict: "pass", extracted: {value: 20, via: "####"}});
  });

  it("`#### 1,234` passes strict against the reference 1234: the comma is an ignored regex", () => {
    expect(verdicts(item("#### 1,234", 1234))).toEqual(["pass", "pass", "pass"]);
    expect(verdicts(item("#### 1,234", 1234, {reference: "work\n#### 1234"}))).toEqual(["pass", "pass", "pass"]);
  });

  it("`The answer is 42.` is unextractable strict, 42 for flexible and lenient", () => {
    const v = scoreGsm8k(item("The answer is 42.", 42));
    expect(v.strict.reason).toBe(`unextractable: no "#### N" that lm-eval's strict-match reads ([invalid])`);
    expect([v.flexible.verdict, v.lenient.verdict]).toEqual(["pass", "pass"]);
  });

  it("first match for strict, last for flexible and the lenient marker", () => {
    // strict reads 3 (first), flexible 4 (last match), lenient 4 (last marker)
    expect(verdicts(item("#### 3\n#### 4", 3))).toEqual(["pass", "fail", "fail"]);
    expect(verdicts(item("#### 3\n#### 4", 4))).toEqual(["fail", "pass", "pass"]);
  });

  it("negative numbers keep their sign; a Unicode minus is read by lenient only", () => {
    expect(verdicts(item("#### -12", -12))).toEqual(["pass", "pass", "pass"]);
    // "#### −12": strict has no ASCII "-" or digit after the marker; flexible reads "12" (≠ "-12")
    expect(verdicts(item("#### \u221212", -12))).toEqual(["fail", "fail", "pass"]);
  });

  it("`#### 5.` passes strict (the final period is ignored); `#### 5.00` does not (strings, not numbers)", () => {
    expect(verdicts(item("#### 5.", 5))).toEqual(["pass", "pass", "pass"]);
    const v = scoreGsm8k(item("#### 5.00", 5));
    expect([v.strict.verdict, v.lenient.verdict]).toEqual(["fail", "pass"]);
    expect(v.strict.reason).toBe("wrong: extracted 5.00, expected 5");
  });

  it("a flexible wrong answer says what it compared", () => {
    // the last match is "42...", compared as "42.." after one final period is removed
    expect(scoreGsm8k(item("The answer is 42...", 42)).flexible.reason).toBe(
      'wrong: extracted 42... (compared as "42.."), expected 42'
    );
    // closing display math "$$" is the last match and compares as ""
    const v = scoreGsm8k(item("$$\\boxed{18}$$", 18));
    expect([v.strict.verdict, v.flexible.verdict, v.lenient.verdict]).toEqual(["fail", "fail", "pass"]);
  });

  it("a truncated answer is wrong in every reading even when its number is right, and is not covered", () => {
    const v = scoreGsm8k(item("#### 18 and then it rambles", 18, {truncated: true}));
    expect([v.strict, v.flexible, v.lenient].map((m) => [m.verdict, m.extractable])).toEqual([
      ["fail", false],
      ["fail", false],
      ["fail", false]
    ]);
    expect(v.strict.reason).toMatch(/truncated/);
    expect(v.strict.extracted?.text).toBe("18"); // kept as evidence
    expect(v.lenient.extracted?.value).toBe(18);
  });

  it("no response and an error are wrong with their reason", () => {
    expect(scoreGsm8k(item(null, 1)).strict.reason).toBe("no response");
    const e = scoreGsm8k(item("", 1, {error: "http 500"}));
    expect(e.flexible).toMatchObject({verdict: "fail", reason: "no usable response: http 500"});
  });

  it("a wrong number says what it read", () => {
    const v = scoreGsm8k(item("#### 17", 18));
    expect(v.strict.reason).toBe("wrong: extracted 17, expected 18");
    expect(v.lenient.reason).toBe("wrong: extracted 17, expected 18");
  });
});
