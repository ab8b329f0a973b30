import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {importPeer} from "../../src/analysis/index.ts";
import {checkAgainstFile} from "./check.ts";
import {
  aiperfExpected,
  genaiPerfExpected,
  guidellmExpected,
  llmperfExpected,
  v1Expected,
  vllmLikeExpected
} from "./expected.ts";
import {importAndAnalyze, SYNTH} from "./helpers.ts";

/**
 * Synthetic files of every format (test/fixtures/peers-synthetic, written by make.py whose aggregates are
 * computed with numpy under each tool's definitions), so the importers are tested on every machine.
 */
const f = (p: string) => join(SYNTH, p);
const json = (p: string) => JSON.parse(readFileSync(f(p), "utf8")) as Record<string, unknown>;
const lines = (p: string) =>
  readFileSync(f(p), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const V1 = "inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0";

describe("vLLM save-result", () => {
  it("2024 schema with per-request arrays: TTFT/ITL exact, TPOT/latency bounded, times per request", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("vllm/vllm-2024-detailed.json")]);
    expect(run.tool).toBe("vllm");
    expect(run.requests.every((r) => r.timeBase === "request" && r.tEndNs === null && r.nullReasons?.tEndNs)).toBe(
      true
    );
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2024-detailed.json")]));
    expect(r.bounded.map((b) => b.metric).sort()).toEqual(
      ["mean_latency_ms", "mean_tpot_ms", "median_latency_ms", "median_tpot_ms", "p99_latency_ms", "p99_tpot_ms"].sort()
    );
    expect(r.unrecomputable.map((u) => u.metric).sort()).toEqual(["duration", "std_latency_ms", "std_tpot_ms"]);
  });

  it("2024 schema without arrays: aggregates kept verbatim, nothing recomputed, no request invented", async () => {
    const {run, report} = await importAndAnalyze("vllm", [f("vllm/vllm-2024-aggregates-only.json")]);
    expect(run.requests).toEqual([]);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2024-aggregates-only.json")]));
    expect(r.exact).toBe(0);
    expect(report.load_points[0]!.n).toBe(0);
    expect(report.gates.find((g) => g.id === "G3")!.status).toBe("not_evaluable");
  });

  it("2025+ schema with --save-detailed: start times, latencies, a failed request; every statistic exact", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-detailed.json")]);
    expect(run.requests.every((r) => r.timeBase === "run")).toBe(true);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2025-detailed.json")]));
    expect(r.bounded).toEqual([]);
    expect(r.unrecomputable.map((u) => u.metric)).toEqual(["duration"]);
    // percentiles printed as p99.9 are read
    expect(report.source_comparison!.some((x) => x.metric === "p99.9_itl_ms" && x.recomputed_status === "exact")).toBe(
      true
    );
    const p = report.load_points[0]!;
    expect([p.n, p.n_success, p.id]).toEqual([8, 7, "concurrency-4"]);
  });

  it("2025+ schema without --save-detailed: latency statistics from the latencies array only", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-latencies-only.json")]);
    expect(run.requests).toEqual([]);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2025-latencies-only.json")]));
    const exact = report.source_comparison!.filter((x) => x.recomputed_status === "exact").map((x) => x.metric);
    expect(exact.every((m) => m.endsWith("_e2el_ms"))).toBe(true);
    expect(r.exact).toBe(6);
  });

  it("--append-result JSON Lines: one load point per run", async () => {
    const {report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-append.jsonl")]);
    expect(report.load_points.map((p) => p.id)).toEqual(["poisson-2", "poisson-4"]);
    checkAgainstFile(report, vllmLikeExpected(lines("vllm/vllm-2025-append.jsonl")));
  });

  it("an all-failed run: the zeros that mean no data become null", async () => {
    const {report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-all-failed.json")]);
    const rows = report.source_comparison!;
    expect(rows.find((x) => x.metric === "completed")!.reported).toBe(0);
    for (const x of rows.filter((x) => x.metric.endsWith("_ms"))) expect(x.reported).toBeNull();
  });

  it("NaN and Infinity written by Python are read as null, not as numbers", () => {
    const text = readFileSync(f("vllm/vllm-2024-detailed.json"), "utf8").replace(
      /"std_itl_ms": [^,]+,/,
      '"std_itl_ms": NaN,'
    );
    const r = importPeer("auto", [{name: "nan.json", text}]);
    expect(r.ok).toBe(true);
    if (r.ok) expect((r.value.sources[0]!.aggregates as Record<string, unknown>).std_itl_ms).toBeNull();
  });
});

describe("SGLang bench_serving JSONL", () => {
  it("two runs; with --output-details TTFT/ITL exact, E2E (incl. [DONE]) and TPOT bounded, concurrency derived", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("sglang/sglang-bench-serving.jsonl")]);
    expect(run.tool).toBe("sglang");
    expect(report.load_points.map((p) => p.id)).toEqual(["poisson-2", "poisson-8"]);
    const r = checkAgainstFile(report, vllmLikeExpected(lines("sglang/sglang-bench-serving.jsonl")));
    expect(r.bounded.length).toBe(6);
    const conc = report.source_comparison!.filter((x) => x.metric === "concurrency");
    expect(conc.every((x) => x.recomputed_status === "derived")).toBe(true);
  });
});

describe("GenAI-Perf profile export", () => {
  it("re-joins a split SSE line, skips the role-only first response, counts the failed request in req/s", async () => {
    const {run, report} = await importAndAnalyze("auto", [
      f("genai-perf/profile_export.json"),
      f("genai-perf/profile_export_genai_perf.json")
    ]);
    expect(run.tool).toBe("genai-perf");
    const r = checkAgainstFile(report, genaiPerfExpected(json("genai-perf/profile_export_genai_perf.json")));
    expect(r.unrecomputable).toEqual([]);
    const p = report.load_points[0]!;
    expect([p.n, p.n_success, p.outcomes.inband_error]).toEqual([4, 3, 1]);
    // the split line became one content event; the role chunk is an event but not a token
    const split = run.requests[1]!;
    expect(split.events.filter((e) => e[2] === "content").length).toBe(4);
    expect(split.events[0]![2]).toBe("role");
    const rps = report.source_comparison!.find((x) => x.metric === "request_throughput.avg")!;
    expect(rps.codes).toContain("definition");
    expect(rps.canonical!).toBeLessThan(rps.reported!);
    // timestamps beyond 2^53 are read exactly: ns gaps are integers
    expect(run.requests.every((q) => q.events.every((e) => Number.isInteger(e[0])))).toBe(true);
  });
});

describe("AIPerf", () => {
  for (const gen of ["2025-10", "later"])
    it(`${gen} generation: every aggregate reproduces, tag aliases per generation`, async () => {
      const {run, report} = await importAndAnalyze("auto", [f(`aiperf/${gen}`)]);
      expect(run.tool).toBe("aiperf");
      const r = checkAgainstFile(report, aiperfExpected(json(`aiperf/${gen}/profile_export_aiperf.json`)));
      expect(r.unrecomputable).toEqual([]);
      expect(r.exact).toBeGreaterThan(80);
      expect(report.load_points[0]!.outcomes.client_abort).toBe(1);
    });
});

describe("GuideLLM benchmarks.json", () => {
  it("token-weighted ITL and TTFT-inclusive TPOT reproduce with weighted nearest rank", async () => {
    const {report} = await importAndAnalyze("auto", [f("guidellm/benchmarks.json")]);
    const r = checkAgainstFile(report, guidellmExpected(json("guidellm/benchmarks.json")));
    expect(r.unrecomputable).toEqual([]);
    expect(r.exact).toBe(70);
  });
});

describe("LLMPerf individual + summary", () => {
  it("R-7 and ddof 1 from the individual file; TTFT-inclusive ITL shown as a definition difference", async () => {
    const {report} = await importAndAnalyze("auto", [
      f("llmperf/synthetic_individual_responses.json"),
      f("llmperf/synthetic_summary.json")
    ]);
    const r = checkAgainstFile(report, llmperfExpected(json("llmperf/synthetic_summary.json")));
    expect(r.unrecomputable.map((u) => u.metric)).toEqual(["results_mean_output_throughput_token_per_s"]);
    expect(report.load_points[0]!.outcomes.http_error).toBe(1);
  });
});

describe("InferScope v1 artifact folder", () => {
  it("R-7 latency, goodput as a rate with the success-rate rule; schedule view available", async () => {
    const {run, report} = await importAndAnalyze("auto", [
      f(V1),
      f(V1.replace("/raw/", "/processed/") + "/aggregate.json")
    ]);
    expect(run.tool).toBe("inferscope-v1");
    const r = checkAgainstFile(report, v1Expected(json(V1.replace("/raw/", "/processed/") + "/aggregate.json")));
    expect(r.unrecomputable).toEqual([]);
    const good = report.source_comparison!.find((x) => x.metric === "throughput.goodput_requests_per_second")!;
    expect(good.recomputed_status).toBe("derived");
    expect(report.gates.find((g) => g.id === "G7")!.status).toBe("pass");
    expect(run.requests.every((q) => q.tSchedNs !== null)).toBe(true);
  });
});

describe("a reported number that its own definition does not reproduce is a finding", () => {
  it("an altered mean and a value outside its bound are flagged and raised as source_mismatch warnings", async () => {
    const o = json("vllm/vllm-2024-detailed.json");
    o.mean_ttft_ms = (o.mean_ttft_ms as number) * 1.01;
    o.median_tpot_ms = 1000;
    const dir = mkdtempSync(join(tmpdir(), "inferscope-finding-"));
    try {
      const file = join(dir, "tampered.json");
      writeFileSync(file, JSON.stringify(o));
      const {report} = await importAndAnalyze("vllm", [file]);
      const rows = report.source_comparison!;
      const flagged = rows.filter((r) => r.finding).map((r) => r.metric);
      expect(flagged.sort()).toEqual(["mean_ttft_ms", "median_tpot_ms"]);
      expect(rows.find((r) => r.metric === "mean_ttft_ms")!.note).toMatch(
        /^FINDING: recomputed differs from reported by 0\.990 %/
      );
      expect(rows.find((r) => r.metric === "median_tpot_ms")!.note).toMatch(
        /FINDING: reported value lies outside the bound/
      );
      const warnings = report.issues.filter((i) => i.code === "source_mismatch");
      expect(warnings.map((w) => w.path).sort()).toEqual(["mean_ttft_ms", "median_tpot_ms"]);
      expect(warnings.every((w) => w.severity === "warning" && w.file === "source.jsonl")).toBe(true);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe("generations of a format", () => {
  it("GuideLLM before 0.5 (start_time/first_token_time/last_token_time/end_time on the request) imports alike", async () => {
    const g = json("guidellm/benchmarks.json") as {benchmarks: {requests: {successful: Record<string, unknown>[]}}[]};
    for (const r of g.benchmarks[0]!.requests.successful) {
      const t = (r.info as {timings: Record<string, number>}).timings;
      Object.assign(r, {
        start_time: t.request_start,
        first_token_time: t.first_token_iteration,
        last_token_time: t.last_token_iteration,
        end_time: t.request_end
      });
      delete r.info;
    }
    const dir = mkdtempSync(join(tmpdir(), "inferscope-guidellm-"));
    try {
      writeFileSync(join(dir, "old.json"), JSON.stringify(g));
      const {report} = await importAndAnalyze("auto", [join(dir, "old.json")]);
      const r = checkAgainstFile(report, guidellmExpected(g as unknown as Record<string, unknown>));
      expect(r.exact).toBe(70);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it("a vLLM run with a finite rate and burstiness ≠ 1 is a gamma point", async () => {
    const o = json("vllm/vllm-2025-detailed.json");
    Object.assign(o, {request_rate: 5, burstiness: 0.5});
    const r = importPeer("auto", [{name: "g.json", text: JSON.stringify(o)}]);
    expect(r.ok && r.value.loadPoints[0]).toMatchObject({
      id: "gamma-5",
      mode: "gamma",
      burstiness: 0.5,
      maxConcurrency: 4
    });
  });
});
