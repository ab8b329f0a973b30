import {describe, expect, it} from "vitest";

import {paretoChart} from "../../src/charts/paretoChart.ts";
import {percentilesVsLoad} from "../../src/charts/percentilesVsLoad.ts";
import {normalizeSvg, renderChart} from "../../src/charts/render.ts";
import {requestTimeline, sampleRows} from "../../src/charts/requestTimeline.ts";
import {telemetryChart} from "../../src/charts/telemetry.ts";
import {goodputShareVsLoad, throughputVsLoad} from "../../src/charts/throughputVsLoad.ts";
import {tokensPerEventHistogram} from "../../src/charts/tokensPerEvent.ts";
import {expectGolden} from "../support/golden.ts";

const snapshot = (name: string, build: (document: Document) => Element) => {
  const markup = renderChart(build);
  expect(markup).toContain('xmlns="http://www.w3.org/2000/svg"');
  expectGolden(`charts/${name}.svg`, `${normalizeSvg(markup)}\n`);
  return markup;
};

describe("percentiles vs load", () => {
  const rows = [1, 2, 4].flatMap((load) => [
    {load, key: "p50", value: 40 + load * 10.123456},
    {load, key: "p95", value: 55 + load * 12.5}
  ]);

  it("draws one line per percentile with a tooltip per point", () => {
    const svg = snapshot("percentilesVsLoad", (document) =>
      percentilesVsLoad(rows, {document, xLabel: "concurrency", yLabel: "TTFT (ms)"})
    );
    expect(svg.match(/<title>/g)).toHaveLength(6);
    expect(svg).toContain("<title>p95 @ 4: 105.0</title>");
  });
});

describe("throughput and goodput vs load (issue 18: one quantity per scale)", () => {
  const rows = [
    {load: 1, series: "throughput", value: 1.6},
    {load: 1, series: "goodput", value: 1.6},
    {load: 8, series: "throughput", value: 6.2},
    {load: 8, series: "goodput", value: 3.1}
  ];

  it("draws both rates in req/s, goodput dashed with hollow marks so an equal goodput hides nothing", () => {
    const svg = snapshot("throughputVsLoad", (document) =>
      throughputVsLoad(rows, {document, xLabel: "concurrency", yLabel: "req/s", slo: "SLO: TTFT ≤ 2000 ms"})
    );
    expect(svg).toContain("SLO: TTFT ≤ 2000 ms");
    expect(svg).toContain('stroke-dasharray="5,4"');
    expect(svg.match(/<title>/g)).toHaveLength(4);
    expect(svg).toContain("<title>goodput @ 1: 1.60</title>");
    expect(svg).not.toMatch(/<text[^>]*>[^<]*%/); // no percentage on the req/s chart
  });

  it("draws the share meeting the SLO on its own 0–100 % axis", () => {
    const svg = snapshot("goodputShareVsLoad", (document) =>
      goodputShareVsLoad(
        [
          {load: 1, pct: 100},
          {load: 8, pct: 50}
        ],
        {document, xLabel: "concurrency", yLabel: "% meeting the SLO", slo: "SLO: TTFT ≤ 2000 ms"}
      )
    );
    expect(svg).toContain(">50.00 %<");
    expect(svg).toContain("% meeting the SLO");
    // the axis runs to 100 whatever the data: ticks 0 … 100
    expect(svg).toContain(">100<");
    expect(svg).toContain(">0<");
  });
});

describe("request timeline", () => {
  const rows = Array.from({length: 12}, (_, i) => ({
    id: `r${i}`,
    point: "concurrency-2",
    sched: i * 100,
    disp: i * 100 + 1,
    tok1: i * 100 + 40,
    end: i % 5 === 4 ? null : i * 100 + 180
  }));

  it("splits each request into waiting, prefill and decode and keeps unfinished requests", () => {
    const svg = snapshot("requestTimeline", (document) =>
      requestTimeline(rows, {
        document,
        xLabel: "run time (s)",
        yLabel: "requests",
        phases: {wait: "waiting", prefill: "prefill", decode: "decode"}
      })
    );
    expect(svg).toContain("<title>r0 (concurrency-2) · waiting 1.00 ms · prefill 39.00 ms · decode 140.0 ms</title>");
    expect(svg).not.toContain("<title>r4 ");
  });

  it("samples evenly, keeping the first row", () => {
    const xs = Array.from({length: 1000}, (_, i) => i);
    const s = sampleRows(xs, 300);
    expect(s).toHaveLength(300);
    expect(s[0]).toBe(0);
    expect(s.at(-1)).toBeGreaterThan(990);
    expect(sampleRows([1, 2], 300)).toEqual([1, 2]);
  });
});

describe("tokens per SSE event histogram", () => {
  it("draws a bar at 1 when every event carries one token (a degenerate range)", () => {
    const svg = snapshot("tokensPerEvent", (document) =>
      tokensPerEventHistogram([1, 1, 1, 1, 2.5, 3, 3], {document, xLabel: "tokens/event", yLabel: "requests"})
    );
    expect(svg).toContain("<title>4</title>");
    expect(svg).toContain("<title>2</title>");
  });
});

describe("telemetry", () => {
  it("draws one line per GPU for per-GPU series", () => {
    const rows = [0, 0.5, 1, 1.5].flatMap((tS, i) => [
      {tS, value: 60 + i, gpu: 0},
      {tS, value: 70 + i, gpu: 1}
    ]);
    const svg = snapshot("telemetry", (document) =>
      telemetryChart(rows, {document, xLabel: "run time (s)", yLabel: "GPU utilisation (%)"})
    );
    expect(svg).toContain("GPU 1 @ 1.50 s: 73.0");
  });
});

describe("Pareto chart", () => {
  it("fills frontier points and outlines dominated ones", () => {
    const dots = [
      {group: "H100 · vllm", label: "a · c1", x: 110, y: 100, onFrontier: true},
      {group: "H100 · vllm", label: "a · c8", x: 50, y: 360, onFrontier: true},
      {group: "H100 · vllm", label: "b · c8", x: 45, y: 300, onFrontier: false}
    ];
    const frontiers = [{group: "H100 · vllm", points: [dots[1]!, dots[0]!]}];
    const svg = snapshot("pareto", (document) =>
      paretoChart(dots, frontiers, {document, xLabel: "tok/s/user", yLabel: "tok/s/GPU"})
    );
    expect(svg).toContain('fill="none"');
    expect(svg).toContain("b · c8");
  });
});

describe("text from bundles inside charts", () => {
  it("is serialised as text: no element can be injected through a label or a tooltip", () => {
    const evil = `<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">`;
    const markup = renderChart((document) =>
      paretoChart(
        [{group: `gpu${evil}`, label: `bundle${evil}`, x: 1, y: 2, onFrontier: true}],
        [{group: `gpu${evil}`, points: [{x: 1, y: 2}]}],
        {document, xLabel: `x${evil}`, yLabel: "y"}
      )
    );
    expect(markup).not.toContain("<script>");
    expect(markup).not.toContain("<img");
    expect(markup).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
  });
});
