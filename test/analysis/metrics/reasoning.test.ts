import {describe, expect, it} from "vitest";

import {analyzeValid, cleanRun, ev, gateOf, request, summaryOf} from "../../support/bundle.ts";

/**
 * A reasoning request by hand: sent at 0; reasoning deltas at 10, 15, 20, 25 ms, answer deltas at 50, 70,
 * 90 ms, finish 91, [DONE] 91.5; usage 7 output tokens of which 4 reasoning.
 */
function thinker(id: string, at: number, o: {reasoning?: number | null; answer?: boolean; finish?: string} = {}) {
  const events = [
    ...[10, 15, 20, 25].map((t) => ev(at + t, "reasoning")),
    ...(o.answer === false ? [] : [50, 70, 90].map((t) => ev(at + t, "content"))),
    ev(at + 91, "finish"),
    ev(at + 91.5, "done")
  ];
  const out = o.answer === false ? 4 : 7;
  return request(id, at, events, {
    out,
    finishReason: o.finish ?? "stop",
    usage: {
      promptTokens: 100,
      completionTokens: out,
      reasoningTokens: o.reasoning === undefined ? 4 : o.reasoning,
      cachedTokens: null
    }
  });
}

describe("reasoning-model metrics", () => {
  it("time to the first reasoning and answer token, the token split, and decode with and without thinking", async () => {
    const r = await analyzeValid(cleanRun(Array.from({length: 5}, (_, i) => thinker(`r${i}`, i * 200))));
    expect(summaryOf(r, "ttft_reasoning_ms").p50).toBe(10);
    expect(summaryOf(r, "ttft_content_ms").p50).toBe(50);
    expect(summaryOf(r, "ttft_ms").p50).toBe(10);
    expect(summaryOf(r, "reasoning_tokens").p50).toBe(4);
    expect(summaryOf(r, "answer_tokens").p50).toBe(3);
    // all 7 tokens: 6 after the first over 10 → 90 ms = 75 tok/s; the answer: 2 after its first over 50 → 90 ms = 50 tok/s
    expect(summaryOf(r, "decode_tok_s").p50).toBeCloseTo(75, 9);
    expect(summaryOf(r, "answer_decode_tok_s").p50).toBeCloseTo(50, 9);
    expect(gateOf(r, "G31").status).toBe("pass");
    expect(gateOf(r, "G31").reason).toBe("every one of 5 reasoning requests reached its answer");
  });

  it("an unknown reasoning count stays unknown (no answer split), and a count of chunks is not taken for it", async () => {
    const r = await analyzeValid(cleanRun([thinker("r0", 0, {reasoning: null})]));
    expect(summaryOf(r, "reasoning_tokens").n).toBe(0);
    expect(summaryOf(r, "answer_tokens").n).toBe(0);
    expect(summaryOf(r, "answer_decode_tok_s").n).toBe(0);
    expect(summaryOf(r, "ttft_reasoning_ms").n).toBe(1);
  });

  it("G31 warns when max_tokens ran out while the model was still thinking", async () => {
    const reqs = [
      thinker("ok", 0),
      thinker("cut", 200, {answer: false, finish: "length"}),
      thinker("done-early", 400, {answer: false})
    ];
    const r = await analyzeValid(cleanRun(reqs));
    const g = gateOf(r, "G31");
    expect(g.status).toBe("warn");
    // only the request that stopped at max_tokens counts: "done-early" stopped by itself
    expect(g.reason).toBe("1/3 reasoning requests stopped at max_tokens before their first answer token (e.g. cut)");
  });

  it("G31 is not applicable without a reasoning channel", async () => {
    const r = await analyzeValid(
      cleanRun([request("a", 0, [ev(5, "content"), ev(6, "content"), ev(7, "finish"), ev(7.5, "done")])])
    );
    expect(gateOf(r, "G31").status).toBe("not_applicable");
  });
});
