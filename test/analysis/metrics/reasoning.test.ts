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

  it("a first answer token streamed as empty text (held back) starts the answer's span, with or without thinking", async () => {
    // continuous usage, one token per event. Plain: an empty-text token at 80 ms, content at 100, 110, 120 ms;
    // 4 output tokens, 0 of them reasoning → decode 3 / 40 ms = 75 tok/s, and the answer is all of it: 75 too
    // (over the span from the first content, 3 / 20 ms = 150 would count a token that came before the span)
    const plain = (id: string, at: number) =>
      request(
        id,
        at,
        [
          ev(at + 80, "empty", 1),
          ...[100, 110, 120].map((t) => ev(at + t, "content", 1)),
          ev(at + 121, "finish"),
          ev(at + 121.5, "done")
        ],
        {
          finishReason: "stop",
          usageSource: "server_continuous",
          usage: {promptTokens: 100, completionTokens: 4, reasoningTokens: 0, cachedTokens: null}
        }
      );
    const r = await analyzeValid(cleanRun(Array.from({length: 5}, (_, i) => plain(`p${i}`, i * 200))));
    expect(summaryOf(r, "ttft_ms").p50).toBe(80);
    expect(summaryOf(r, "ttft_content_ms").p50).toBe(100);
    expect(summaryOf(r, "decode_tok_s").p50).toBeCloseTo(75, 9);
    expect(summaryOf(r, "answer_decode_tok_s").p50).toBeCloseTo(75, 9);
    // thinking at 10…25 ms (4 tokens), then a held-back token at 40 ms and content at 50, 70, 90 ms: the answer's
    // 4 tokens run 40 → 90 ms: 3 / 50 ms = 60 tok/s
    const thinking = (id: string, at: number) =>
      request(
        id,
        at,
        [
          ...[10, 15, 20, 25].map((t) => ev(at + t, "reasoning", 1)),
          ev(at + 40, "empty", 1),
          ...[50, 70, 90].map((t) => ev(at + t, "content", 1)),
          ev(at + 91, "finish"),
          ev(at + 91.5, "done")
        ],
        {
          finishReason: "stop",
          usageSource: "server_continuous",
          usage: {promptTokens: 100, completionTokens: 8, reasoningTokens: 4, cachedTokens: null}
        }
      );
    const t = await analyzeValid(cleanRun(Array.from({length: 5}, (_, i) => thinking(`t${i}`, i * 200))));
    expect(summaryOf(t, "answer_tokens").p50).toBe(4);
    expect(summaryOf(t, "answer_decode_tok_s").p50).toBeCloseTo(60, 9);
    expect(summaryOf(t, "ttft_content_ms").p50).toBe(50);
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
