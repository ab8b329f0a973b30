import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {importPeer} from "../../../src/analysis/index.ts";
import {checkAgainstFile} from "../check.ts";
import {vllmLikeExpected} from "../expected.ts";
import {importAndAnalyze, importAndAnalyzeTexts} from "../helpers.ts";
import {f, json, lines} from "../synthetic.ts";

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
    // request_rate "inf", no max_concurrency, num_prompts 6: every request at once, read as concurrency 6 and said so
    expect(run.loadPoints.map((p) => p.id)).toEqual(["concurrency-6"]);
    expect(run.notes).toContain(
      "concurrency-6: the file sets no max_concurrency and an infinite request rate (every request sent at once): the load point is derived as concurrency = num_prompts (6), not declared by the file"
    );
  });

  it("2024 schema without arrays: aggregates kept verbatim, nothing recomputed, no request invented", async () => {
    const {run, report} = await importAndAnalyze("vllm", [f("vllm/vllm-2024-aggregates-only.json")]);
    expect(run.requests).toEqual([]);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2024-aggregates-only.json")]));
    // nothing recomputed from requests; the two rates checked against the file's own totals: 6 completed / 1.5 s
    // = 4 req/s, 86 output tokens / 1.5 s = 57.33 tok/s, as the file says (no finding)
    expect(r.exact).toBe(2);
    const rate = (m: string) => report.source_comparison!.find((x) => x.metric === m)!;
    expect(rate("request_throughput")).toMatchObject({recomputed: 4, recomputed_status: "derived", finding: false});
    expect(rate("output_throughput").recomputed).toBeCloseTo(86 / 1.5, 12);
    expect(rate("output_throughput").finding).toBe(false);
    // a rate its own counts contradict (5 req/s for 6 requests in 1.5 s) is a finding
    const edited = JSON.stringify({...json("vllm/vllm-2024-aggregates-only.json"), request_throughput: 5});
    const bad = await importAndAnalyzeTexts("vllm", [{name: "edited.json", text: edited}]);
    expect(bad.report.source_comparison!.find((x) => x.metric === "request_throughput")!.finding).toBe(true);
    expect(report.load_points[0]!.n).toBe(0);
    // their completed count stands beside an unknown of ours (no request records), never beside a 0
    const completed = report.source_comparison!.find((x) => x.metric === "completed")!;
    expect(completed).toMatchObject({reported: json("vllm/vllm-2024-aggregates-only.json").completed, canonical: null});
    expect(completed.note).toContain("canonical: no request records (the file keeps aggregates only)");
    expect(report.gates.find((g) => g.id === "G3")!.status).toBe("not_evaluable");
  });

  it("2025+ schema with --save-detailed: start times, latencies, a failed request; every statistic exact", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-detailed.json")]);
    expect(run.requests.every((r) => r.timeBase === "run")).toBe(true);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2025-detailed.json")]));
    expect(r.unrecomputable).toEqual([]);
    // duration is bounded below by the requests' own span on the start-time clock: the first start to the last
    // end (start + latency; the failed request's latency 0 is unknown, so its start), worked from the file
    const file = json("vllm/vllm-2025-detailed.json") as {start_times: number[]; latencies: number[]; duration: number};
    const ends = file.start_times.map((s, i) => s + file.latencies[i]!);
    const lower = Math.max(...ends) - Math.min(...file.start_times);
    const duration = report.source_comparison!.find((x) => x.metric === "duration")!;
    expect(duration.recomputed_status).toBe("bounded");
    expect(duration.bound!.lower).toBeCloseTo(lower, 6);
    expect([duration.bound!.upper, duration.finding]).toEqual([null, false]);
    expect(file.duration).toBeGreaterThanOrEqual(lower);
    // percentiles printed as p99.9 are read
    expect(report.source_comparison!.some((x) => x.metric === "p99.9_itl_ms" && x.recomputed_status === "exact")).toBe(
      true
    );
    const p = report.load_points[0]!;
    expect([p.n, p.n_success, p.id]).toEqual([8, 7, "concurrency-4"]);
  });

  it("a start time far from the others makes the reported duration a finding (the audit's -5 s start)", async () => {
    const file = json("vllm/vllm-2025-detailed.json") as {start_times: number[]};
    const starts = [...file.start_times];
    starts[2] = starts[2]! - 1000; // 1,000 s earlier: the run would have lasted over 1,000 s
    const text = JSON.stringify({...file, start_times: starts});
    const {report} = await importAndAnalyzeTexts("vllm", [{name: "run.json", text}]);
    const duration = report.source_comparison!.find((x) => x.metric === "duration")!;
    expect(duration.finding).toBe(true);
    expect(duration.bound!.lower).toBeGreaterThan(1000);
  });

  it("a failed request's latency of 0 (the client's default) is unknown, not an end at its own send", async () => {
    const {run} = await importAndAnalyze("auto", [f("vllm/vllm-2025-detailed.json")]);
    const file = json("vllm/vllm-2025-detailed.json") as {errors: string[]; latencies: number[]; start_times: number[]};
    // the file's 8th request failed ("Bad Request: …") with latency 0.0; the 7th succeeded in 0.175173 s
    expect([file.errors[7], file.latencies[7]]).toEqual(["Bad Request: context length exceeded", 0]);
    const [ok, failed] = [run.requests[6]!, run.requests[7]!];
    expect(failed.tEndNs).toBeNull();
    expect(failed.nullReasons?.tEndNs).toBe(
      "a failed request's latency is 0 in the file, the client's default: unknown"
    );
    expect(ok.tEndNs! - ok.tDispNs!).toBe(175_173_000);
  });

  it("2025+ schema without --save-detailed: latency statistics from the latencies array only", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("vllm/vllm-2025-latencies-only.json")]);
    expect(run.requests).toEqual([]);
    const r = checkAgainstFile(report, vllmLikeExpected([json("vllm/vllm-2025-latencies-only.json")]));
    const exact = report.source_comparison!.filter((x) => x.recomputed_status === "exact").map((x) => x.metric);
    expect(exact.every((m) => m.endsWith("_e2el_ms"))).toBe(true);
    // 6 latency statistics, and the request and output rates checked against the file's own totals
    expect(r.exact).toBe(8);
    // worked from the file: 7 / 0.396687 s, 76 / 0.396687 s and (283 + 76) / 0.396687 s, each as the file states it
    const row = (m: string) => report.source_comparison!.find((x) => x.metric === m)!;
    const duration = 0.3966869999999949;
    expect(row("request_throughput").recomputed).toBeCloseTo(7 / duration, 9);
    expect(row("output_throughput").recomputed).toBeCloseTo(76 / duration, 9);
    expect(row("total_token_throughput")).toMatchObject({reported: 904.9956262746311, recomputed_status: "derived"});
    expect(row("total_token_throughput").recomputed).toBeCloseTo(359 / duration, 9);
    expect(report.source_comparison!.filter((x) => x.finding)).toEqual([]);
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

describe("generations of a format", () => {
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

  it("two runs at one rate in one file: each run's numbers are recomputed from its own requests, rows name the run", async () => {
    // the append file's two runs (rates 2 and 4) made one point: the second run's rate set to 2
    const runs = lines("vllm/vllm-2025-append.jsonl");
    runs[1]!.request_rate = 2.0;
    const {report} = await importAndAnalyzeTexts("vllm", [
      {name: "two.jsonl", text: runs.map((x) => JSON.stringify(x)).join("\n") + "\n"}
    ]);
    expect(report.load_points.map((p) => p.id)).toEqual(["poisson-2"]);
    const rows = report.source_comparison!;
    // pooled, each run's 5 requests would read as 10 completed and every statistic as the other run's mix
    expect(rows.filter((x) => x.finding)).toEqual([]);
    for (const [k, run] of runs.entries()) {
      const mine = rows.filter((x) => x.repeat === k);
      expect(mine.find((x) => x.metric === "completed")).toMatchObject({
        reported: run.completed,
        recomputed: run.completed
      });
      expect(mine.find((x) => x.metric === "mean_ttft_ms")!.recomputed).toBeCloseTo(run.mean_ttft_ms as number, 6);
      expect(mine.find((x) => x.metric === "p99_itl_ms")!.recomputed).toBeCloseTo(run.p99_itl_ms as number, 6);
    }
    expect(rows.every((x) => x.repeat === 0 || x.repeat === 1)).toBe(true);
  });

  it("a statistic the file holds as NaN is reported as no number, not 'not reported'", async () => {
    const text = readFileSync(f("vllm/vllm-2024-detailed.json"), "utf8").replace(
      '"std_ttft_ms": 33.769612670515876',
      '"std_ttft_ms": NaN'
    );
    const {report} = await importAndAnalyzeTexts("vllm", [{name: "run.json", text}]);
    const std = report.source_comparison!.find((x) => x.metric === "std_ttft_ms")!;
    expect(std.reported).toBeNull();
    expect(std.note).toMatch(/^reported as null in the file \(null, NaN or Infinity\): unknown/);
    // a key the file does not have is not reported
    const text2 = readFileSync(f("vllm/vllm-2024-detailed.json"), "utf8").replace(
      '"std_ttft_ms": 33.769612670515876,',
      ""
    );
    const {report: r2} = await importAndAnalyzeTexts("vllm", [{name: "run.json", text: text2}]);
    expect(r2.source_comparison!.find((x) => x.metric === "std_ttft_ms")).toBeUndefined();
  });
});
