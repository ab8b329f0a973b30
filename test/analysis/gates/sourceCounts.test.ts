import {describe, expect, it} from "vitest";

import {errorRate} from "../../../src/analysis/gates/requests.ts";
import {sourceCountsByPoint, type PointSourceCounts} from "../../../src/analysis/gates/sourceCounts.ts";
import type {GateContext, PointFacts} from "../../../src/analysis/gates/types.ts";
import type {SourceRecord, SourceRequestCounts} from "../../../src/analysis/schema/records.ts";

/** A source record at `point` whose facts state `counts` (or none). */
const src = (point: string | null, counts?: SourceRequestCounts, tool = "vllm"): SourceRecord => ({
  seq: 0,
  tool,
  toolVersion: null,
  file: "f.json",
  point,
  aggregates: null,
  facts: counts ? {requestCounts: counts} : {}
});
const c = (completed: number | null, failed: number | null, incomplete: number | null) => ({
  completed,
  failed,
  incomplete
});

describe("sourceCountsByPoint: a point's counts over all its runs", () => {
  it("sums the runs of a point: completed + failed + incomplete are the requests counted", () => {
    const m = sourceCountsByPoint([src("concurrency-4", c(10, 1, 0)), src("concurrency-4", c(8, 0, 2))]);
    expect(m.get("concurrency-4")).toEqual({tool: "vllm", runs: 2, failed: 1, counted: 21});
  });

  it("keeps points apart and ignores a record without a point", () => {
    const m = sourceCountsByPoint([
      src("rate-2", c(5, 5, 0), "aiperf"),
      src("rate-4", c(3, 0, 1)),
      src(null, c(1, 1, 1))
    ]);
    expect([...m.keys()].sort()).toEqual(["rate-2", "rate-4"]);
    expect(m.get("rate-2")).toEqual({tool: "aiperf", runs: 1, failed: 5, counted: 10});
    expect(m.get("rate-4")).toEqual({tool: "vllm", runs: 1, failed: 0, counted: 4});
  });

  it("a point with one run that states no counts, or an unknown count, has no entry (whichever run comes first)", () => {
    for (const other of [undefined, c(null, 0, 0), c(5, null, 0), c(5, 0, null)]) {
      expect(sourceCountsByPoint([src("p-1", c(9, 9, 0)), src("p-1", other)]).has("p-1")).toBe(false);
      expect(sourceCountsByPoint([src("p-1", other), src("p-1", c(9, 9, 0))]).has("p-1")).toBe(false);
    }
  });
});

/** G3 on a point with `measured` requests of which `successes` succeeded, and the source's counts. */
function g3(measured: number, successes: number, source?: PointSourceCounts) {
  const p = {point: {id: "concurrency-8"}, totals: {measured, successes}} as unknown as PointFacts;
  const ctx = {
    config: {gates: {max_error_rate: 0.01}},
    sourceCounts: new Map(source ? [["concurrency-8", source]] : [])
  } as unknown as GateContext;
  return errorRate.evaluatePoint(p, ctx);
}
const counted = (failed: number, n: number, runs = 1): PointSourceCounts => ({tool: "vllm", runs, failed, counted: n});

describe("G3 with the source tool's own counts (imports)", () => {
  it("no request records and no counts: not evaluable", () => {
    expect(g3(0, 0)).toEqual({status: "not_evaluable", reason: "no measured requests"});
    expect(g3(0, 0, counted(0, 0))).toEqual({status: "not_evaluable", reason: "no measured requests"});
  });

  it("no request records: 8 of 8 failed by the tool's count fails (100 % > 1 %)", () => {
    expect(g3(0, 0, counted(8, 8))).toEqual({
      status: "fail",
      reason: "no request records; vllm counted 8/8 failed (100.0 %) > 1.0 %",
      evidence: {rate: 1, source: counted(8, 8)}
    });
  });

  it("no request records: a share at or below the threshold is not a pass (1 of 100, 0 of 100)", () => {
    for (const failed of [1, 0]) {
      const r = g3(0, 0, counted(failed, 100));
      expect(r.status).toBe("not_evaluable");
      expect(r.evidence).toEqual({sourceRate: failed / 100, source: counted(failed, 100)});
      expect(r.reason).toBe(
        `no request records; vllm counted ${failed}/100 failed (${failed}.0 %), by its own definition of success, which cannot be checked without the requests`
      );
    }
  });

  it("records that keep a sample: the tool's larger failed share fails, naming both (3 of 60 over 2 runs = 5 %)", () => {
    expect(g3(50, 50, counted(3, 60, 2))).toEqual({
      status: "fail",
      reason:
        "0/50 failed (0.0 %) in the records, which keep 50 of its 60 requests; vllm counted 3/60 failed over 2 runs (5.0 %) > 1.0 %",
      evidence: {rate: 0.05, recordRate: 0, source: counted(3, 60, 2)}
    });
  });

  it("records of every request the tool counted, with fewer failures than it counted: its share fails, no sample claimed", () => {
    expect(g3(100, 100, counted(2, 100)).reason).toBe(
      "0/100 failed (0.0 %) in the records; vllm counted 2/100 failed (2.0 %) > 1.0 %"
    );
  });

  it("the records' own share decides where it fails or where the tool's share is within the threshold", () => {
    expect(g3(50, 49, counted(0, 50))).toEqual({
      status: "fail",
      reason: "1/50 failed (2.0 %) > 1.0 %",
      evidence: {rate: 0.02}
    });
    expect(g3(100, 99, counted(1, 100))).toEqual({
      status: "pass",
      reason: "1/100 failed (1.0 %)",
      evidence: {rate: 0.01}
    });
    expect(g3(100, 100)).toEqual({status: "pass", reason: "0/100 failed (0.0 %)", evidence: {rate: 0}});
  });
});
