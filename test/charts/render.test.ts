import * as Plot from "@observablehq/plot";
import {parseHTML} from "linkedom";
import {describe, expect, it} from "vitest";

import {captionId, nameChart, renderChart} from "../../src/charts/render.ts";

/** Two series with a colour legend: Plot wraps the plot in a figure beside a swatch SVG per series. */
const withLegend = (document: Document) =>
  Plot.plot({
    document,
    color: {legend: true},
    marks: [
      Plot.lineY(
        [
          {x: 1, y: 2, s: "a"},
          {x: 2, y: 3, s: "a"},
          {x: 1, y: 1, s: "b"},
          {x: 2, y: 4, s: "b"}
        ],
        {x: "x", y: "y", stroke: "s"}
      )
    ]
  });
const bare = (document: Document) => Plot.plot({document, marks: [Plot.dot([{x: 1, y: 1}], {x: "x", y: "y"})]});

const svgs = (markup: string) => {
  const {document} = parseHTML(`<!doctype html><html><body>${markup}</body></html>`);
  return [...document.querySelectorAll("svg")];
};

describe("charts as images to a screen reader", () => {
  it("gives the plot role=img and hides every legend swatch as decoration", () => {
    const all = svgs(renderChart(withLegend));
    const plots = all.filter((s) => s.getAttribute("role") === "img");
    const hidden = all.filter((s) => s.getAttribute("aria-hidden") === "true");
    expect(plots).toHaveLength(1);
    expect(hidden).toHaveLength(2); // one swatch per series, a and b
    expect(plots[0]!.getAttribute("aria-hidden")).toBeNull();
    // the plot is the one holding the marks, not a swatch
    expect(plots[0]!.querySelectorAll("path").length).toBeGreaterThan(0);
  });

  it("names the plot by a label, or by a caption's id", () => {
    const [labelled] = svgs(renderChart(bare, {label: "TTFT per request"}));
    expect(labelled!.getAttribute("aria-label")).toBe("TTFT per request");
    const named = svgs(nameChart(renderChart(withLegend), {labelledBy: "cap-1"})).find(
      (s) => s.getAttribute("role") === "img"
    )!;
    expect(named.getAttribute("aria-labelledby")).toBe("cap-1");
    expect(named.getAttribute("aria-label")).toBeNull();
  });

  it("keeps the markup otherwise as rendered (case-sensitive SVG attributes included)", () => {
    const markup = renderChart(bare);
    expect(markup).toContain("viewBox=");
    const renamed = nameChart(markup, {labelledBy: "c"});
    expect(renamed).toContain("viewBox=");
    expect(renamed.replace(' aria-labelledby="c"', "")).toBe(markup);
  });

  it("derives a caption id that repeats for the same chart and differs for another", () => {
    expect(captionId("TTFT", "<svg/>")).toBe(captionId("TTFT", "<svg/>"));
    expect(captionId("TTFT", "<svg/>")).not.toBe(captionId("TTFT", "<svg></svg>"));
    expect(captionId("TTFT", "<svg/>")).not.toBe(captionId("ITL", "<svg/>"));
    expect(captionId("a", "b")).toMatch(/^chart-caption-[0-9a-z]+$/);
  });
});
