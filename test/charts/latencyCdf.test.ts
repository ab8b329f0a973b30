import {describe, expect, it} from "vitest";

import {cdfPoints, latencyCdf} from "../../src/charts/latencyCdf.ts";
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

  it("renders the same SVG as the committed snapshot (numbers rounded, ids renumbered)", () => {
    const markup = renderChart((document) =>
      latencyCdf(rows, {document, width: 640, xLabel: "TTFT (ms)", yLabel: "share of requests"})
    );
    expect(markup).toContain('xmlns="http://www.w3.org/2000/svg"');
    expectGolden("charts/latencyCdf.svg", `${normalizeSvg(markup)}\n`);
  });
});
