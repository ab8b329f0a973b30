import {readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest, RequestRecord, ScheduleRecord} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {arrivalOffsetsNs} from "../../../collector/load/schedule.ts";
import {WARMUP_SEED_OFFSET} from "../../../collector/run/collect.ts";
import {collectAndAnalyze, gate, readJsonl, tempDir, testConfig} from "../helpers.ts";

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

function bundleFiles(dir: string) {
  return {
    manifest: JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest,
    requests: readJsonl<RequestRecord>(join(dir, "requests.jsonl")),
    schedule: readJsonl<ScheduleRecord>(join(dir, "schedule.jsonl")),
    client: readJsonl<{kind: string; event?: string; point?: string | null}>(join(dir, "client_metrics.jsonl"))
  };
}

describe("collect against the fake server", () => {
  it("closed loop: every value, warmup drained first, repeats; one record per planned request", async () => {
    const config = testConfig(server.url, {
      load: {mode: "concurrency", values: [1, 3], requests: 12, warmup: 2, repeats: 2}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(outcome.status).toBe("complete");
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    const b = bundleFiles(outcome.dir);
    expect(b.manifest.loadPoints.map((p) => p.id)).toEqual(["concurrency-1", "concurrency-3"]);
    expect(b.requests).toHaveLength((12 + 2) * 2 * 2);
    expect(b.requests.map((r) => r.seq)).toEqual([...Array(56).keys()]);
    for (const p of report.load_points) expect([p.n, p.n_success, p.n_warmup, p.repeats]).toEqual([24, 24, 4, 2]);
    // warmup of each repeat ends before its first measured dispatch
    for (const point of ["concurrency-1", "concurrency-3"])
      for (const rep of [0, 1]) {
        const mine = b.requests.filter((r) => r.point === point && r.repeat === rep);
        const warmEnd = Math.max(...mine.filter((r) => r.phase === "warmup").map((r) => r.tEndNs!));
        const firstMeasure = Math.min(...mine.filter((r) => r.phase === "measure").map((r) => r.tDispNs!));
        expect(warmEnd).toBeLessThan(firstMeasure);
      }
    // closed loop: the first 3 share the phase start; the others start when a slot frees
    const m = b.requests.filter((r) => r.point === "concurrency-3" && r.repeat === 0 && r.phase === "measure");
    const ends = new Set(m.map((r) => r.tEndNs));
    const starts = m.filter((r) => r.index < 3).map((r) => r.tSchedNs);
    expect(new Set(starts).size).toBe(1);
    expect(m.filter((r) => r.index >= 3).every((r) => ends.has(r.tSchedNs))).toBe(true);
    expect(gate(report, "G14").status).toBe("pass");
    expect(b.schedule).toHaveLength(0);
    expect(b.client.filter((r) => r.event === "point_start").map((r) => r.point)).toEqual([
      "concurrency-1",
      "concurrency-3"
    ]);
    expect(b.client.some((r) => r.kind === "loop")).toBe(true);
  });

  it("constant rate: the schedule is on disk, tSched follows it exactly, spacing passes G21", async () => {
    const config = testConfig(server.url, {load: {mode: "rate", values: [100], requests: 25, warmup: 3, seed: 5}});
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.verdict).toBe("VALID");
    const b = bundleFiles(outcome.dir);
    expect(b.schedule.filter((s) => s.phase === "measure").map((s) => s.offsetNs)).toEqual(
      arrivalOffsetsNs({mode: "rate", rate: 100, burstiness: 1, seed: 5, count: 25})
    );
    expect(b.schedule.filter((s) => s.phase === "warmup")).toHaveLength(3);
    const m = b.requests.filter((r) => r.phase === "measure").sort((a, c) => a.index - c.index);
    const t0 = m[0]!.tSchedNs!;
    expect(m.map((r) => r.tSchedNs! - t0)).toEqual(
      b.schedule.filter((s) => s.phase === "measure").map((s) => s.offsetNs)
    );
    expect(new Set(b.schedule.map((s) => s.requestId))).toEqual(new Set(b.requests.map((r) => r.id)));
    expect(gate(report, "G21").status).toBe("pass");
    expect(gate(report, "G7").status).toBe("pass");
    expect(b.manifest.prng).toEqual({name: "mulberry32", seed: 5});
  });

  it("poisson and gamma: seeded schedules (seed + repeat; warmup offset), recorded PRNG", async () => {
    const config = testConfig(server.url, {
      load: [
        {mode: "poisson", values: [60], requests: 20, warmup: 2, seed: 11, repeats: 2},
        {mode: "gamma", values: [60], requests: 20, warmup: 0, seed: 11, burstiness: 0.5}
      ]
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.load_points.map((p) => [p.id, p.n, p.n_success])).toEqual([
      ["poisson-60", 40, 40],
      ["gamma-60", 20, 20]
    ]);
    const b = bundleFiles(outcome.dir);
    const offsets = (point: string, repeat: number, phase: string) =>
      b.schedule.filter((s) => s.point === point && s.repeat === repeat && s.phase === phase).map((s) => s.offsetNs);
    expect(offsets("poisson-60", 1, "measure")).toEqual(
      arrivalOffsetsNs({mode: "poisson", rate: 60, burstiness: 1, seed: 12, count: 20})
    );
    expect(offsets("poisson-60", 0, "warmup")).toEqual(
      arrivalOffsetsNs({mode: "poisson", rate: 60, burstiness: 1, seed: 11 + WARMUP_SEED_OFFSET, count: 2})
    );
    expect(offsets("gamma-60", 0, "measure")).toEqual(
      arrivalOffsetsNs({mode: "gamma", rate: 60, burstiness: 0.5, seed: 11, count: 20})
    );
    expect(b.manifest.loadPoints.find((p) => p.id === "gamma-60")?.burstiness).toBe(0.5);
    expect(report.verdict).not.toBe("INVALID");
  });

  it("duration-bound: closed and open loop stop dispatching at the duration", async () => {
    const config = testConfig(server.url, {
      load: [
        {mode: "concurrency", values: [2], duration_s: 0.3, warmup: 0},
        {mode: "rate", values: [40], duration_s: 0.3, warmup: 0}
      ]
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    const b = bundleFiles(outcome.dir);
    const closed = b.requests.filter((r) => r.point === "concurrency-2");
    const start = Math.min(...closed.map((r) => r.tSchedNs!));
    expect(closed.length).toBeGreaterThan(4);
    expect(closed.every((r) => r.tDispNs! - start < 0.3e9 + 20e6)).toBe(true);
    expect(b.schedule.filter((s) => s.point === "rate-40")).toHaveLength(12);
    expect(b.requests.filter((r) => r.point === "rate-40")).toHaveLength(12);
    expect(b.manifest.loadPoints.map((p) => [p.requests, p.durationS])).toEqual([
      [null, 0.3],
      [null, 0.3]
    ]);
    expect(report.load_points.every((p) => p.n_success === p.n)).toBe(true);
  });

  it("max_concurrency caps open-loop in-flight requests; latency still counts from the schedule", async () => {
    const config = testConfig(server.url, {
      load: {mode: "rate", values: [500], requests: 12, warmup: 0, max_concurrency: 1}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    const m = bundleFiles(outcome.dir).requests.sort((a, c) => a.tDispNs! - c.tDispNs!);
    for (let i = 1; i < m.length; i++) expect(m[i]!.tDispNs!).toBeGreaterThanOrEqual(m[i - 1]!.tEndNs!);
    const lag = m.map((r) => r.tDispNs! - r.tSchedNs!);
    expect(lag[lag.length - 1]!).toBeGreaterThan(lag[1]! + 20e6); // backlog grows: 2 ms spacing vs ~10 ms service
    const p = report.load_points[0]!;
    const ttft = p.metrics.ttft_ms as {mean: number};
    const ttftDisp = p.metrics.ttft_dispatch_ms as {mean: number};
    expect(ttft.mean).toBeGreaterThan(ttftDisp.mean + 10);
    expect(gate(report, "G5").status).toBe("fail"); // the client could not deliver 500 req/s with one slot
  });

  it("records exactly the events the server sent, for every request", async () => {
    server.clearSendLog();
    const config = testConfig(server.url, {load: {mode: "concurrency", values: [4], requests: 12, warmup: 1}});
    const {outcome} = await collectAndAnalyze(config, t.dir);
    const sent = new Map<string, number>();
    for (const e of server.sendLog()) sent.set(e.requestId, (sent.get(e.requestId) ?? 0) + e.events);
    const recs = bundleFiles(outcome.dir).requests;
    expect(recs).toHaveLength(13);
    for (const r of recs) expect(r.events.length).toBe(sent.get(r.id));
    expect(recs.every((r) => r.salt !== null && r.promptDigest !== null && r.responseDigest !== null)).toBe(true);
    expect(new Set(recs.map((r) => r.salt)).size).toBe(13);
  });
});
