import {describe, expect, it} from "vitest";

import {countProblem, requestTimeError, statProblem, TokenCount} from "../../../src/analysis/peers/shared/numeric.ts";

const MAX = 9_007_199_254_740_991; // 2^53 − 1
const at = (path: string, what: string, value: number, ns: number) => ({path, what, value, ns});

describe("requestTimeError: the one rule for every time an importer puts in a record (B3)", () => {
  it("ns from 0 to 2^53 − 1 pass; one past 2^53 − 1, Infinity or a negative ns is refused with the value", () => {
    expect(requestTimeError("f", "s", "the request's start", [at("$.a", "a time", 9007199.254740991, MAX)])).toBe(null);
    expect(requestTimeError("f", "s", "the request's start", [at("$.a", "a time", 1e7, 1e16)])).toEqual({
      file: "f",
      path: "$.a",
      expected:
        "a time that a record holds exactly: at most 2^53 − 1 ns (about 104 days) after the request's start, got 10000000 s"
    });
    expect(requestTimeError("f", "s", "t0", [at("$.a", "a time", 1e308, Infinity)])?.expected).toMatch(
      /, got 1e\+308 s$/
    );
    expect(requestTimeError("f", "ns", "the earliest start", [at("$.a", "a start", 5, -1)])?.expected).toBe(
      "a start no earlier than the earliest start, got 5 ns"
    );
  });

  it("times come in the order listed; equal times are in order; an absent one is skipped", () => {
    const times = [at("$.s", "a start", 1, 1e9), null, at("$.f", "a first token", 1, 1e9), at("$.e", "an end", 3, 3e9)];
    expect(requestTimeError("f", "s", "t0", times)).toBe(null);
    expect(
      requestTimeError("f", "s", "t0", [at("$.s", "a start", 5, 5e9), at("$.f", "a first token", 4, 4e9)])
    ).toEqual({file: "f", path: "$.f", expected: "a first token no earlier than a start ($.s = 5 s), got 4 s"});
  });
});

describe("token counts and reported statistics", () => {
  it("a token count is a whole number from 0 to 2^53 − 1", () => {
    expect(TokenCount.safeParse(0).success).toBe(true);
    expect(TokenCount.safeParse(MAX).success).toBe(true);
    for (const bad of [-1, 1.5, 1e30]) expect(TokenCount.safeParse(bad).success, String(bad)).toBe(false);
    expect(TokenCount.safeParse(1e30).error?.issues[0]?.message).toBe(
      "expected a token count (a whole number from 0 to 2^53 − 1), got 1e+30"
    );
  });

  it("a statistic is a number ≥ 0 or null; a count also whole", () => {
    expect([statProblem(0), statProblem(82.8), statProblem(null), statProblem(undefined)]).toEqual([
      null,
      null,
      null,
      null
    ]);
    expect(statProblem(-82.8)).toBe("a non-negative number, got -82.8");
    expect(statProblem("99.6")).toBe('a number, got the string "99.6"');
    expect(statProblem(true)).toBe("a number, got true");
    expect(countProblem(26)).toBe(null);
    expect(countProblem("26")).toBe('a number, got the string "26"');
    expect(countProblem(2.5)).toBe("a whole number, got 2.5");
  });
});
