import {describe, expect, it} from "vitest";

import {needleHeatmap} from "../../src/charts/needleHeatmap.ts";
import {normalizeSvg, renderChart} from "../../src/charts/render.ts";
import {expectGolden} from "../support/golden.ts";

describe("needle heatmap (case_10)", () => {
  it("draws one cell per length × depth, labelled retrieved/n, unscored cells grey", () => {
    const cells = [
      {length: "512", depth: 0, pass: 2, n: 2, rate: 1},
      {length: "512", depth: 0.5, pass: 1, n: 2, rate: 0.5},
      {length: "512", depth: 1, pass: 2, n: 2, rate: 1},
      {length: "4096", depth: 0, pass: 1, n: 2, rate: 0.5},
      {length: "4096", depth: 0.5, pass: 0, n: 2, rate: 0},
      {length: "4096", depth: 1, pass: 0, n: 0, rate: null}
    ];
    const svg = renderChart((document) =>
      needleHeatmap(cells, {document, lengths: ["512", "4096"], xLabel: "needle depth", yLabel: "context tokens"})
    );
    expectGolden("charts/needleHeatmap.svg", `${normalizeSvg(svg)}\n`);
    expect(svg.match(/<rect/g)!.length).toBeGreaterThanOrEqual(6);
    for (const label of ["2/2", "1/2", "0/2", "0/0"]) expect(svg).toContain(`>${label}<`);
    expect(svg).toContain("<title>4096 tokens, depth 50%: 0/2 (0%)</title>");
    expect(svg).toContain('fill="#999"'); // the unscored cell
  });
});
