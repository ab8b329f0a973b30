import {describe, expect, it} from "vitest";

import type {Manifest, RequestRecord} from "../../../src/analysis/schema/index.ts";
import {analyzeSpec, cleanRun, gateOf, lane, MS, point, streamed, type BundleSpec} from "../../support/bundle.ts";

/**
 * G30 request accounting (issue 11 item 3). Every case is a hand-built bundle whose planned and recorded
 * requests are written out here; the expected counts and indexes are read off the construction.
 */

type Rec = Omit<RequestRecord, "seq">;
const SLOW = [3, 11, 19, 27, 35];
const RATE20 = [point("rate", 20, {requests: 40})];

/** 40 constant-rate requests (20 req/s: one every 50 ms), ids as the collector writes them; the 5 of SLOW take 400 ms, the rest 100 ms. */
function rateRun(): BundleSpec {
  const requests = Array.from({length: 40}, (_, i) =>
    streamed(`run1-rate-20-r0-m${i}`, i * 50, {point: "rate-20", durMs: SLOW.includes(i) ? 400 : 100})
  );
  return cleanRun(requests, {points: RATE20});
}

/** A lifecycle note of the client log, as the collector writes it. */
const note = (
  event: string,
  detail: Record<string, unknown>,
  pointId: string | null = "rate-20",
  repeat: number | null = 0
) => ({
  kind: "note" as const,
  tNs: 0,
  event,
  point: pointId,
  repeat,
  detail
});

const withNotes = (spec: BundleSpec, notes: ReturnType<typeof note>[]): BundleSpec => ({
  ...spec,
  client: [...notes, ...(spec.client ?? [])]
});

const g30 = (r: Awaited<ReturnType<typeof analyzeSpec>>) => gateOf(r, "G30");

describe("G30 request accounting, open loop", () => {
  it("passes 40 planned and 40 recorded requests, and the run is VALID", async () => {
    const r = await analyzeSpec(rateRun());
    expect(g30(r).status).toBe("pass");
    expect(g30(r).reason).toBe("40 measured requests planned, 40 recorded");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails when the 5 slowest records are deleted and the bundle resealed: INVALID, not a better tail", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({...spec, requests: spec.requests.filter((q) => !SLOW.includes(q.index))});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      "5 planned request(s) lost — neither recorded nor noted as never sent: repeat 0 measure: 5 of 40 (index 3, 11, 19, 27, 35)"
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("fails when the records and their schedule entries are both deleted (the declared count is the plan)", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({
      ...spec,
      requests: spec.requests.filter((q) => !SLOW.includes(q.index)),
      schedule: spec.schedule!.filter((s) => !SLOW.includes(s.index))
    });
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toMatch(/^5 planned request\(s\) lost .*index 3, 11, 19, 27, 35\)$/);
  });

  it("fails when schedule.jsonl is removed: a collected open-loop point needs its plan", async () => {
    const {schedule: _gone, ...spec} = rateRun();
    const r = await analyzeSpec({...spec, manifest: {provenance: {kind: "collected"}}});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      "open-loop requests without schedule.jsonl entries: the plan they were measured against is missing"
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("fails a duplicated record (41 records of 40 planned)", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({...spec, requests: [...spec.requests, spec.requests[7]!]});
    expect(r.load_points[0]!.n).toBe(41);
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe("1 request(s) recorded twice: measure #7 of repeat 0 (requests.jsonl:41)");
    expect(r.verdict).toBe("INVALID");
  });

  it("fails a record the plan never had (index 40 of 40) and a record with no schedule entry", async () => {
    const spec = rateRun();
    const extra = {...spec.requests[0]!, id: "run1-rate-20-r0-m40", index: 40};
    const r = await analyzeSpec({...spec, requests: [...spec.requests, extra]});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      "1 record(s) with no schedule entry: measure #40 of repeat 0 (requests.jsonl:41); repeat 0 measure: 1 record(s) beyond the plan of 40 (index 40)"
    );
  });

  it("fails a record whose scheduled time was moved off the schedule (request 3 rescheduled 30 ms later)", async () => {
    const spec = rateRun();
    const requests = spec.requests.map((q) => (q.index === 3 ? {...q, tSchedNs: q.tSchedNs! + 30 * MS} : q));
    const r = await analyzeSpec({...spec, requests});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      "1 scheduled time(s) differ from schedule.jsonl: measure #3 of repeat 0 (requests.jsonl:4): scheduled at 0.180000 s, the schedule says 0.150000 s"
    );
  });

  it("fails when the plan_end note counts more planned requests than schedule.jsonl holds", async () => {
    const spec = rateRun();
    const r = await analyzeSpec(withNotes(spec, [note("plan_end", {phase: "measure", scheduled: 41})]));
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe("repeat 0 measure: the plan_end note says 41 planned, schedule.jsonl holds 40");
  });

  it("accepts an interrupted run that noted its unsent requests (20 sent, 20 never sent), and says why", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({
      ...withNotes(spec, [
        note("interrupt", {reason: "interrupted by SIGINT"}, null, null),
        note("not_sent", {phase: "measure", from: 20, to: 39, reason: "interrupt: interrupted by SIGINT"}),
        note("phase_end", {phase: "measure", sent: 20})
      ]),
      requests: spec.requests.filter((q) => q.index < 20),
      schedule: spec.schedule!.filter((s) => s.index < 30), // the plan was written 10 ahead of the dispatch
      manifest: {status: "interrupted", statusReason: "interrupted by SIGINT"}
    });
    expect(g30(r).status).toBe("pass");
    expect(g30(r).reason).toBe(
      "40 measured requests planned, 20 recorded, 20 never sent (interrupt: interrupted by SIGINT)"
    );
  });

  it("fails an interrupted run whose collector counts its sends when a record is missing anyway", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({
      ...withNotes(spec, [
        note("not_sent", {phase: "measure", from: 20, to: 39, reason: "interrupt: interrupted by SIGINT"}),
        note("phase_end", {phase: "measure", sent: 20})
      ]),
      requests: spec.requests.filter((q) => q.index < 20 && q.index !== 11),
      manifest: {status: "interrupted", statusReason: "interrupted by SIGINT"}
    });
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toMatch(/^1 planned request\(s\) lost .*: repeat 0 measure: 1 of 40 \(index 11\)$/);
  });

  it("warns (INCONCLUSIVE, not INVALID) when a killed collector (status partial) left requests unaccounted", async () => {
    const spec = rateRun();
    const r = await analyzeSpec({
      ...spec,
      requests: spec.requests.filter((q) => q.index < 30),
      manifest: {status: "partial", statusReason: "sealed after a crash"}
    });
    expect(g30(r).status).toBe("warn");
    expect(g30(r).reason).toBe(
      "10 planned request(s) have neither a record nor a not-sent note — the collector stopped before it could account for them (status partial): repeat 0 measure: 10 of 40 (index 30, 31, 32, 33, 34 … (10 in all))"
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("fails a record of a request the log notes as never sent", async () => {
    const spec = rateRun();
    const r = await analyzeSpec(
      withNotes(spec, [
        note("not_sent", {phase: "measure", from: 38, to: 39, reason: "the phase ended before they were due"})
      ])
    );
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe("repeat 0 measure: 2 record(s) of requests noted as never sent");
  });
});

describe("G30 request accounting, closed loop and ids", () => {
  const conc2 = [point("concurrency", 2, {requests: 20})];
  /** Two slots of 10 back-to-back requests (a closed loop at concurrency 2), numbered by send time. */
  const closed = () =>
    cleanRun(
      [...lane("x-concurrency-2-r0-m", 10), ...lane("y-", 10)].map((q) => ({...q, point: "concurrency-2"})),
      {points: conc2}
    );

  it("passes 20 planned and 20 recorded, ids unique though some look like the collector form of another index", async () => {
    const r = await analyzeSpec(closed());
    expect(g30(r).reason).toBe("20 measured requests planned, 20 recorded");
    expect(g30(r).status).toBe("pass");
  });

  it("fails one id given to two requests, naming it", async () => {
    const spec = closed();
    const requests = spec.requests.map((q) =>
      q.index === 5 ? {...q, id: spec.requests.find((o) => o.index === 4)!.id} : q
    );
    const r = await analyzeSpec({...spec, requests});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toMatch(/^1 request id\(s\) recorded more than once: \S+ \(requests\.jsonl:\d+\)$/);
  });

  it("fails a request that reuses the collector-form id of another (same run prefix, other index)", async () => {
    const requests = Array.from({length: 20}, (_, i) => streamed(`run1-concurrency-1-r0-m${i}`, i * 100, {index: i}));
    requests[9] = {...requests[9]!, id: "run1-concurrency-1-r0-m2"};
    const r = await analyzeSpec({requests, points: [point("concurrency", 1, {requests: 20})]});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      // the 10th record, on line 10 of requests.jsonl
      "1 request id(s) recorded more than once: run1-concurrency-1-r0-m2 (requests.jsonl:10; also the id of concurrency-1 measure #2)"
    );
  });

  it("fails the load point holding a shared id, and that point's verdict is INVALID; the other point stays VALID", async () => {
    // two closed-loop points of 20 requests each, ids in the collector's form; the 8th request of concurrency-2
    // is given the id of its 3rd: a record of that point is ambiguous, concurrency-1's records are not
    const points = [point("concurrency", 1, {requests: 20}), point("concurrency", 2, {requests: 20})];
    const one = lane("run1-concurrency-1-r0-m", 20).map((q) => ({...q, point: "concurrency-1"}));
    const two = lane("run1-concurrency-2-r0-m", 20, {startMs: 5000}).map((q) => ({...q, point: "concurrency-2"}));
    two[7] = {...two[7]!, id: "run1-concurrency-2-r0-m2"};
    const r = await analyzeSpec(cleanRun([...one, ...two], {points}));
    expect(g30(r).status).toBe("fail");
    expect(g30(r).points!.map((p) => [p.point, p.status])).toEqual([
      ["concurrency-1", "pass"],
      ["concurrency-2", "fail"]
    ]);
    // the 28th record (20 of concurrency-1, then the 8th of concurrency-2), on line 28 of requests.jsonl
    expect(g30(r).points![1]!.reason).toBe(
      "1 request id(s) recorded more than once: run1-concurrency-2-r0-m2 (requests.jsonl:28; also the id of concurrency-2 measure #2)"
    );
    expect(r.verdict).toBe("INVALID");
    expect(r.load_points.map((p) => [p.id, p.verdict])).toEqual([
      ["concurrency-1", "VALID"],
      ["concurrency-2", "INVALID"]
    ]);
  });

  it("takes a duration-bound closed loop's plan from the phase_end note (12 sent, 11 recorded → 1 lost)", async () => {
    const requests = Array.from({length: 12}, (_, i) => streamed(`r${i}`, i * 100, {index: i}));
    const spec: BundleSpec = {
      requests: requests.filter((q) => q.index !== 11),
      points: [point("concurrency", 1, {durationS: 1.2})],
      client: [note("phase_end", {phase: "measure", sent: 12}, "concurrency-1", 0)]
    };
    const r = await analyzeSpec(spec);
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe(
      "1 planned request(s) lost — neither recorded nor noted as never sent: repeat 0 measure: 1 of 12 (index 11)"
    );
  });

  it("checks a duration-bound closed loop without send counts (bundle v1) for gaps in its indexes", async () => {
    const requests = [0, 1, 2, 4].map((i) => streamed(`r${i}`, i * 100, {index: i}));
    const r = await analyzeSpec({requests});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toMatch(/: repeat 0 measure: 1 missing from indexes 0…4 \(index 3\)$/);
  });

  it("accounts for the phases an interrupt kept from starting as never sent", async () => {
    const points = [point("concurrency", 1, {requests: 5}), point("concurrency", 2, {requests: 5, warmup: 2})];
    const requests = Array.from({length: 5}, (_, i) => streamed(`r${i}`, i * 100, {index: i}));
    const r = await analyzeSpec({
      requests,
      points,
      client: [note("interrupt", {reason: "interrupted by SIGTERM"}, null, null)],
      manifest: {status: "interrupted", statusReason: "interrupted by SIGTERM"}
    });
    expect(g30(r).status).toBe("pass");
    expect(g30(r).points!.map((p) => p.reason)).toEqual([
      "5 measured requests planned, 5 recorded",
      "5 measured requests planned, 0 recorded, 5 never sent (never started: interrupted by SIGTERM)"
    ]);
  });

  it("judges an imported bundle by what its source kept: unique ids pass, a repeated id fails", async () => {
    const imported: Partial<Manifest> = {
      provenance: {
        kind: "imported",
        tool: "vllm",
        toolVersion: null,
        files: [{name: "b.json", sha256: "a".repeat(64), bytes: 1}]
      }
    };
    const requests: Rec[] = Array.from({length: 6}, (_, i) => streamed(`req-${i}`, i * 100, {index: 0}));
    const ok = await analyzeSpec({requests, manifest: imported});
    expect(g30(ok).status).toBe("pass");
    expect(g30(ok).reason).toBe(
      "6 requests kept by the source, ids unique (imported: no schedule, judged by what the source kept)"
    );
    const bad = await analyzeSpec({requests: [...requests, requests[2]!], manifest: imported});
    expect(g30(bad).status).toBe("fail");
    expect(g30(bad).reason).toBe("1 request id(s) recorded more than once: req-2 (requests.jsonl:7)");
  });

  it("reports a hostile index (10^15) as beyond the plan without sizing anything by it", async () => {
    const requests = Array.from({length: 5}, (_, i) => streamed(`r${i}`, i * 100, {index: i}));
    requests.push(streamed("r-far", 600, {index: 1e15}));
    const r = await analyzeSpec({requests, points: [point("concurrency", 1, {requests: 5})]});
    expect(g30(r).status).toBe("fail");
    expect(g30(r).reason).toBe("repeat 0 measure: 1 record(s) beyond the plan of 5 (index 1000000000000000)");
  });
});
