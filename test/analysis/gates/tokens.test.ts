import {describe, expect, it} from "vitest";

import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {
  analyzeSpec,
  cleanRun,
  failedRequest,
  ev,
  gateOf,
  metricOf,
  MS,
  request,
  streamed,
  type BundleSpec,
  type StreamedOptions
} from "../../support/bundle.ts";

/** 20 back-to-back requests; each can be changed by index. */
const run = (each: (i: number) => StreamedOptions = () => ({}), over: Partial<BundleSpec> = {}) =>
  cleanRun(
    Array.from({length: 20}, (_, i) => streamed(`r${i}`, i * 100, {index: i, ...each(i)})),
    over
  );

/** 20 one-token content events 4 ms apart (the last at 81 ms after dispatch). */
const twenty = {tokens: 20, gapMs: 4};

const usage = (promptTokens: number, completionTokens: number, cachedTokens: number | null) => ({
  usage: {promptTokens, completionTokens, reasoningTokens: null, cachedTokens}
});

const IMPORTED: Partial<Manifest> = {
  provenance: {
    kind: "imported",
    tool: "vllm",
    toolVersion: null,
    files: [{name: "bench.json", sha256: "a".repeat(64), bytes: 10}]
  }
};

const value = (v: unknown) => (v as {value: number | null}).value;

describe("G8 token accounting", () => {
  it("passes when every server count matches the stream's events", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G8").status).toBe("pass");
    expect(gateOf(r, "G8").reason).toBe("server usage for all 20 (server_final 20), consistent with the stream");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("names counts a client tokenizer made as counted, not the server's (an AIPerf import run with --tokenizer)", async () => {
    // the same undercount as below, every count from a client tokenizer: 19 × 20 + 18 = 398 against 400 events
    const r = await analyzeSpec(
      run((i) => ({...twenty, out: i === 3 ? 18 : 20, usageSource: "client_tokenizer" as const}))
    );
    expect(gateOf(r, "G8").reason).toBe(
      "1 requests report fewer tokens than their non-empty events (beyond 5 %); counted Σ 398 vs stream Σ 400 (e.g. r3: counted 18 vs stream 20)"
    );
    expect(r.load_points[0]!.metrics.decode_tok_s).toMatchObject({
      note: expect.stringContaining("(counted Σ 398 vs stream Σ 400; G8): values computed from those counts")
    });
  });

  it("warns on an undercount: usage 18 for 20 non-empty events (18 < 20 × 0.95 = 19), making the run INCONCLUSIVE", async () => {
    // r3 only; Σ server 19 × 20 + 18 = 398, Σ stream 20 × 20 = 400
    const r = await analyzeSpec(run((i) => ({...twenty, out: i === 3 ? 18 : 20})));
    const g = gateOf(r, "G8");
    expect(g.status).toBe("warn");
    expect(g.reason).toBe(
      "1 requests report fewer tokens than their non-empty events (beyond 5 %); server Σ 398 vs stream Σ 400 (e.g. r3: server 18 vs stream 20)"
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("accepts usage 19 for 20 non-empty events (19 is not below 20 × 0.95)", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, out: 19})));
    expect(gateOf(r, "G8").status).toBe("pass");
  });

  it("warns on an overcount: usage 22 for 20 events without per-event counts (Σ 440 > 400 × 1.05 = 420)", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, out: 22})));
    const g = gateOf(r, "G8");
    expect(g.status).toBe("warn");
    // per request 22 − 20 = 2 is not beyond max(5 % × 22, 2) = 2: none of them is flagged alone
    expect(g.reason).toMatch(
      /^without per-event counts the server reports 440 tokens for 400 streamed events \(beyond 5 %; 0 requests beyond it and 2 tokens\)/
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("accepts usage 21 for 20 events (Σ 420 is not beyond 420)", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, out: 21})));
    expect(gateOf(r, "G8").status).toBe("pass");
  });

  it("warns when continuous usage contradicts the final count: Σ deltas 20 vs usage 22 (2 > 5 % × 22)", async () => {
    // r5 only; the other 19 report 20 = Σ deltas
    const r = await analyzeSpec(
      run((i) => ({...twenty, delta: 1, out: i === 5 ? 22 : 20, usageSource: "server_continuous"}))
    );
    expect(gateOf(r, "G8").status).toBe("warn");
    expect(gateOf(r, "G8").reason).toMatch(
      /^1 requests report a count that their per-event token counts contradict \(beyond 5 %\); server Σ 402 vs stream Σ 400 \(e\.g\. r5: server 22 vs stream 20\)$/
    );
  });

  it("does not take a jump of the running count on a usage-only event as streamed tokens", async () => {
    // r5: 20 one-token content events (deltas 1), then a usage-only event (no text) whose running count jumps by
    // 8: the server says 28, the stream carried 20 → 8 > 5 % × 28; the other 19 say 20 = Σ deltas
    const rs = run((i) => ({...twenty, delta: 1, out: i === 5 ? 28 : 20, usageSource: "server_continuous"}));
    const r5 = rs.requests[5]!;
    const done = r5.events.at(-1)!;
    rs.requests[5] = {...r5, events: [...r5.events.slice(0, -1), ev(582.2, "usage", 8), done]};
    const r = await analyzeSpec(rs);
    expect(gateOf(r, "G8").status).toBe("warn");
    expect(gateOf(r, "G8").reason).toBe(
      "1 requests report a count that their per-event token counts contradict (beyond 5 %); server Σ 408 vs stream Σ 400 (e.g. r5: server 28 vs stream 20)"
    );
  });

  it("takes one trailing token on a natural stop's usage chunk as the end-of-sequence token, but not a larger jump", async () => {
    // r5 stops naturally; its 20 content tokens (deltas 1) are followed by a usage-only chunk whose running count
    // grows by `jump`. 1: the end-of-sequence token, server 21 = stream 21 (pass). 3: a trailing jump is not
    // streamed, server 23 vs stream 20 → 3 > 5 % × 23 = 1.15 (warn)
    const withJump = (jump: number) => {
      const rs = run((i) => ({
        ...twenty,
        delta: 1,
        usageSource: "server_continuous",
        ...(i === 5 ? {out: 20 + jump, finishReason: "stop"} : {})
      }));
      const r5 = rs.requests[5]!;
      rs.requests[5] = {...r5, events: [...r5.events.slice(0, -1), ev(582.2, "usage", jump), r5.events.at(-1)!]};
      return analyzeSpec(rs);
    };
    expect(gateOf(await withJump(1), "G8").status).toBe("pass");
    const three = gateOf(await withJump(3), "G8");
    expect(three.status).toBe("warn");
    expect(three.reason).toMatch(/\(e\.g\. r5: server 23 vs stream 20\)$/);
  });

  it("discloses a first token that came as empty text before the first visible text (TTFT counts it)", async () => {
    // r3 (dispatched at 300 ms): an empty-text event carrying one counted token at 308 ms, then its 20 content
    // tokens from 315 ms, 4 ms apart; the server counts 21 = Σ deltas (1 + 20)
    const rs = run((i) => ({
      ...twenty,
      delta: 1,
      usageSource: "server_continuous",
      ...(i === 3 ? {ttftMs: 15, out: 21} : {})
    }));
    const r3 = rs.requests[3]!;
    rs.requests[3] = {...r3, tByte1Ns: 308 * MS, events: [ev(308, "empty", 1), ...r3.events]};
    const r = await analyzeSpec(rs);
    const g = gateOf(r, "G8");
    expect(g.status).toBe("info");
    expect(g.reason).toBe(
      "server usage for all 20 (server_continuous 20); 1 requests' first token came as empty text before their first visible text (held back, counted by the server): TTFT counts it, ttft_content_ms runs to the text"
    );
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("accepts continuous usage within the tolerance: Σ deltas 20 vs usage 21 (1 ≤ 5 % × 21)", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, delta: 1, out: 21, usageSource: "server_continuous"})));
    expect(gateOf(r, "G8").status).toBe("pass");
  });

  it("warns when a successful request has no output token count, making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(run((i) => (i === 5 ? {out: null} : {})));
    expect(gateOf(r, "G8").status).toBe("warn");
    expect(gateOf(r, "G8").reason).toBe(
      "1/20 successful requests have no output token count (server_final 19, none 1); token metrics withheld"
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("discloses counts from a client tokenizer as info", async () => {
    const r = await analyzeSpec(run((i) => (i === 2 ? {usageSource: "client_tokenizer"} : {})));
    expect(gateOf(r, "G8").status).toBe("info");
    expect(gateOf(r, "G8").reason).toBe("counted by a client tokenizer for 1/20 (server_final 19, client_tokenizer 1)");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("discloses tokens streamed as empty text only (held-back UTF-8), counted by usage", async () => {
    const requests = run().requests;
    requests[3] = request(
      "r3",
      300,
      [ev(305, "empty"), ev(310, "empty"), ev(315, "empty"), ev(316, "finish"), ev(317, "done")],
      {
        out: 3,
        endMs: 400,
        index: 3
      }
    );
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G8").status).toBe("info");
    expect(gateOf(r, "G8").reason).toBe(
      "server usage for all 20 (server_final 20); 1 requests streamed their tokens as empty text only (counted by the server's usage)"
    );
  });

  it("discloses a request with more tokens than events when the point's totals agree", async () => {
    // r7: usage 23 for 20 events, 3 > max(5 % × 23, 2); Σ 19 × 20 + 23 = 403 ≤ 400 × 1.05
    const r = await analyzeSpec(run((i) => ({...twenty, out: i === 7 ? 23 : 20})));
    expect(gateOf(r, "G8").status).toBe("info");
    expect(gateOf(r, "G8").reason).toBe(
      "server usage for all 20 (server_final 20); 1 requests carry more tokens than streamed events (beyond 5 % and 2 tokens) while the point's totals agree (server Σ 403 vs stream Σ 400)"
    );
  });

  it("counts the end-of-sequence token on a natural stop's finish chunk and says so", async () => {
    // 10 text events, finish_reason stop, usage 11: the 11th token is the EOS on the finish chunk
    const r = await analyzeSpec(run(() => ({out: 11, finishReason: "stop"})));
    expect(gateOf(r, "G8").status).toBe("pass");
    expect(gateOf(r, "G8").reason).toBe(
      "server usage for all 20 (server_final 20), consistent with the stream; 20 natural stops carried the end-of-sequence token on the finish chunk"
    );
  });

  it("is not evaluable without successful requests", async () => {
    const requests = run().requests.map((x) => ({...x, httpStatus: 503}));
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G8").status).toBe("not_evaluable");
    expect(gateOf(r, "G8").reason).toBe("no successful requests");
  });
});

describe("G10 multi-token chunks", () => {
  it("passes one token per event", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G10").status).toBe("pass");
    expect(gateOf(r, "G10").reason).toBe("1.00 tokens per event");
  });

  it("passes 1.05 tokens per event (21 tokens in 20 events)", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, out: 21})));
    expect(gateOf(r, "G10").status).toBe("pass");
    expect(gateOf(r, "G10").reason).toBe("1.05 tokens per event");
  });

  it("reports 1.10 tokens per event (22 in 20) as info: per-token ITL unavailable without deltas", async () => {
    const r = await analyzeSpec(run(() => ({...twenty, out: 22})));
    expect(gateOf(r, "G10").status).toBe("info");
    expect(gateOf(r, "G10").reason).toBe(
      "1.10 tokens per event (0 multi-token events): inter_chunk_ms is per chunk; per-token ITL unavailable (no per-event token counts)"
    );
  });

  it("reports server deltas of 2 tokens per event as info without changing the verdict", async () => {
    // 10 events × 2 tokens = 20 = usage: G8 passes; 20 requests × 10 multi-token events = 200
    const r = await analyzeSpec(run(() => ({delta: 2, out: 20, usageSource: "server_continuous"})));
    expect(gateOf(r, "G10").status).toBe("info");
    expect(gateOf(r, "G10").reason).toBe(
      "2.00 tokens per event (200 multi-token events): inter_chunk_ms is per chunk; per-token ITL reported from server deltas"
    );
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("is not evaluable when an output token count is missing", async () => {
    const r = await analyzeSpec(run((i) => (i === 2 ? {out: null} : {})));
    expect(gateOf(r, "G10").status).toBe("not_evaluable");
    expect(gateOf(r, "G10").reason).toBe("token counts unknown");
  });

  it("is not evaluable for imports that record only the first and last token", async () => {
    const requests = run().requests.map((x) => ({
      ...x,
      events: [x.events[0]!, x.events[9]!],
      eventCoverage: "first_last" as const
    }));
    const r = await analyzeSpec(cleanRun(requests, {manifest: IMPORTED}));
    expect(gateOf(r, "G10").status).toBe("not_evaluable");
    expect(gateOf(r, "G10").reason).toBe("imported: the source records only the first and last token times");
  });
});

describe("G11 output length control", () => {
  const ignoreEos = {config: {workload: {ignore_eos: true}}};

  it("does not apply when ignore_eos was not requested", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G11").status).toBe("not_applicable");
    expect(gateOf(r, "G11").reason).toBe("ignore_eos not requested");
  });

  it("is not evaluable when no request recorded its max_tokens", async () => {
    const r = await analyzeSpec(run(() => ({}), ignoreEos));
    expect(gateOf(r, "G11").status).toBe("not_evaluable");
    expect(gateOf(r, "G11").reason).toBe("no request with both max_tokens and an output count");
  });

  it("passes outputs of 18 and 22 tokens for max_tokens 20 (within ±10 % = ±2)", async () => {
    const r = await analyzeSpec(run((i) => ({tokens: i % 2 ? 18 : 22, gapMs: 4, maxTokens: 20}), ignoreEos));
    expect(gateOf(r, "G11").status).toBe("pass");
    expect(gateOf(r, "G11").reason).toBe("20 outputs within tolerance of 20");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns on an output of 17 tokens for max_tokens 20 (3 > 2), making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(run((i) => ({tokens: i === 4 ? 17 : 20, gapMs: 4, maxTokens: 20}), ignoreEos));
    expect(gateOf(r, "G11").status).toBe("warn");
    expect(gateOf(r, "G11").reason).toBe("1/20 outputs outside ±10 % of 20 (e.g. 17)");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns on an output of 23 tokens for max_tokens 20", async () => {
    const r = await analyzeSpec(run((i) => ({tokens: i === 4 ? 23 : 20, gapMs: 3, maxTokens: 20}), ignoreEos));
    expect(gateOf(r, "G11").status).toBe("warn");
    expect(gateOf(r, "G11").reason).toBe("1/20 outputs outside ±10 % of 20 (e.g. 23)");
  });
});

describe("G12 prompt length", () => {
  it("is not evaluable when the intended prompt length is unknown", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G12").status).toBe("not_evaluable");
    expect(gateOf(r, "G12").reason).toBe("intended or reported prompt length unknown");
  });

  it("passes reported prompts of 75 and 125 tokens for an intended 100 (±25 %)", async () => {
    const r = await analyzeSpec(run((i) => ({promptTokensIntended: 100, in: i % 2 ? 75 : 125})));
    expect(gateOf(r, "G12").status).toBe("pass");
    expect(gateOf(r, "G12").reason).toBe("mean 100.0 reported vs 100.0 intended");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns on one prompt reported at 74 of an intended 100 (silent truncation), making the run INCONCLUSIVE", async () => {
    // mean (19 × 100 + 74) / 20 = 98.7
    const r = await analyzeSpec(run((i) => ({promptTokensIntended: 100, in: i === 3 ? 74 : 100})));
    expect(gateOf(r, "G12").status).toBe("warn");
    expect(gateOf(r, "G12").reason).toBe("1/20 prompts outside tolerance (mean 98.7 reported vs 100.0 intended)");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("allows a chat template's 32 tokens above the tolerance: 157 of an intended 100 passes, 158 warns", async () => {
    // 100 · 1.25 + 32 = 157
    const at = await analyzeSpec(run((i) => ({promptTokensIntended: 100, in: i === 3 ? 157 : 100})));
    expect(gateOf(at, "G12").status).toBe("pass");
    // mean (19 × 100 + 158) / 20 = 102.9
    const r = await analyzeSpec(run((i) => ({promptTokensIntended: 100, in: i === 3 ? 158 : 100})));
    expect(gateOf(r, "G12").status).toBe("warn");
    expect(gateOf(r, "G12").reason).toBe("1/20 prompts outside tolerance (mean 102.9 reported vs 100.0 intended)");
  });

  it("a short prompt's template is most of it: 20 intended, 55 reported passes (20 · 1.25 + 32 = 57)", async () => {
    const r = await analyzeSpec(run(() => ({promptTokensIntended: 20, in: 55})));
    expect(gateOf(r, "G12").status).toBe("pass");
  });
});

describe("G13 prefix-cache contamination", () => {
  const unsalted = {config: {workload: {ignore_eos: false, salt: false}}};

  it("passes salted prompts when the server reports no cached-token counts", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G13").status).toBe("pass");
    expect(gateOf(r, "G13").reason).toBe("salted prompts; the server reports no cached-token counts");
  });

  it("passes salted prompts whose server reports 0 cached tokens", async () => {
    const r = await analyzeSpec(run(() => usage(100, 10, 0)));
    expect(gateOf(r, "G13").status).toBe("pass");
    expect(gateOf(r, "G13").reason).toBe("salted prompts; no cached prompt tokens beyond a template prefix reported");
  });

  it("passes 32 cached tokens of a 100-token prompt: a template prefix (≤ max(32, 10))", async () => {
    const r = await analyzeSpec(run(() => usage(100, 10, 32)));
    expect(gateOf(r, "G13").status).toBe("pass");
    expect(gateOf(r, "G13").reason).toBe(
      "salted prompts; no cached prompt tokens beyond a template prefix reported; 20/20 requests reused only a template-sized prefix (≤ max(32, 10 % of the prompt) tokens)"
    );
  });

  it("warns on 33 cached tokens of a 100-token prompt (> 32), making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(run((i) => usage(100, 10, i === 6 ? 33 : 0)));
    expect(gateOf(r, "G13").status).toBe("warn");
    expect(gateOf(r, "G13").reason).toBe("1/20 requests reused 33 cached prompt tokens (5.0 %)");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("passes 100 cached tokens of a 1000-token prompt and warns on 101 (10 % of the prompt)", async () => {
    const at = await analyzeSpec(run(() => usage(1000, 10, 100)));
    expect(gateOf(at, "G13").status).toBe("pass");
    const above = await analyzeSpec(run((i) => usage(1000, 10, i === 0 ? 101 : 100)));
    expect(gateOf(above, "G13").status).toBe("warn");
    expect(gateOf(above, "G13").reason).toBe("1/20 requests reused 101 cached prompt tokens (5.0 %)");
  });

  it("warns when salting was asked for but a measured request carries no salt", async () => {
    const r = await analyzeSpec(run((i) => (i === 9 ? {salt: null} : {})));
    expect(gateOf(r, "G13").status).toBe("warn");
    expect(gateOf(r, "G13").reason).toBe("1 measured requests were not salted");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("is not evaluable, never a pass, with workload.salt false and no cached-token counts", async () => {
    const r = await analyzeSpec(run(() => ({salt: null}), unsalted));
    const g = gateOf(r, "G13");
    expect(g.status).toBe("not_evaluable");
    expect(g.reason).toBe(
      "prompts are not salted and the server reported cached-token counts for 0/20 requests: whether a prefix cache served them is unknown"
    );
    // G13 is not a required gate: the missing evidence is stated, the verdict stays VALID (verdictOf)
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("is not evaluable with workload.salt false when 1 of 20 requests lacks a cached-token count", async () => {
    const r = await analyzeSpec(run((i) => ({salt: null, ...usage(100, 10, i === 0 ? null : 0)}), unsalted));
    expect(gateOf(r, "G13").status).toBe("not_evaluable");
    expect(gateOf(r, "G13").reason).toMatch(/cached-token counts for 19\/20 requests/);
  });

  it("passes unsalted prompts when the server reported 0 cached tokens for every request", async () => {
    const r = await analyzeSpec(run(() => ({salt: null, ...usage(100, 10, 0)}), unsalted));
    expect(gateOf(r, "G13").status).toBe("pass");
    expect(gateOf(r, "G13").reason).toBe(
      "prompts not salted, but the server reported no cached prompt tokens beyond a template prefix for all 20"
    );
  });

  it("warns on unsalted prompts that hit the prefix cache", async () => {
    const r = await analyzeSpec(run(() => ({salt: null, ...usage(100, 10, 60)}), unsalted));
    expect(gateOf(r, "G13").status).toBe("warn");
    expect(gateOf(r, "G13").reason).toBe("20/20 requests reused 1200 cached prompt tokens (100.0 %)");
  });

  it("is not evaluable for an import that records neither salting nor cached tokens", async () => {
    const r = await analyzeSpec(run(() => ({salt: null}), {manifest: IMPORTED}));
    expect(gateOf(r, "G13").status).toBe("not_evaluable");
    expect(gateOf(r, "G13").reason).toBe("imported: the source records neither prompt salting nor cached tokens");
  });
});

describe("G19 requests without ITL, and the goodput short-output clause", () => {
  it("passes when every successful request produced at least 2 tokens", async () => {
    const r = await analyzeSpec(run());
    expect(gateOf(r, "G19").status).toBe("pass");
    expect(gateOf(r, "G19").reason).toBe("every successful request produced ≥ 2 tokens");
    expect(value(metricOf(r, "goodput_pct"))).toBe(100);
  });

  it("no evidence is not a pass: every request failed, or no success has an output count → not evaluable", async () => {
    const failed = await analyzeSpec(
      cleanRun(Array.from({length: 20}, (_, i) => failedRequest(`f${i}`, i * 100, {index: i})))
    );
    expect(gateOf(failed, "G19")).toMatchObject({
      status: "not_evaluable",
      reason: "no successful request to count tokens of"
    });
    const unknown = await analyzeSpec(run(() => ({out: null})));
    expect(gateOf(unknown, "G19")).toMatchObject({
      status: "not_evaluable",
      reason: "output token count unknown for all 20 successful requests"
    });
  });

  it("a pass over part of the successes says how many it covers", async () => {
    // r3 and r11 without a count, the other 18 with 10 tokens each
    const r = await analyzeSpec(run((i) => (i === 3 || i === 11 ? {out: null} : {})));
    expect(gateOf(r, "G19")).toMatchObject({
      status: "pass",
      reason: "every one of 18 successful requests with a known output count produced ≥ 2 tokens (2 unknown)"
    });
  });

  it("by default a 1-token output fails the ITL clause: goodput 19 of 20 = 95 %, disclosed as info", async () => {
    const r = await analyzeSpec(run((i) => (i === 8 ? {tokens: 1} : {})));
    expect(gateOf(r, "G19").status).toBe("info");
    expect(gateOf(r, "G19").reason).toBe("1 successful requests had < 2 tokens (not good)");
    expect(value(metricOf(r, "goodput_pct"))).toBeCloseTo(95, 9);
    // a disclosure gate: the verdict does not change
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("with slo.short_output not_applicable a 1-token output is judged without the ITL clause: goodput 100 %", async () => {
    const r = await analyzeSpec(
      run((i) => (i === 8 ? {tokens: 1} : {}), {config: {slo: {short_output: "not_applicable"}}})
    );
    expect(gateOf(r, "G19").status).toBe("info");
    expect(gateOf(r, "G19").reason).toBe("1 successful requests had < 2 tokens (ITL clause not applied)");
    expect(value(metricOf(r, "goodput_pct"))).toBe(100);
  });
});
