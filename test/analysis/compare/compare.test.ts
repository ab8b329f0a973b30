import {rmSync} from "node:fs";

import {afterAll, beforeAll, beforeEach, describe, expect, it} from "vitest";

import {analyzeBundle, compareRuns, comparability, isSummary, type Report} from "../../../src/analysis/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {tempDir} from "../../site/harness.ts";
import {demoSpecs, writeSiteBundle} from "../../site/synthSite.ts";

let root: string;
let p1: Report;
let p2: Report;
let big: Report;

let dirs: string[];

beforeAll(async () => {
  root = tempDir("inferscope-compare-");
  const [a, b, , d] = demoSpecs();
  dirs = await Promise.all([a, b, d].map((spec) => writeSiteBundle(root, {...spec!, telemetry: false})));
});
// analysed before each test, not in beforeAll: Stryker counts code run outside a test as static coverage, and
// a static mutant runs every test of the mutation suite
beforeEach(async () => {
  const [a, b, d] = dirs.map((dir) => analyzeBundle(fsBundle(dir), {keepRows: true}));
  [p1, p2, big] = await Promise.all([a!, b!, d!]);
});
afterAll(() => rmSync(root, {recursive: true, force: true}));

const clone = (r: Report, patch: (r: Report) => void): Report => {
  const c = structuredClone(r);
  patch(c);
  return c;
};

describe("comparability", () => {
  it("holds for the same model, workload and measure version with healthy clients", () => {
    const c = comparability([p1, p2]);
    expect(c.comparable).toBe(true);
    expect(c.reasons).toEqual([]);
    expect(c.checks.map((k) => [k.id, k.ok])).toEqual([
      ["measure_version", true],
      ["model", true],
      ["workload", true],
      ["client_health", true],
      ["verdict", true]
    ]);
  });

  it("refuses different models and names both", () => {
    const c = comparability([p1, big]);
    expect(c.comparable).toBe(false);
    expect(c.reasons.map((r) => r.en)).toEqual(["model differs: demo-8b vs demo-70b"]);
  });

  it("reports every failing rule, not only the first", () => {
    const other = clone(p2, (r) => {
      r.measure_version = "99"; // any other version than the current one
      r.meta.workloadKey = "chat in=4096 out=64";
      r.gates = r.gates.map((g) => (g.id === "G6" ? {...g, status: "fail"} : g));
      r.verdict = "INVALID";
    });
    const c = comparability([p1, other]);
    expect(c.checks.filter((k) => !k.ok).map((k) => k.id)).toEqual([
      "measure_version",
      "workload",
      "client_health",
      "verdict"
    ]);
    expect(c.reasons.find((r) => r.en.startsWith("client health"))?.en).toContain("(fail)");
  });

  it("treats an unevaluated client health and an unknown measure version as not comparable", () => {
    const other = clone(p2, (r) => {
      r.measure_version = null;
      r.gates = r.gates.map((g) => (g.id === "G6" ? {...g, status: "not_evaluable"} : g));
    });
    const c = comparability([p1, other]);
    expect(c.comparable).toBe(false);
    expect(c.reasons.map((r) => r.en).join("\n")).toMatch(/measure version unknown.*\n.*not_evaluable/s);
  });
});

describe("compareRuns", () => {
  it("refuses numbers when the runs are not comparable", () => {
    const c = compareRuns([p1, big]);
    expect(c.comparability.comparable).toBe(false);
    expect(c.pairs).toEqual([]);
    expect(c.distribution).toEqual([]);
    expect(c.run).toEqual([]);
  });

  it("gives median differences equal to the analyzer's medians, with a seeded interval around them", () => {
    const c = compareRuns([p1, p2]);
    expect(c.pairs).toHaveLength(4);
    const d = c.distribution.find((x) => x.metric === "ttft_ms" && x.baseline.point === "concurrency-4")!;
    const s1 = p1.load_points.find((p) => p.id === "concurrency-4")!.metrics.ttft_ms!;
    const s2 = p2.load_points.find((p) => p.id === "concurrency-4")!.metrics.ttft_ms!;
    if (!isSummary(s1) || !isSummary(s2)) throw new Error("ttft_ms is a distribution");
    expect(d.medianBaseline).toBe(s1.p50);
    expect(d.medianOther).toBe(s2.p50);
    expect(d.diff).toBeCloseTo(s2.p50! - s1.p50!, 9);
    expect(d.ci!.lo).toBeLessThanOrEqual(d.diff!);
    expect(d.ci!.hi).toBeGreaterThanOrEqual(d.diff!);
    expect(d.ci!.hi).toBeLessThan(0);
    expect(d.reading).toBe("better");
    expect(compareRuns([p1, p2]).distribution).toEqual(c.distribution);
    expect(c.method).toMatchObject({prng: "mulberry32", resamples: 2000, level: 0.95});
  });

  it("reads no clear difference when a run is compared with a copy of itself", () => {
    const twin = clone(p1, (r) => {
      r.bundle = `${r.bundle}-twin`;
    });
    const c = compareRuns([p1, twin]);
    expect(c.distribution.every((d) => d.reading === "no_clear_difference")).toBe(true);
    expect(c.distribution.every((d) => d.ci!.lo <= 0 && d.ci!.hi >= 0)).toBe(true);
  });

  it("gives run-level metrics a difference but no interval", () => {
    const c = compareRuns([p1, p2]);
    const t = c.run.find((x) => x.metric === "output_throughput_tok_s" && x.baseline.point === "concurrency-1")!;
    expect(t.relPct).toBeCloseTo(25, 0);
    expect(t).not.toHaveProperty("ci");
  });

  it("does not evaluate a median difference below five samples", () => {
    const few = clone(p2, (r) => {
      let kept = 0;
      r.rows = r.rows!.filter((x) => x.point !== "concurrency-1" || kept++ < 3);
    });
    const d = compareRuns([p1, few]).distribution.find((x) => x.baseline.point === "concurrency-1")!;
    expect(d.reading).toBe("not_evaluated");
    expect(d.reason).toBe("a median needs n ≥ 5 on both sides (n=40 vs n=3)");
    expect(d.medianOther).toBeNull();
  });

  it("compares the load points of one bundle against its lowest load (a sweep)", () => {
    const c = compareRuns([p1]);
    expect(c.kind).toBe("sweep");
    expect(c.pairs.map((p) => `${p.baseline.point}→${p.other.point}`)).toEqual([
      "concurrency-1→concurrency-2",
      "concurrency-1→concurrency-4",
      "concurrency-1→concurrency-8"
    ]);
    expect(c.distribution.find((d) => d.metric === "ttft_ms")!.reading).toBe("worse");
  });

  it("lists load points that not every bundle has", () => {
    const fewer = clone(p2, (r) => {
      r.load_points = r.load_points.filter((p) => p.id !== "concurrency-8");
    });
    const c = compareRuns([p1, fewer]);
    expect(c.unmatched).toEqual([{bundle: p1.bundle, point: "concurrency-8"}]);
    expect(c.pairs).toHaveLength(3);
  });
});
