import {describe, expect, it} from "vitest";

import {analyzeValid, point, request, runOf, summaryOf, tokenEvents} from "../../support/bundle.ts";

/**
 * Stability of per-request metrics across repeats (metric-definitions.md §C.8): each repeat's median,
 * then median, mean, sample std (ddof 1), CV = std/mean across the repeats. n < 3 "few samples";
 * 3 ≤ n < 5 a provisional CV without class; n ≥ 5 median and class (CV ≤ 8 % high, ≤ 18 % medium, else low).
 */

/**
 * A closed-loop point with `repeats` repeats; repeat k holds one request per TTFT in `ttfts[k]` (ms), one
 * second apart, each with two tokens 10 ms apart. Repeats are told apart by the request field `repeat`.
 */
const bundle = (ttfts: number[][]) =>
  analyzeValid({
    points: [point("concurrency", 1, {repeats: ttfts.length})],
    requests: ttfts.flatMap((row, k) =>
      row.map((t, j) => {
        const t0 = (k * 100 + j) * 1000;
        return request(`k${k}-r${j}`, t0, tokenEvents(2, t0 + t, 10), {repeat: k, index: j});
      })
    )
  });

/** Five TTFTs whose median is m. */
const around = (m: number) => [m - 10, m - 5, m, m + 5, m + 10];

describe("the CV of TTFT across repeats", () => {
  it("3 repeats with medians 100, 110, 120: CV = 10/110, provisional, no class", async () => {
    // mean (100 + 110 + 120)/3 = 110; std (ddof 1) = √((10² + 0 + 10²)/2) = 10; CV = 10/110 = 0.090909…
    const s = summaryOf(await bundle([around(100), around(110), around(120)]), "ttft_ms");
    expect(s.stability).toMatchObject({n: 3, min: 100, max: 120, class: null, median: null});
    expect(s.stability!.mean).toBeCloseTo(110, 9);
    expect(s.stability!.std).toBeCloseTo(10, 9);
    expect(s.stability!.cv).toBeCloseTo(10 / 110, 9);
    expect(s.stability!.note).toMatch(/CV provisional/);
    // the pooled distribution holds all 15 values: sorted 90 95 100 100 105 105 110 [110] 110 115 115 120 120 125 130
    expect(s).toMatchObject({n: 15, p50: 110});
  });

  it.each([
    // medians → mean 100 in each; Σ(x − 100)² / 4 → std; CV = std/100
    ["high", [100, 102, 98, 101, 99], Math.sqrt(10 / 4) / 100], // 0.0158 ≤ 0.08
    ["medium", [100, 120, 80, 110, 90], Math.sqrt(1000 / 4) / 100], // 0.158 ≤ 0.18
    ["low", [100, 140, 60, 120, 80], Math.sqrt(4000 / 4) / 100] // 0.316 > 0.18
  ] as const)("5 repeats: class %s", async (cls, medians, cv) => {
    const s = summaryOf(await bundle(medians.map(around)), "ttft_ms");
    expect(s.stability).toMatchObject({n: 5, median: 100, class: cls, note: null});
    expect(s.stability!.mean).toBeCloseTo(100, 9);
    expect(s.stability!.cv).toBeCloseTo(cv, 9);
  });

  it("2 repeats are 'few samples': no CV, no class", async () => {
    // medians 100 and 130: mean 115, std √((15² + 15²)/1) = 21.2132
    const s = summaryOf(await bundle([around(100), around(130)]), "ttft_ms");
    expect(s.stability).toMatchObject({n: 2, cv: null, class: null, median: null, note: "few samples (n=2 < 3)"});
    expect(s.stability!.mean).toBeCloseTo(115, 9);
    expect(s.stability!.std).toBeCloseTo(Math.sqrt(450), 9);
  });

  it("a repeat with fewer than 5 values has no median and is left out, with the count said", async () => {
    // repeat 2 holds 4 requests: only 2 medians (100, 110) remain → few samples
    const s = summaryOf(await bundle([around(100), around(110), around(120).slice(0, 4)]), "ttft_ms");
    expect(s.stability).toMatchObject({n: 2, class: null});
    expect(s.stability!.note).toBe("few samples (n=2 < 3); 1 of 3 repeats have fewer than 5 values (no median)");
  });

  it("the same rule holds for other request metrics: E2E = TTFT + 10 ms here", async () => {
    // E2E medians 110, 120, 130: mean 120, std 10 → CV 10/120
    const s = summaryOf(await bundle([around(100), around(110), around(120)]), "e2e_ms");
    expect(s.stability!.cv).toBeCloseTo(10 / 120, 9);
  });

  it("run metrics get the same summary over each repeat's own value (request_throughput_rps)", async () => {
    // repeat k starts at k · 100 s; its last request starts 4 s later, its second token at TTFT + 10 ms, closed
    // 1 ms after → window_k = 4000 + (m_k + 10) + 11 ms = 4.121, 4.131, 4.141 s; 5 successes each
    const rps = [5 / 4.121, 5 / 4.131, 5 / 4.141];
    const mean = (rps[0]! + rps[1]! + rps[2]!) / 3;
    const std = Math.sqrt(rps.reduce((a, x) => a + (x - mean) ** 2, 0) / 2);
    const st = runOf(await bundle([around(100), around(110), around(120)]), "request_throughput_rps").stability!;
    expect(st).toMatchObject({n: 3, class: null});
    expect(st.mean).toBeCloseTo(mean, 9);
    expect(st.cv).toBeCloseTo(std / mean, 9);
  });
});

describe("repeats are read from the records, not only from the declared point", () => {
  it("a point declared with 1 repeat whose records carry repeats 0–2 still gets each repeat's median", async () => {
    const r = await analyzeValid({
      points: [point("concurrency", 1, {repeats: 1})],
      requests: [around(100), around(110), around(120)].flatMap((row, k) =>
        row.map((t, j) => {
          const t0 = (k * 100 + j) * 1000;
          return request(`k${k}-r${j}`, t0, tokenEvents(2, t0 + t, 10), {repeat: k, index: j});
        })
      )
    });
    // medians 100, 110, 120 as in the 3-repeat case above; no "fewer than 5 values" claim
    const s = summaryOf(r, "ttft_ms");
    expect(s.stability!.cv).toBeCloseTo(10 / 110, 9);
    expect(s.stability!.note).not.toMatch(/fewer than 5 values/);
  });
});
