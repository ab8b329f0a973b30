import {readFileSync} from "node:fs";
import {join, resolve} from "node:path";

import {describe, expect, it} from "vitest";

import {importAndAnalyze} from "./helpers.ts";

/**
 * Real result files from public repositories under Apache-2.0 (test/fixtures/peers/PROVENANCE.md): files
 * that hold only aggregates, or only a sample of their requests. The import must keep every reported
 * number verbatim and say why it cannot be recomputed; it must never recompute one from what is missing.
 */
const PUBLIC = resolve("test/fixtures/peers");
const json = (p: string) => JSON.parse(readFileSync(join(PUBLIC, p), "utf8")) as Record<string, unknown>;

describe("public real files (aggregates only, or a sample)", () => {
  it("AIPerf 0.8.0 aggregate alone (schema 1.0, explicit null percentiles): reported verbatim, not recomputable", async () => {
    const p = "aiperf/0.8.0-audit-bare/profile_export_aiperf.json";
    const file = json(p) as Record<string, Record<string, number | null>>;
    const {run, report} = await importAndAnalyze("auto", [join(PUBLIC, p)]);
    expect(run.tool).toBe("aiperf");
    expect(run.toolVersion).toBe("0.8.0");
    expect(run.requests).toEqual([]);
    const rows = report.source_comparison!;
    const p95 = rows.find((r) => r.metric === "request_latency.p95")!;
    expect(p95.reported).toBe(file.request_latency!.p95); // 10.865638499999939 ms in the file
    expect(p95.recomputed).toBeNull();
    expect(p95.note).toMatch(/no profile_export\.jsonl records/);
    // the file's explicit nulls stay unknown, never 0
    const nullRow = rows.find((r) => r.metric === "request_count.avg" || r.metric === "request_count")!;
    expect(nullRow.reported).toBe(64);
    expect(rows.filter((r) => r.recomputed !== null)).toEqual([]);
    expect(rows.filter((r) => r.finding)).toEqual([]);
  });

  it("GuideLLM 0.3 fixture that keeps 1 of 46 successful requests: its numbers stay as reported, never recomputed from the one", async () => {
    const p = "guidellm/0.3.0-stripped/benchmarks_stripped.json";
    const {run, report} = await importAndAnalyze("auto", [join(PUBLIC, p)]);
    expect(run.tool).toBe("guidellm");
    expect(run.toolVersion).toBe("0.3");
    expect(run.requests).toHaveLength(1);
    expect(run.notes.join("; ")).toMatch(/a sample — 1 of 46 successful requests are stored/);
    const rows = report.source_comparison!;
    const ttft = rows.find((r) => r.metric === "time_to_first_token_ms.mean")!;
    expect(ttft.reported).toBe(16.792535781860348);
    expect(ttft.recomputed).toBeNull();
    expect(ttft.note).toMatch(/sampled_requests: the file stores 1 of 46 successful/);
    const count = rows.find((r) => r.metric === "time_to_first_token_ms.count")!;
    expect(count.reported).toBe(46);
    expect(count.recomputed).toBeNull();
    expect(rows.filter((r) => r.finding)).toEqual([]);
    // 0.3's request_totals sit on the benchmark, not under metrics
    expect(rows.find((r) => r.metric === "request_totals.successful")!.reported).toBe(46);
    // the file states no target load: an unknown point, judged not evaluable (G5) — not a manifest at fault (G1)
    expect(run.loadPoints.map((p) => p.id)).toEqual(["concurrency-unknown"]);
    expect(report.gates.find((g) => g.id === "G1")!.status).toBe("pass");
    expect(report.gates.find((g) => g.id === "G5")!.status).toBe("not_evaluable");
    expect(report.verdict).toBe("INCONCLUSIVE");
  });
});
