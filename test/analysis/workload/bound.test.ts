import {describe, expect, it} from "vitest";

import {cacheBound, servable, type CacheEntry} from "../../../src/analysis/workload/bound.ts";

const e = (sentNs: number | null, readyNs: number | null, segments: [string, number][]): CacheEntry => ({
  sentNs,
  readyNs,
  segments,
  tokens: segments.reduce((n, s) => n + s[1], 0)
});

describe("prefix-cache bound", () => {
  it("serves the leading segments an earlier request had prefilled before this one was sent", () => {
    const a = e(0, 10, [
      ["a", 100],
      ["b", 20]
    ]);
    const b = e(20, 30, [
      ["a", 100],
      ["c", 30]
    ]);
    // b shares segment a (100 tokens) with a, whose first token came at 10 < 20
    expect(cacheBound([a, b], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([0, 100]);
    // whole blocks of 16: ⌊100 / 16⌋ · 16 = 96
    expect(cacheBound([a, b], {blockTokens: 16, capacityTokens: null}).unbounded).toEqual([0, 96]);
  });

  it("gives no hit to requests sent before the shared prefix was computed, or after a failed prefill", () => {
    const a = e(0, 10, [
      ["a", 100],
      ["b", 20]
    ]);
    const together = e(5, 12, [
      ["a", 100],
      ["c", 30]
    ]);
    expect(cacheBound([a, together], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([0, 0]);
    const failed = e(0, null, [["a", 100]]);
    const later = e(50, 60, [
      ["a", 100],
      ["c", 5]
    ]);
    expect(cacheBound([failed, later], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([0, 0]);
    // the earliest prefill counts: `later` (first token at 60) serves a request sent at 70
    const third = e(70, 80, [
      ["a", 100],
      ["d", 5]
    ]);
    expect(cacheBound([failed, later, third], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([
      0, 0, 100
    ]);
  });

  it("stops at the first segment that differs, and never serves the last prompt token", () => {
    const a = e(0, 10, [
      ["a", 50],
      ["b", 50]
    ]);
    const diverged = e(20, 30, [
      ["x", 50],
      ["b", 50]
    ]); // same second hash text, different chain: no hit
    const same = e(40, 50, [
      ["a", 50],
      ["b", 50]
    ]);
    const r = cacheBound([a, diverged, same], {blockTokens: null, capacityTokens: null}).unbounded;
    expect(r).toEqual([0, 0, 99]);
    expect(servable(100, 100, 16)).toBe(96);
    expect(servable(100, 100, null)).toBe(99);
    expect(servable(10, 100, 16)).toBe(0);
  });

  it("an LRU cache evicts the least recently used segments beyond its capacity", () => {
    // capacity 150: once a (x 100 + y 20) and d (z 100) are prefilled, 220 > 150 evicts a's x (the least
    // recently used), leaving 120 ≤ 150; b needs x first: no hit
    const a = e(0, 10, [
      ["x", 100],
      ["y", 20]
    ]);
    const d = e(15, 20, [["z", 100]]);
    const b = e(30, 40, [
      ["x", 100],
      ["c", 30]
    ]);
    const r = cacheBound([a, d, b], {blockTokens: null, capacityTokens: 150});
    expect(r.unbounded).toEqual([0, 0, 100]);
    expect(r.withRoom).toEqual([0, 0, 0]);
    // with room for both, b hits
    expect(cacheBound([a, d, b], {blockTokens: null, capacityTokens: 300}).withRoom).toEqual([0, 0, 100]);
    // a lookup touches: a inserts x, y at 10; e2, sent at 12, hits x (100) and touches it (order y, x); e2's
    // prefill at 14 adds w (121 held); d at 20 adds z (221): evict y (201), then x (101) → b misses
    const e2 = e(12, 14, [
      ["x", 100],
      ["w", 1]
    ]);
    const r2 = cacheBound([a, e2, d, b], {blockTokens: null, capacityTokens: 150});
    expect(r2.withRoom).toEqual([0, 100, 0, 0]);
    expect(r.withRoom).not.toBeNull();
    expect(cacheBound([a], {blockTokens: null, capacityTokens: null}).withRoom).toBeNull();
  });
});

describe("prefix-cache bound: order, ties and touches", () => {
  it("takes a segment's earliest prefill whatever the order of the entries, and a send at that very moment misses", () => {
    const late = e(0, 50, [["x", 100]]);
    const early = e(1, 10, [["x", 100]]);
    const probe = e(20, 30, [
      ["x", 100],
      ["q", 5]
    ]);
    expect(cacheBound([late, early, probe], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([0, 0, 100]);
    const atTheMoment = e(10, 30, [
      ["x", 100],
      ["q", 5]
    ]);
    expect(cacheBound([early, atTheMoment], {blockTokens: null, capacityTokens: null}).unbounded).toEqual([0, 0]);
    // the LRU replays events in time order, not in the order the entries are given
    expect(cacheBound([probe, early], {blockTokens: null, capacityTokens: 1000}).withRoom).toEqual([100, 0]);
    // a tie between a prefill and a send: the lookup goes first (no hit)
    expect(cacheBound([atTheMoment, early], {blockTokens: null, capacityTokens: 1000}).withRoom).toEqual([0, 0]);
  });

  it("block size 1 is token granularity; an unsent entry gets nothing", () => {
    expect(servable(100, 100, 1)).toBe(99);
    const a = e(0, 10, [["x", 100]]);
    const unsent = e(null, null, [
      ["x", 100],
      ["y", 1]
    ]);
    expect(cacheBound([a, unsent], {blockTokens: 1, capacityTokens: 1000})).toEqual({
      unbounded: [0, 0],
      withRoom: [0, 0]
    });
  });

  it("a hit touches what it used: a failed request's lookup keeps its prefix in an LRU cache", () => {
    // x (100) at 10, y (50) at 20; e hits x at 25 and fails (never prefills); z (60) at 30 makes 210 > 170:
    // the least recently used is y (x was touched at 25) → 160 ≤ 170, x stays for q
    const a = e(0, 10, [["x", 100]]);
    const f = e(15, 20, [["y", 50]]);
    const failed = e(25, null, [
      ["x", 100],
      ["w", 5]
    ]);
    const g = e(28, 30, [["z", 60]]);
    const q = e(40, 50, [
      ["x", 100],
      ["v", 5]
    ]);
    expect(cacheBound([a, f, failed, g, q], {blockTokens: null, capacityTokens: 170}).withRoom).toEqual([
      0, 0, 100, 0, 100
    ]);
  });

  it("an answer is cached from its request's end, in both bounds", () => {
    // turn 1 (50 tokens) answered with 5 tokens, ending at 40; turn 2 sends both plus 10 new tokens at 60
    const t1: CacheEntry = {...e(0, 10, [["u1", 50]]), answer: {hash: "a1", tokens: 5, readyNs: 40}};
    const t2 = e(60, 70, [
      ["u1", 50],
      ["a1", 5],
      ["u2", 10]
    ]);
    const r = cacheBound([t1, t2], {blockTokens: null, capacityTokens: 1000});
    expect(r.unbounded).toEqual([0, 55]);
    expect(r.withRoom).toEqual([0, 55]);
    // sent before the answer ended: only the question is cached
    const early = e(30, 70, [
      ["u1", 50],
      ["a1", 5],
      ["u2", 10]
    ]);
    expect(cacheBound([t1, early], {blockTokens: null, capacityTokens: 1000})).toEqual({
      unbounded: [0, 50],
      withRoom: [0, 50]
    });
    // an answer that never came (failed request: readyNs null) is never cached
    const failedAnswer: CacheEntry = {...t1, answer: {hash: "a1", tokens: 5, readyNs: null}};
    expect(cacheBound([failedAnswer, t2], {blockTokens: null, capacityTokens: 1000})).toEqual({
      unbounded: [0, 50],
      withRoom: [0, 50]
    });
  });
});
