import {describe, expect, it} from "vitest";

import {asciiNumerals, findNumbers, parseNumber, sameNumber} from "../../src/analysis/quality/numbers.ts";

describe("parseNumber reads one number as written in an answer", () => {
  it.each([
    ["18", 18],
    ["-5", -5],
    ["1,234", 1234],
    ["1,234,567.25", 1234567.25],
    ["$18.00", 18],
    ["18.", 18],
    ["50%", 50],
    [" **42** ", 42],
    ["3/4", 0.75],
    ["\\frac{3}{4}", 0.75],
    ["-\\frac{1}{2}", -0.5],
    [".5", 0.5],
    ["\u22127", -7], // Unicode minus sign
    ["\uff0d3", -3], // fullwidth hyphen-minus
    ["\uff11\uff12", 12], // fullwidth digits
    ["\u0664\u0662", 42], // Arabic-Indic digits
    ["1,000.", 1000]
  ])("%j → %d", (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it.each(["", "twelve", "12 apples", "1/0", "1,2,3", "--4", "4-"])("%j is not one number", (text) => {
    expect(parseNumber(text)).toBeNull();
  });
});

describe("findNumbers scans prose", () => {
  it("keeps thousands separators, decimals and fractions, in order", () => {
    expect(findNumbers("0.5 and .25 and 1,000,000 and 3 / 4").map((m) => m.value)).toEqual([0.5, 0.25, 1e6, 0.75]);
  });

  it("reads a minus only when it is not a subtraction", () => {
    expect(findNumbers("5-3 = 2").map((m) => m.value)).toEqual([5, 3, 2]);
    expect(findNumbers("it fell to -12 degrees").map((m) => m.value)).toEqual([-12]);
  });

  it("does not split a list of comma-separated small numbers into one grouped number", () => {
    expect(findNumbers("1,2,3").map((m) => m.value)).toEqual([1, 2, 3]);
    expect(findNumbers("12,34").map((m) => m.value)).toEqual([12, 34]);
  });

  it("ignores digits glued to words (ids, units written together)", () => {
    expect(findNumbers("model A100 and x2").map((m) => m.value)).toEqual([]);
  });

  it("reads a trailing period as the end of a sentence", () => {
    expect(findNumbers("She makes 18.").map((m) => m.text)).toEqual(["18"]);
  });
});

describe("asciiNumerals and sameNumber", () => {
  it("maps Unicode digits, minus signs and separators to ASCII", () => {
    expect(asciiNumerals("\uff11\uff0c\uff10\uff10\uff10 \u2212 \u0969")).toBe("1,000 - 3");
  });

  it("compares integers exactly and decimals with a relative tolerance", () => {
    expect(sameNumber(18, 18)).toBe(true);
    expect(sameNumber(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameNumber(18, 18.01)).toBe(false);
    expect(sameNumber(-3, 3)).toBe(false);
  });
});
