import {describe, expect, it} from "vitest";

import {BLOCK_SENTENCES, documentPrompt, fillerSentences} from "../../collector/cases/filler.ts";
import {case10} from "../../collector/cases/needle.ts";
import {Conversation} from "../../collector/workload/conversation.ts";
import {SuiteOptionsSpec} from "../../src/analysis/schema/index.ts";

/**
 * The long-context cases build their documents with the workload machinery's segments (issue 16): the
 * text is unchanged, and its pieces make prompt segments, so documents that share a start share segments.
 */
describe("document prompts of the long-context cases", () => {
  it("are the header, blocks of 4 sentences and the tail, which concatenate to the text sent", () => {
    const s = ["A b.", "C d.", "E f.", "G h.", "I j.", "K l."];
    const {text, pieces} = documentPrompt("Read.\n\n", s, "\n\nQ?");
    expect(text).toBe(`Read.\n\n${s.join(" ")}\n\nQ?`);
    expect(pieces).toEqual(["Read.\n\n", "A b. C d. E f. G h. ", "I j. K l.", "\n\nQ?"]);
    expect(BLOCK_SENTENCES).toBe(4);
    expect(documentPrompt("H", [], "T")).toEqual({text: "HT", pieces: ["H", "T"]});
  });

  it("needle items of one length share the blocks before the earlier needle, and only those", async () => {
    const o = SuiteOptionsSpec.parse({needle: {lengths: [600], depths: [0.5, 1], seed: 3}});
    const [half, end] = await case10(o, null);
    const a = half!.turns[0]!.pieces!;
    const b = end!.turns[0]!.pieces!;
    expect(a.join("")).toBe(half!.turns[0]!.user);
    // 600 tokens ≈ 50 sentences (12 per sentence, estimated): the needle at depth 0.5 goes after sentence 25
    const sentences = fillerSentences(50, 3 + 600);
    const at = Math.round(0.5 * sentences.length);
    const shared = 1 + Math.floor(at / BLOCK_SENTENCES); // the header and the whole blocks before the needle
    expect(a.slice(0, shared)).toEqual(b.slice(0, shared));
    expect(a[shared]).not.toBe(b[shared]);
  });

  it("a message given in pieces makes one segment per piece, its tokens shared out by length", () => {
    const whole = new Conversation(null).add("user", "aaaa bbbb", 10).segments(true);
    const cut = new Conversation(null).add("user", "aaaa bbbb", 10, ["aaaa ", "bbbb"]).segments(true);
    expect(whole.segments.map((x) => x[1])).toEqual([10]);
    // 5 and 4 characters of 9: round(10 · 5/9) = 6, then 10 − 6 = 4
    expect(cut.segments.map((x) => x[1])).toEqual([6, 4]);
    expect(cut.tokens).toBe(10);
    // pieces that do not make the message are ignored (one segment, as before)
    expect(new Conversation(null).add("user", "abc", 3, ["ab", "x"]).segments(true).segments).toHaveLength(1);
  });
});
