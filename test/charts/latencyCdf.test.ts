import {describe, expect, it} from "vitest";

import {cdfGuides, cdfPoints, latencyCdf} from "../../src/charts/latencyCdf.ts";
import {normalizeSvg, renderChart} from "../../src/charts/render.ts";
import {expectGolden} from "../support/golden.ts";

const rows = [
  ...[41.2, 44.9, 47.3, 52.8, 61.4, 48.1, 45.5, 43.3].map((value) => ({series: "concurrency-1", value})),
  ...[88.4, 93.1, 101.7, 97.2, 120.6, 90.3, 95.8, 99.9].map((value) => ({series: "concurrency-4", value}))
];

describe("latency CDF chart", () => {
  it("builds a step CDF per series reaching 100 %", () => {
    const pts = cdfPoints(rows);
    const c1 = pts.filter((p) => p.series === "concurrency-1");
    expect(c1.map((p) => p.value)).toEqual([...c1.map((p) => p.value)].sort((a, b) => a - b));
    expect(c1.at(-1)!.share).toBe(1);
    expect(c1[0]!.share).toBe(1 / 8);
  });

  it("draws a dashed reference line only where every series has the percentile's floor (P50 5, P95 20)", () => {
    const series = (name: string, n: number) => Array.from({length: n}, (_, i) => ({series: name, value: 10 + i}));
    expect(cdfGuides([...series("a", 20), ...series("b", 20)])).toEqual([0.5, 0.95]);
    // one series one short of the P95 floor takes the 95 % line away from the whole chart
    expect(cdfGuides([...series("a", 40), ...series("b", 19)])).toEqual([0.5]);
    expect(cdfGuides(series("a", 5))).toEqual([0.5]);
    expect(cdfGuides(series("a", 4))).toEqual([]);
    // values that are not finite are not drawn, so they do not count toward a floor
    expect(cdfGuides([...series("a", 19), {series: "a", value: Number.NaN}])).toEqual([0.5]);
    expect(cdfGuides([])).toEqual([]);
    // Plot draws a ruleY mark as one <g> carrying the dash: count the lines it holds instead
    const lines = (rows: {series: string; value: number}[]) => {
      const svg = renderChart((document) => latencyCdf(rows, {document, xLabel: "x", yLabel: "y"}));
      const group = svg.match(/<g[^>]*stroke-dasharray="3,3"[^>]*>(.*?)<\/g>/s);
      return group === null ? 0 : (group[1]!.match(/<line/g) ?? []).length;
    };
    expect(lines(series("a", 4))).toBe(0);
    expect(lines(series("a", 19))).toBe(1);
    expect(lines(series("a", 20))).toBe(2);
  });

  it("renders the same SVG as the committed snapshot (numbers rounded, ids renumbered)", () => {
    const markup = renderChart((document) =>
      latencyCdf(rows, {document, width: 640, xLabel: "TTFT (ms)", yLabel: "share of requests"})
    );
    expect(markup).toContain('xmlns="http://www.w3.org/2000/svg"');
    expectGolden("charts/latencyCdf.svg", `${normalizeSvg(markup)}\n`);
  });
});
