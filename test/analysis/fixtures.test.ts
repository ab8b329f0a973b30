import {describe, expect, it} from "vitest";

import {analyzeBundle, isSummary, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {fixtureDir} from "../support/fixtures.ts";

const analyze = (name: string) => analyzeBundle(fsBundle(fixtureDir(name)));
const gate = (r: Report, id: string) => r.gates.find((g) => g.id === id)!;
const metric = (r: Report, id: string) => r.load_points[0]!.metrics[id]!;

describe("fixture behaviour (what each hand-built bundle must show)", () => {
  it("clean: VALID, every gate passes or is disclosed, TTFT and TPOT from the synthetic timings", async () => {
    const r = await analyze("clean");
    expect(r.verdict).toBe("VALID");
    expect(r.gates.filter((g) => g.status === "fail" || g.status === "warn")).toEqual([]);
    const ttft = metric(r, "ttft_ms");
    const tpot = metric(r, "tpot_ms");
    if (!isSummary(ttft) || !isSummary(tpot)) throw new Error("expected distributions");
    expect(ttft.n).toBe(24);
    expect(ttft.p50).toBeCloseTo(46.2, 6);
    expect(tpot.p50).toBeCloseTo(9, 6);
    expect(r.load_points[0]!.n_warmup).toBe(2);
  });

  it("torn-tail: the torn final line is dropped with a warning, never an error; the run is partial", async () => {
    const r = await analyze("torn-tail");
    const torn = r.issues.filter((i) => i.code === "torn_tail");
    expect(torn).toHaveLength(1);
    expect(torn[0]).toMatchObject({severity: "warning", file: "requests.jsonl", line: 27});
    expect(r.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(r.status).toBe("partial");
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.load_points[0]!.n).toBe(24);
  });

  it("clock-regression: an event earlier than its predecessor is an error located by file, line and path", async () => {
    const r = await analyze("clock-regression");
    const e = r.issues.find((i) => i.code === "time_order")!;
    expect(e).toMatchObject({severity: "error", file: "requests.jsonl", line: 6, path: "events.4.0"});
    expect(gate(r, "G1").status).toBe("fail");
    expect(r.verdict).toBe("INVALID");
  });

  it("all-failed: metrics are null with reasons, never 0; error-rate gate fails", async () => {
    const r = await analyze("all-failed");
    const ttft = metric(r, "ttft_ms");
    if (!isSummary(ttft)) throw new Error("expected a distribution");
    expect(ttft).toMatchObject({n: 0, mean: null, p50: null});
    expect(metric(r, "output_throughput_tok_s")).toEqual({value: null, reason: "no successful requests"});
    expect(metric(r, "success_rate_pct")).toEqual({value: 0});
    expect(gate(r, "G3").status).toBe("fail");
    expect(r.load_points[0]!.failures[0]).toMatchObject({outcome: "http_error", count: 24, httpStatus: 503});
    expect(r.verdict).toBe("INVALID");
  });

  it("no-usage: token counts unknown → token metrics and goodput are null, token gate warns", async () => {
    const r = await analyze("no-usage");
    expect(metric(r, "tpot_ms")).toMatchObject({n: 0, p50: null});
    expect(metric(r, "output_throughput_tok_s")).toMatchObject({value: null});
    expect(metric(r, "goodput_pct")).toMatchObject({value: null});
    expect(gate(r, "G8").status).toBe("warn");
    expect(r.verdict).toBe("INCONCLUSIVE");
    const ttft = metric(r, "ttft_ms");
    expect(isSummary(ttft) && ttft.n).toBe(24);
  });

  it("warmup-only: no measured request, nothing reported as zero", async () => {
    const r = await analyze("warmup-only");
    const p = r.load_points[0]!;
    expect(p.n).toBe(0);
    expect(p.n_warmup).toBe(2);
    expect(p.metrics["request_throughput_rps"]).toEqual({value: null, reason: "no measured requests"});
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("multi-token: per-token ITL differs from inter-chunk latency by the tokens per chunk", async () => {
    const r = await analyze("multi-token");
    const icl = metric(r, "inter_chunk_ms");
    const itl = metric(r, "itl_token_ms");
    if (!isSummary(icl) || !isSummary(itl)) throw new Error("expected distributions");
    expect(icl.p50).toBeCloseTo(36, 6);
    expect(itl.p50).toBeCloseTo(9, 6);
    expect(itl.n).toBe(24 * 60);
    expect(metric(r, "tokens_per_chunk")).toEqual({value: 4});
    expect(gate(r, "G10").status).toBe("info");
  });

  it("inband-error: an error event inside a 200 stream is a failure of its own class", async () => {
    const r = await analyze("inband-error");
    expect(r.load_points[0]!.outcomes).toEqual({success: 21, inband_error: 3});
    expect(metric(r, "goodput_pct")).toEqual({value: 87.5});
  });

  it("digest-mismatch: G1 names the file and both digests; verdict INVALID", async () => {
    const r = await analyze("digest-mismatch");
    expect(gate(r, "G1").status).toBe("fail");
    expect(gate(r, "G1").reason).toMatch(/requests\.jsonl has sha256 [0-9a-f]{12}… \(\d+ B\), manifest says/);
    expect(r.verdict).toBe("INVALID");
  });

  it("open-loop-backlog: latency counts from the schedule; the dispatch view does not see the backlog", async () => {
    const r = await analyze("open-loop-backlog");
    const sched = metric(r, "ttft_ms");
    const disp = metric(r, "ttft_dispatch_ms");
    if (!isSummary(sched) || !isSummary(disp)) throw new Error("expected distributions");
    expect(sched.max! - disp.max!).toBeGreaterThan(250);
    expect(gate(r, "G6").status).toBe("warn");
    expect(gate(r, "G7").status).toBe("pass");
  });
});
