import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {aiperfExpected} from "../expected.ts";
import {importAndAnalyze, importAndAnalyzeTexts} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

/**
 * AIPerf 0.10–0.13 (aggregate schema 1.3/1.4): metrics at the top level beside run_info and input_config
 * (phases[], models.items), records without an "error" key on success, warmup records in the JSONL and
 * their own warmup_metrics. The fixture's aggregates are computed by numpy in make.py (profiling phase,
 * successful records, numpy R-7 percentiles, population std, duration max(end) − min(start)).
 */
const DIR = "aiperf/v0.12";
const AGG = `${DIR}/profile_export_aiperf.json`;
const texts = () => [
  {name: "profile_export.jsonl", text: readFileSync(f(`${DIR}/profile_export.jsonl`), "utf8")},
  {name: "profile_export_aiperf.json", text: readFileSync(f(AGG), "utf8")}
];

describe("AIPerf 0.12 (schema 1.4)", () => {
  it("is detected by shape and every reported number reproduces, warmup_metrics over the warmup records", async () => {
    const {run, report} = await importAndAnalyze("auto", [f(DIR)]);
    expect(run.tool).toBe("aiperf");
    expect(run.toolVersion).toBe("0.12.0");
    expect(run.model).toBe("synthetic/aiperf-agentic");
    // input_config.phases: the profiling phase is the load point, the warmup phase its warmup
    expect(run.loadPoints).toMatchObject([{id: "concurrency-2", requests: 8, warmup: 2}]);
    const agg = json(AGG);
    const main = checkAgainstFile(report, aiperfExpected(agg));
    expect(main.unrecomputable).toEqual([]);
    const warm = aiperfExpected(agg.warmup_metrics as Record<string, unknown>).map((e) => ({
      ...e,
      metric: `warmup_metrics.${e.metric}`
    }));
    const w = checkAgainstFile(report, warm);
    expect(w.exact).toBeGreaterThan(60);
    // 8 profiling requests, one timed out; the 2 warmups stay out of the measured set
    expect(report.load_points[0]!.n_success).toBe(7);
    expect(run.requests.filter((r) => r.phase === "warmup")).toHaveLength(2);
  });

  it("maps AIPerf's timestamps: start from the records' UTC epoch, ack as headers, no schedule in closed loop", async () => {
    const {run} = await importAndAnalyze("auto", [f(DIR)]);
    // t0 = 1785789229401144599 ns (exact beyond 2^53), first request_start_ns = t0 + 625235
    expect(run.originNs).toBe("1785789229401769834");
    expect(run.startedAt).toBe("2026-08-03T20:33:49.401Z");
    const first = run.requests[0]!;
    expect(first.tDispNs).toBe(0);
    expect(first.tHdrNs).toBe(4_028_056); // request_ack_ns − request_start_ns
    expect(first.tSchedNs).toBeNull(); // concurrency mode: the credit is not a schedule
    expect(run.notes.join("; ")).toMatch(/2 warmup records .* kept as warmup/);
    expect(run.notes.join("; ")).toMatch(
      /multi-turn replay: 5 records are later turns of a conversation, agent depth up to 2/
    );
  });

  it("t-digest percentiles of pooled chunk gaps: within 1 % they are approximate, beyond it a finding", async () => {
    const {report} = await importAndAnalyze("auto", [f(DIR)]);
    const p95 = report.source_comparison!.find((r) => r.metric === "inter_chunk_latency.p95")!;
    expect(p95.recomputed_status).toBe("approximate");
    expect(p95.finding).toBe(false);
    expect(p95.note).toMatch(/differs by 0\.0200 %.*t-digest/);
    const agg = json(AGG) as Record<string, Record<string, number>>;
    agg.inter_chunk_latency!.p95 = agg.inter_chunk_latency!.p95! * 1.05;
    const t = texts();
    t[1]!.text = JSON.stringify(agg);
    const tampered = await importAndAnalyzeTexts("aiperf", t);
    expect(tampered.report.source_comparison!.find((r) => r.metric === "inter_chunk_latency.p95")!.finding).toBe(true);
  });

  it("a wrong warmup number is a finding too", async () => {
    const agg = json(AGG) as {warmup_metrics: Record<string, Record<string, number>>};
    agg.warmup_metrics.time_to_first_token!.avg = agg.warmup_metrics.time_to_first_token!.avg! + 1;
    const t = texts();
    t[1]!.text = JSON.stringify(agg);
    const {report} = await importAndAnalyzeTexts("aiperf", t);
    const bad = report.source_comparison!.filter((r) => r.finding).map((r) => r.metric);
    expect(bad).toEqual(["warmup_metrics.time_to_first_token.avg"]);
  });

  it("records alone (no aggregate, no error keys) are AIPerf records", async () => {
    const {run} = await importAndAnalyzeTexts("auto", [texts()[0]!]);
    expect(run.tool).toBe("aiperf");
    expect(run.requests).toHaveLength(10);
  });
});
