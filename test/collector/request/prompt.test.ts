import {describe, expect, it} from "vitest";

import {fillerWords, planPrompt, saltFor, saltedPrompt} from "../../../collector/request/prompt.ts";

describe("prompts", () => {
  it("filler is seeded: same seed, same words", () => {
    expect(fillerWords(20, 1)).toBe(fillerWords(20, 1));
    expect(fillerWords(20, 1)).not.toBe(fillerWords(20, 2));
    expect(fillerWords(20, 1).split(" ")).toHaveLength(20);
  });

  it("salts are one word, unique per request and bundle, reproducible", () => {
    const a = saltFor("b1", "r1");
    expect(a).toMatch(/^s[0-9a-f]{12}$/);
    expect(saltFor("b1", "r1")).toBe(a);
    expect(new Set([a, saltFor("b1", "r2"), saltFor("b2", "r1")]).size).toBe(3);
    expect(saltedPrompt(a, "x y")).toBe(`${a} x y`);
    expect(saltedPrompt(null, "x y")).toBe("x y");
  });

  it("without a tokenizer: one word per token, the salt counted as one", async () => {
    const p = await planPrompt({promptTokens: 32, salt: true, seed: 1, count: null});
    expect(p.body.split(" ")).toHaveLength(31);
    expect(p.intendedTokens).toBe(32);
    expect(p.calibration.method).toBe("words");
  });

  it("with a tokenizer: adjusts the word count until the token count matches", async () => {
    // a tokenizer that splits every word in 1.5 tokens on average (rounded up) plus 3 for the salt
    const count = async (text: string) => Math.ceil(text.split(" ").length * 1.5) + 3;
    const p = await planPrompt({promptTokens: 100, salt: true, seed: 1, count});
    expect(p.calibration.method).toBe("tokenize");
    expect(Math.abs(p.calibration.measuredTokens! - 100)).toBeLessThanOrEqual(1);
    expect(p.calibration.iterations).toBeLessThanOrEqual(5);
  });

  it("a fixed prompt text is measured, not padded", async () => {
    const p = await planPrompt({
      promptTokens: 100,
      promptText: "what is two plus two",
      salt: false,
      seed: 1,
      count: async (t) => t.split(" ").length
    });
    expect(p).toMatchObject({body: "what is two plus two", intendedTokens: 5});
  });
});
