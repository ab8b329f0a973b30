import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {RequestRecord} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {collectAndAnalyze, gate, readJsonl, tempDir, testConfig} from "../helpers.ts";

/** /v1/embeddings end to end against the fake server (issue 16): one JSON answer per request, no stream. */

const target = (url: string, options: Record<string, unknown> = {}) => ({
  base_url: url,
  model: "fake-model",
  endpoint: "embeddings" as const,
  headers: {"x-fake-options": JSON.stringify({ttftMs: 4, embeddingDims: 48, ...options})},
  timeouts: {connect_ms: 2000, headers_ms: 5000, idle_ms: 3000}
});
const measured = (dir: string) =>
  readJsonl<RequestRecord>(join(dir, "requests.jsonl")).filter((r) => r.phase === "measure");
/** The median (the report's p50 is always the median), worked out here from the raw values. */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

describe("embeddings against the fake server", () => {
  it("a closed-loop run is VALID; latency, input throughput and goodput are recomputable from the raw records", async () => {
    const config = testConfig(server.url, {
      target: target(server.url),
      workload: {prompt_tokens: 24, max_tokens: 8},
      load: {mode: "concurrency", values: [2], requests: 12, warmup: 2},
      slo: {percentile: "p50", e2e_ms: 10_000, ttft_ms: 0.001}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    const recs = measured(outcome.dir);
    expect(recs).toHaveLength(12);
    for (const r of recs) {
      expect(r.events).toEqual([]);
      expect(r.body).toMatchObject({json: true, inputs: 1, vectors: [48], nonFinite: 0});
      expect(r.maxTokens).toBeNull();
      // the fake counts words: 24 intended prompt tokens
      expect(r.usage?.promptTokens).toBe(24);
      expect(r.responseDigest).toMatch(/^[0-9a-f]{64}$/); // of the whole body: the vectors can be audited by digest
    }
    const p = report.load_points[0]!;
    const m = p.metrics as Record<string, {n?: number; p50?: number | null; value?: number | null; reason?: string}>;
    const e2e = recs.map((r) => (r.tEndNs! - r.tSchedNs!) / 1e6);
    expect(m.e2e_ms!.n).toBe(12);
    expect(m.e2e_ms!.p50).toBeCloseTo(median(e2e), 9);
    // window: the first measured request's start to the last one's end
    const windowS = (Math.max(...recs.map((r) => r.tEndNs!)) - Math.min(...recs.map((r) => r.tSchedNs!))) / 1e9;
    expect(m.input_throughput_tok_s!.value).toBeCloseTo((12 * 24) / windowS, 6);
    expect(m.request_throughput_rps!.value).toBeCloseTo(12 / windowS, 6);
    // the ttft clause of the SLO (0.001 ms) cannot apply: only E2E is judged, and every request met it
    expect(m.goodput_pct!.value).toBe(100);
    // a stream's metrics and gates say why they do not apply, never 0 and never pass
    expect(m.ttft_ms!.n).toBe(0);
    expect(m.output_throughput_tok_s).toMatchObject({value: null, reason: expect.stringContaining("embeddings")});
    for (const id of ["G8", "G10", "G11", "G16", "G19", "G29"])
      expect(gate(report, id).status, id).toBe("not_applicable");
    expect(gate(report, "G12").status).toBe("pass"); // the server's prompt count vs the intended 24
  });

  it("an open-loop rate is judged on its dispatches like any open-loop point", async () => {
    const config = testConfig(server.url, {
      target: target(server.url),
      workload: {prompt_tokens: 8, max_tokens: 8},
      load: {mode: "rate", values: [40], requests: 20, warmup: 0, seed: 3}
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    expect(gate(report, "G5").status).toBe("pass");
    expect(report.load_points[0]!.n_success).toBe(20);
  });

  it.each([
    ["nan", "invalid_embedding", {embeddingFault: "nan"}],
    ["missing_vector", "invalid_embedding", {embeddingFault: "missing_vector"}],
    ["truncated_json", "parse_error", {embeddingFault: "truncated_json"}],
    ["HTTP 503", "http_error", {httpStatus: 503}]
  ])("a broken answer (%s) fails every request as %s and the run is INVALID", async (_, outcome, fault) => {
    const config = testConfig(server.url, {
      target: target(server.url, fault),
      workload: {prompt_tokens: 8, max_tokens: 8},
      load: {mode: "concurrency", values: [1], requests: 5, warmup: 0}
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    expect(report.load_points[0]!.outcomes).toEqual({[outcome]: 5});
    expect(report.verdict).toBe("INVALID");
    expect(gate(report, "G3").status).toBe("fail");
  });
});
