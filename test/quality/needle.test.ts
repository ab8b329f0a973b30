import {describe, expect, it} from "vitest";

import {containsPhrase, normalizeForMatch, scoreRetrieval} from "../../src/analysis/quality/needle.ts";

describe("needle matching", () => {
  it("ignores case, width and the separators between words", () => {
    expect(containsPhrase("The passphrase is Crimson-Otter-4821.", "crimson-otter-4821")).toBe(true);
    expect(containsPhrase("crimson otter 4821", "crimson-otter-4821")).toBe(true);
    expect(containsPhrase("ＣＲＩＭＳＯＮ－ＯＴＴＥＲ－４８２１", "crimson-otter-4821")).toBe(true);
  });

  it("needs the whole phrase as whole words", () => {
    expect(containsPhrase("crimson-otter-48210", "crimson-otter-4821")).toBe(false);
    expect(containsPhrase("crimson otter", "crimson-otter-4821")).toBe(false);
    expect(containsPhrase("anything", "---")).toBe(false);
  });

  it("normalises to lowercase words", () => {
    expect(normalizeForMatch("  Héllo,  WORLD!! 42 ")).toBe("héllo world 42");
  });
});

describe("scoreRetrieval", () => {
  const base = {needle: "amber-heron-1234", truncated: false, error: null};
  it("passes when the passphrase is in a complete response", () => {
    expect(scoreRetrieval({...base, response: "amber-heron-1234"})).toEqual({
      verdict: "pass",
      reason: null,
      found: true
    });
  });
  it("fails with a reason otherwise, and says whether it was found", () => {
    expect(scoreRetrieval({...base, response: "I don't know"})).toEqual({
      verdict: "fail",
      reason: "passphrase not in the response",
      found: false
    });
    expect(scoreRetrieval({...base, response: "amber-heron-1234 and more", truncated: true})).toMatchObject({
      verdict: "fail",
      found: true
    });
    expect(scoreRetrieval({...base, response: null}).reason).toBe("no response");
    expect(scoreRetrieval({...base, response: "", error: "http 503"}).reason).toBe("no usable response: http 503");
  });
});
