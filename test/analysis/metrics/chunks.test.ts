import {describe, expect, it} from "vitest";

import type {SseEvent} from "../../../src/analysis/index.ts";
import {analyzeValid, ev, request, runOf, shifted, summaryOf, tokenEvents} from "../../support/bundle.ts";

/**
 * Chunk and per-token gap metrics (src/analysis/metrics/chunks.ts, tokens_per_chunk in throughput.ts)
 * against values worked out by hand. Times in the comments are ms from the request's schedule.
 */

/**
 * A stream with server per-event deltas (usageSource server_continuous), 7 tokens in 4 token events:
 * content 100 (+1), 110 (+1), 130 (+2: a multi-token chunk), a usage-only event 135 (+2: a usage jump),
 * content 175 (+1), finish 185 (+0, length stop), final usage 186 (+0), [DONE] 187.
 */
const continuous: SseEvent[] = [
  ev(50, "role", 0),
  ev(100, "content", 1),
  ev(110, "content", 1),
  ev(130, "content", 2),
  ev(135, "usage", 2),
  ev(175, "content", 1),
  ev(185, "finish", 0),
  ev(186, "usage", 0),
  ev(187, "done")
];
const withDeltas = (id: string, schedMs: number) =>
  request(id, schedMs, shifted(continuous, schedMs), {out: 7, usageSource: "server_continuous"});

describe("inter_chunk_ms: one sample per gap between token-bearing events, pooled (chunk-weighted)", () => {
  it("role, usage and finish events are not chunks; gaps pool across requests", async () => {
    // r0: role 50, content 100, 110, 130, usage 145, content 160, finish 170 → gaps 10, 20, 30
    // r1 (scheduled 1000): content 1100, 1140 → gap 40
    // pooled: 10, 20, 30, 40 → n = 4, mean 25
    const events0 = [
      ev(50, "role"),
      ev(100, "content"),
      ev(110, "content"),
      ev(130, "content"),
      ev(145, "usage"),
      ev(160, "content"),
      ev(170, "finish"),
      ev(171, "done")
    ];
    const r = await analyzeValid({
      requests: [request("r0", 0, events0, {out: 4}), request("r1", 1000, tokenEvents(2, 1100, 40), {index: 1, out: 2})]
    });
    const s = summaryOf(r, "inter_chunk_ms");
    expect(s).toMatchObject({n: 4, min: 10, max: 40});
    expect(s.mean).toBeCloseTo(25, 6);
  });

  it("a multi-token chunk is still one sample", async () => {
    // the continuous stream: token events 100, 110, 130, 175 → gaps 10, 20, 45 (3 samples, whatever the deltas)
    const s = summaryOf(await analyzeValid({requests: [withDeltas("a", 0)]}), "inter_chunk_ms");
    expect(s).toMatchObject({n: 3, min: 10, max: 45});
    expect(s.mean).toBeCloseTo(25, 6);
  });
});

describe("itl_token_ms: Δt/Δn repeated Δn times, from per-event deltas (token-weighted)", () => {
  it("a multi-token chunk and a usage-only jump: 6 samples = out − tokens of the first event", async () => {
    // event 110: Δt 10, Δn 1            → 10
    // event 130: Δt 20, Δn 2            → 10, 10
    // event 175: Δt 45, Δn 2 (the usage jump at 135) + 1 = 3 → 15, 15, 15
    // samples 10 10 10 15 15 15: n = 7 − 1 = 6, mean 75/6 = 12.5, which is this request's TPOT (175 − 100)/(7 − 1)
    const r = await analyzeValid({requests: [withDeltas("a", 0)]});
    const s = summaryOf(r, "itl_token_ms");
    expect(s).toMatchObject({n: 6, min: 10, max: 15, p50: 12.5});
    expect(s.mean).toBeCloseTo(12.5, 6);
    expect(summaryOf(r, "tpot_ms").mean).toBeCloseTo(12.5, 9);
  });

  it("is null without per-event deltas, while inter_chunk_ms is still reported", async () => {
    // usage only at the end (server_final): content 100, 105, 125 → chunk gaps 5, 20; no token gaps
    const r = await analyzeValid({
      requests: [request("a", 0, [ev(100, "content"), ev(105, "content"), ev(125, "content")])]
    });
    expect(summaryOf(r, "itl_token_ms")).toMatchObject({n: 0, mean: null, p50: null});
    expect(summaryOf(r, "inter_chunk_ms")).toMatchObject({n: 2, min: 5, max: 20});
  });
});

describe("tokens per event and per chunk", () => {
  // a: the continuous stream, 7 tokens in 4 token events → 7/4 = 1.75 tokens per event
  // b (scheduled 1000): 3 one-token content events 1100, 1110, 1120, usage 3 → 1 token per event
  const bundle = () =>
    analyzeValid({
      requests: [withDeltas("a", 0), request("b", 1000, tokenEvents(3, 1100, 10), {index: 1, out: 3})]
    });

  it("tokens_per_event = out / token events, per request", async () => {
    const s = summaryOf(await bundle(), "tokens_per_event");
    expect(s).toMatchObject({n: 2, min: 1, max: 1.75});
    expect(s.mean).toBeCloseTo((1.75 + 1) / 2, 9);
  });

  it("tokens_per_chunk = Σ out / Σ token events over the point (not the mean of the ratios)", async () => {
    // (7 + 3)/(4 + 3) = 10/7 = 1.428571…, not (1.75 + 1)/2 = 1.375
    expect(runOf(await bundle(), "tokens_per_chunk").value).toBeCloseTo(10 / 7, 9);
  });

  it("tokens_per_chunk is null when an output count is missing", async () => {
    const r = await analyzeValid({
      requests: [withDeltas("a", 0), request("b", 1000, tokenEvents(3, 1100, 10), {index: 1, out: null})]
    });
    expect(runOf(r, "tokens_per_chunk")).toMatchObject({value: null, reason: "output token counts missing"});
  });
});
