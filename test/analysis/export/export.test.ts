import {beforeEach, describe, expect, it} from "vitest";

import {
  llmdReports,
  metricsCsv,
  readAndAnalyze,
  requestsCsv,
  toCsv,
  type Manifest
} from "../../../src/analysis/index.ts";
import type {Report} from "../../../src/analysis/report/types.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {parseCsv as rows} from "../../support/csv.ts";

/** A shipped llama.cpp bundle: concurrency 1, 2, 4 and Poisson 1 req/s, 40 measured requests each, VALID. */
const BUNDLE = "evidence/20261202-vm-random-small-llamacpp-small-p4-45c4f1";

/*
 * Each describe analyses the bundle anew before each test, not once in its body or in beforeAll: Stryker's
 * per-test coverage counts code run outside a test as static, and a static mutant runs every test of the
 * mutation suite (these describe bodies made 97 % of src/analysis/metrics's mutants static).
 */
let report: Report;
let manifest: Manifest | null;
const analyzeEach = (keepRows = false) =>
  beforeEach(async () => {
    ({report, manifest} = await readAndAnalyze(fsBundle(BUNDLE), {keepRows}));
  });

describe("toCsv", () => {
  it("escapes formula starts in text cells only, quotes per RFC 4180, writes unknown as an empty cell", () => {
    const text = toCsv(
      ["a", "b"],
      [
        ['=HYPERLINK("http://x")', -3],
        ["+1", "@SUM(A1)"],
        ["\tx", "\rline"],
        ["-2", "plain, with comma"],
        [null, true],
        [false, Number.NaN],
        ["multi\nline", 'say "hi"']
      ]
    );
    expect(rows(text)).toEqual([
      ["a", "b"],
      ['\'=HYPERLINK("http://x")', "-3"],
      ["'+1", "'@SUM(A1)"],
      ["'\tx", "'\rline"],
      ["'-2", "plain, with comma"],
      ["", "true"],
      ["false", ""],
      ["multi\nline", 'say "hi"']
    ]);
    expect(text).toContain('"multi\nline","say ""hi"""\r\n');
    expect(text.endsWith("\r\n")).toBe(true);
    // the redactor sees every text cell before escaping, never a number
    const seen: string[] = [];
    toCsv(["h"], [["x"], [5]], (s) => (seen.push(s), s.toUpperCase()));
    expect(seen).toEqual(["h", "x"]);
  });
});

describe("metricsCsv and requestsCsv", () => {
  analyzeEach(true);
  it("one row per point and metric; summaries and run metrics in their columns; withheld values empty with the reason", () => {
    const t = rows(metricsCsv(report));
    const h = t[0]!;
    const n = report.load_points.reduce((s, p) => s + Object.keys(p.metrics).length, 0);
    expect(t).toHaveLength(n + 1);
    const col = (r: string[], k: string) => r[h.indexOf(k)]!;
    const p = report.load_points[1]!;
    const ttft = p.metrics.ttft_ms as {n: number; mean: number; p50: number; p90: number};
    const row = t.find((r) => col(r, "point") === p.id && col(r, "metric") === "ttft_ms")!;
    expect([col(row, "mode"), col(row, "target"), col(row, "n"), col(row, "verdict"), col(row, "unit")]).toEqual([
      "concurrency",
      "2",
      "40",
      "VALID",
      "ms"
    ]);
    expect(Number(col(row, "n_values"))).toBe(ttft.n);
    expect(Number(col(row, "mean"))).toBe(ttft.mean);
    expect(Number(col(row, "p90"))).toBe(ttft.p90);
    expect(col(row, "p99")).toBe("");
    expect(col(row, "note")).toMatch(/^p99: .+/);
    expect(col(row, "value")).toBe("");
    const rps = t.find((r) => col(r, "point") === p.id && col(r, "metric") === "request_throughput_rps")!;
    expect(Number(col(rps, "value"))).toBe((p.metrics.request_throughput_rps as {value: number}).value);
    expect(col(rps, "mean")).toBe("");
    expect(col(rps, "unit")).toBe("req/s");
  });
  it("requests: one row per record with the bundle first; needs the report's rows", async () => {
    const t = rows(requestsCsv(report));
    expect(t[0]).toEqual([
      "bundle",
      "id",
      "point",
      "repeat",
      "phase",
      "outcome",
      "tSchedMs",
      "tDispMs",
      "tTok1Ms",
      "tTokNMs",
      "tEndMs",
      "ttftMs",
      "e2eMs",
      "itlMs",
      "out",
      "tokenEvents",
      "good",
      "error"
    ]);
    expect(t).toHaveLength(report.rows!.length + 1);
    const first = report.rows![0]!;
    expect(t[1]!.slice(0, 3)).toEqual([report.bundle, first.id, first.point]);
    expect(Number(t[1]![t[0]!.indexOf("ttftMs")])).toBe(first.ttftMs);
    const bare = (await readAndAnalyze(fsBundle(BUNDLE))).report;
    expect(() => requestsCsv(bare)).toThrow(/keepRows/);
  });
});

describe("llmdReports", () => {
  analyzeEach();
  let docs: ReturnType<typeof llmdReports>;
  beforeEach(() => {
    docs = llmdReports(report, {version: "9.9.9", manifest});
  });
  type Doc = {
    version: string;
    run: {uid: string; eid: string; time: Record<string, string>; keywords: string[]};
    scenario: {load: {standardized: Record<string, unknown>}; stack?: unknown};
    results: {request_performance: {aggregate: Record<string, Record<string, Record<string, unknown> | number>>}};
  };
  it("one v0.2.1 document per point, its statistics ours, a withheld percentile left out", () => {
    expect(docs.map((d) => d.point)).toEqual(report.load_points.map((p) => p.id));
    const d = docs[2]!.doc as unknown as Doc;
    const p = report.load_points[2]!;
    expect(d.version).toBe("0.2.1");
    expect(d.run.uid).toBe(`${report.bundle}/${p.id}`);
    expect(d.run.eid).toBe(report.bundle);
    expect(d.run.keywords).toEqual(["inferscope", p.verdict]);
    expect(d.run.time.duration).toBe(`PT${(p.metrics.window_s as {value: number}).value}S`);
    const agg = d.results.request_performance.aggregate;
    expect(agg.requests!.total).toBe(p.n);
    expect(agg.requests!.failures).toBe(p.n - p.n_success);
    const e2e = p.metrics.e2e_ms as {mean: number; std: number; min: number; max: number; p50: number; p95: number};
    expect(agg.latency!.request_latency).toEqual({
      units: "ms",
      mean: e2e.mean,
      stddev: e2e.std,
      min: e2e.min,
      p50: e2e.p50,
      p90: (p.metrics.e2e_ms as {p90: number}).p90,
      p95: e2e.p95,
      max: e2e.max
    });
    // llama.cpp reports no per-chunk token counts: no token gaps, so the chunk gaps (one token each here)
    expect((p.metrics.itl_token_ms as {n: number}).n).toBe(0);
    expect(agg.latency!.inter_token_latency).toMatchObject({
      units: "ms/token",
      mean: (p.metrics.inter_chunk_ms as {mean: number}).mean
    });
    expect((agg.latency!.time_per_output_token as Record<string, unknown>).mean).toBe(
      (p.metrics.tpot_ms as {mean: number}).mean
    );
    expect(agg.throughput!.request_rate).toEqual({
      units: "queries/s",
      mean: (p.metrics.request_throughput_rps as {value: number}).value
    });
    expect(agg.throughput!.output_token_rate).toEqual({
      units: "tokens/s",
      mean: (p.metrics.output_throughput_tok_s as {value: number}).value
    });
    expect(d.scenario.load.standardized).toMatchObject({
      tool: "inferscope",
      tool_version: "9.9.9",
      concurrency: 4,
      stage: 2,
      source: "random"
    });
    // the VM had no GPU: no engine stack is claimed
    expect(d.scenario.stack).toBeUndefined();
    const poisson = docs[3]!.doc as unknown as Doc;
    expect(poisson.scenario.load.standardized.rate_qps).toBe(1);
    expect("concurrency" in poisson.scenario.load.standardized).toBe(false);
  });
  it("a bundle that records one GPU model gets an inference-engine stack with its count", () => {
    const gpu = structuredClone(manifest) as Manifest;
    const dev = {
      index: 0,
      name: "NVIDIA H100 80GB HBM3",
      uuid: null,
      memoryTotalMiB: null,
      powerLimitW: null,
      computeCapability: null
    };
    gpu.environment.gpu.devices = [dev, {...dev, index: 1}];
    const d = llmdReports(report, {version: "1", manifest: gpu})[0]!.doc as unknown as {
      scenario: {stack: {standardized: Record<string, unknown>}[]};
    };
    expect(d.scenario.stack[0]!.standardized).toMatchObject({
      kind: "inference_engine",
      role: "replica",
      replicas: 1,
      model: {name: report.meta.model},
      accelerator: {model: "NVIDIA H100 80GB HBM3", count: 2}
    });
    // two different models: no single accelerator to name
    gpu.environment.gpu.devices[1]!.name = "NVIDIA A100";
    const mixed = llmdReports(report, {version: "1", manifest: gpu})[0]!.doc as {scenario: Record<string, unknown>};
    expect(mixed.scenario.stack).toBeUndefined();
  });
});

describe("exporters on hand-edited reports (every branch)", () => {
  analyzeEach();
  type Metrics = Report["load_points"][number]["metrics"];
  /** The bundle's report with its first point's metrics and meta replaced. */
  const edited = (metrics: (m: Metrics) => Metrics, meta: Partial<Report["meta"]> = {}): Report => {
    const r = structuredClone(report);
    r.load_points = [{...r.load_points[0]!, metrics: metrics(r.load_points[0]!.metrics)}];
    r.meta = {...r.meta, ...meta};
    return r;
  };

  it("CSV: plain cells unquoted; notes joined from withheld percentiles, a summary's note, a run metric's reason and note", () => {
    expect(toCsv(["a", "b"], [["plain", true]])).toBe("a,b\r\nplain,true\r\n");
    const r = edited((m) => ({
      ttft_ms: {...(m.ttft_ms as object), withheld: {p99: "n < 100"}, note: "from the schedule"} as Metrics[string],
      success_rate_pct: {value: null, reason: "no requests", note: "see G3"},
      window_s: {value: 12}
    }));
    const t = rows(metricsCsv(r));
    const h = t[0]!;
    const note = (metric: string) => t.find((x) => x[h.indexOf("metric")] === metric)![h.indexOf("note")];
    expect(note("ttft_ms")).toBe("p99: n < 100; from the schedule");
    expect(note("success_rate_pct")).toBe("no requests; see G3");
    expect(note("window_s")).toBe("");
    expect(t.find((x) => x[h.indexOf("metric")] === "window_s")![h.indexOf("value")]).toBe("12");
  });

  it("llm-d: missing or unknown metrics are left out, a missing window gives no duration, no manifest no stack", () => {
    const r = edited(
      (m) => ({
        ttft_ms: m.ttft_ms!,
        request_throughput_rps: {value: null, reason: "none"},
        output_throughput_tok_s: m.output_throughput_tok_s!
      }),
      {workloadKey: "chat in=256 out=? custom-prompt", workload: {...report.meta.workload, max_tokens: null}}
    );
    const [d] = llmdReports(r, {version: "1", manifest: null});
    const doc = d!.doc as {
      run: {time: Record<string, unknown>; description: string};
      scenario: Record<string, {standardized: Record<string, unknown>; metadata: Record<string, unknown>}>;
      results: {request_performance: {aggregate: Record<string, Record<string, unknown>>}};
    };
    const agg = doc.results.request_performance.aggregate;
    expect(Object.keys(agg.latency!)).toEqual(["time_to_first_token"]);
    expect(Object.keys(agg.throughput!)).toEqual(["output_token_rate"]);
    expect(Object.keys(agg.requests!)).toEqual(["total", "failures"]);
    expect("duration" in doc.run.time).toBe(false);
    expect(doc.run.description).toBe(
      `InferScope bundle ${report.bundle}, load point concurrency-1: verdict ${report.load_points[0]!.verdict} (analyzer ${report.analyzer_version})`
    );
    expect(Object.keys(doc.scenario)).toEqual(["load"]);
    expect(doc.scenario.load!.metadata).toEqual({schema_version: "0.0.1", cfg_id: `${report.bundle}/concurrency-1`});
    expect(doc.scenario.load!.standardized.source).toBe("unknown");
    expect("output_seq_len" in doc.scenario.load!.standardized).toBe(false);
    // without a configured prompt length there is no load section at all
    const noLoad = llmdReports(
      edited((m) => m, {workload: {...report.meta.workload, prompt_tokens: null}}),
      {version: "1", manifest: null}
    );
    expect("scenario" in noLoad[0]!.doc).toBe(false);
  });

  it("llm-d: the engine stack names unknown engines as such, with upstream's parallelism defaults", () => {
    const gpu = structuredClone(manifest) as Manifest;
    gpu.environment.gpu.devices = [
      {index: 0, name: "L4", uuid: null, memoryTotalMiB: null, powerLimitW: null, computeCapability: null}
    ];
    gpu.environment.server.engineVersion = "b4321";
    const [d] = llmdReports(
      edited((m) => m, {engine: null}),
      {version: "1", manifest: gpu}
    );
    const stack = (d!.doc as {scenario: {stack: Record<string, Record<string, unknown>>[]}}).scenario.stack[0]!;
    expect(stack.metadata).toEqual({schema_version: "0.0.1", label: "engine", cfg_id: report.bundle});
    expect(stack.native).toEqual({});
    expect(stack.standardized).toMatchObject({
      tool: "unknown",
      tool_version: "b4321",
      accelerator: {model: "L4", count: 1, parallelism: {tp: 1, dp: 1, dp_local: 1, workers: 1, ep: 1, pp: 1}}
    });
    const tpot = (d!.doc as {results: {request_performance: {aggregate: {latency: Record<string, {units: string}>}}}})
      .results.request_performance.aggregate.latency;
    expect(tpot.time_per_output_token!.units).toBe("ms/token");
    gpu.environment.server.engineVersion = null;
    const [e] = llmdReports(
      edited((m) => m, {engine: null}),
      {version: "1", manifest: gpu}
    );
    expect(
      (e!.doc as {scenario: {stack: {standardized: {tool_version: string}}[]}}).scenario.stack[0]!.standardized
        .tool_version
    ).toBe("");
  });

  it("llm-d: a document the schema rejects is an error naming the path, never written", () => {
    const r = structuredClone(report);
    // more successes than requests (an inconsistent report) would write failures = −1; the schema's minimum is 0
    r.load_points = [{...r.load_points[0]!, n_success: r.load_points[0]!.n + 1}];
    expect(() => llmdReports(r, {version: "1", manifest: null})).toThrow(
      /^llm-d export is invalid: \$\.results\.request_performance\.aggregate\.requests\.failures: /
    );
  });
});
