import {describe, expect, it} from "vitest";

import type {Manifest, RequestRecord} from "../../../src/analysis/schema/index.ts";
import type {MergeFacts, TimeSync} from "../../../src/analysis/schema/shard.ts";
import {analyzeSpec, gateOf, loopSamples, MS, point, streamed, type BundleSpec} from "../../support/bundle.ts";

/**
 * Issue 17: a sharded experiment accounted for and judged as one (G30 with slices, G32). Each bundle is
 * hand-built: a closed-loop point of concurrency 2 and 10 requests split over 2 shards — shard 0 owns the
 * ordinals 0, 2, 4, 6, 8 and shard 1 the ordinals 1, 3, 5, 7, 9, each sending one request at a time (its
 * share of the concurrency, 2 / 2), 100 ms apiece. The expected counts and ordinals are read off that plan.
 */

type Rec = Omit<RequestRecord, "seq">;
const POINT = point("concurrency", 2, {requests: 10});
const UNKNOWN_SYNC: TimeSync = {source: null, synchronized: null, offsetMs: null, raw: null, reason: "none answered"};
const CONFIG = {
  slo: {percentile: "p50" as const},
  gates: {min_samples: 5},
  load: {mode: "concurrency" as const, values: [2], requests: 10, warmup: 0}
};

/** Shard k's five requests, back to back from `startMs`; its ordinals k, k + 2, … */
function shardLane(k: number, startMs: number, n = 5, durMs = 100): Rec[] {
  return Array.from({length: n}, (_, j) => {
    const index = k + 2 * j;
    return {
      ...streamed(`ab12cd-concurrency-2-r0-m${index}`, startMs + j * durMs, {point: POINT.id, index, durMs}),
      shard: k
    };
  });
}

const startOf = (k: number, tMs: number) => phaseStart(k, tMs);
const phaseStart = (k: number, tMs: number) => ({
  kind: "note" as const,
  shard: k,
  tNs: Math.round(tMs * MS),
  event: "phase_start",
  point: POINT.id,
  repeat: 0,
  detail: {phase: "measure"}
});

function merge(hosts: [string | null, string | null] = ["h0", "h1"]): MergeFacts {
  return {
    planSha256: "a".repeat(64),
    count: 2,
    telemetryFrom: 0,
    shards: [0, 1].map((k) => ({
      index: k,
      bundleId: `shard${k}`,
      manifestSha256: "b".repeat(64),
      host: hosts[k]!,
      offsetNs: 0,
      offsetUncertaintyMs: 1.5,
      startLateNs: 0,
      timeSync: UNKNOWN_SYNC
    }))
  };
}

/** A merged bundle of both shards, shard 1 starting `skewMs` after shard 0. */
function merged(skewMs: number, o: {requests?: Rec[]; manifest?: Partial<Manifest>} = {}): BundleSpec {
  const requests = o.requests ?? [...shardLane(0, 0), ...shardLane(1, skewMs)];
  return {
    config: CONFIG,
    points: [POINT],
    requests,
    client: [phaseStart(0, 0), phaseStart(1, skewMs), ...loopSamples(0, 600 + skewMs)],
    manifest: {merge: merge(), ...o.manifest}
  };
}

describe("G30 accounts a sharded experiment by its slices", () => {
  it("a merged bundle with every ordinal of both shards: 10 planned, 10 recorded, VALID", async () => {
    const r = await analyzeSpec(merged(3));
    expect(gateOf(r, "G30").status).toBe("pass");
    expect(gateOf(r, "G30").reason).toBe("10 measured requests planned, 10 recorded");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("a merged bundle that lacks shard 1's records loses exactly its five ordinals", async () => {
    const r = await analyzeSpec(merged(3, {requests: shardLane(0, 0)}));
    expect(gateOf(r, "G30").status).toBe("fail");
    expect(gateOf(r, "G30").reason).toBe(
      "5 planned request(s) lost — neither recorded nor noted as never sent: shard 1 repeat 0 measure: 5 of 5 (index 1, 3, 5, 7, 9)"
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("a record of an ordinal its shard does not own lies beyond that shard's plan", async () => {
    const requests = [...shardLane(0, 0), ...shardLane(1, 3)];
    // shard 0 claims ordinal 3, which is shard 1's (and shard 1 has it too)
    requests.push({...streamed("ab12cd-concurrency-2-r0-x3", 600, {point: POINT.id, index: 3}), shard: 0});
    const r = await analyzeSpec(merged(3, {requests}));
    expect(gateOf(r, "G30").status).toBe("fail");
    expect(gateOf(r, "G30").reason).toBe("shard 0 repeat 0 measure: 1 record(s) beyond the plan of 5 (index 3)");
  });

  it("a record naming a shard the bundle does not have is not silently counted", async () => {
    const requests = [...shardLane(0, 0), ...shardLane(1, 3)];
    requests.push({...streamed("ab12cd-concurrency-2-r0-m11", 600, {point: POINT.id, index: 11}), shard: 2});
    const r = await analyzeSpec(merged(3, {requests}));
    expect(gateOf(r, "G30").status).toBe("fail");
    expect(gateOf(r, "G30").reason).toBe("1 record(s) of a shard this bundle does not have");
  });

  it("a not-sent note names global ordinals: shard 1's 7 and 9 of the range 7…9 are accounted for", async () => {
    const spec = merged(3, {requests: [...shardLane(0, 0), ...shardLane(1, 3, 3)]});
    spec.client!.push({
      kind: "note",
      shard: 1,
      tNs: 400 * MS,
      event: "not_sent",
      point: POINT.id,
      repeat: 0,
      detail: {phase: "measure", from: 7, to: 9, reason: "interrupt: interrupted by SIGINT"}
    });
    const r = await analyzeSpec(spec);
    expect(gateOf(r, "G30").status).toBe("pass");
    expect(gateOf(r, "G30").reason).toBe(
      "10 measured requests planned, 8 recorded, 2 never sent (interrupt: interrupted by SIGINT)"
    );
  });

  it("a shard's own bundle accounts for its slice only: 5 planned, 5 recorded", async () => {
    const r = await analyzeSpec({
      config: CONFIG,
      points: [POINT],
      requests: shardLane(1, 0).map(({shard: _s, ...rest}) => rest),
      client: loopSamples(0, 600),
      manifest: {
        shard: {
          index: 1,
          count: 2,
          planSha256: "a".repeat(64),
          startAt: null,
          startLateNs: null,
          timeSync: UNKNOWN_SYNC
        }
      }
    });
    expect(gateOf(r, "G30").reason).toBe("5 measured requests planned, 5 recorded");
    // its share of the concurrency is 1 of 2: one request in flight is the whole of its load
    expect(gateOf(r, "G5").status).toBe("pass");
    expect(gateOf(r, "G5").reason).toBe("r0: peak 1/1, mean 1.00 while dispatching");
    expect(gateOf(r, "G32").status).toBe("warn");
    expect(gateOf(r, "G32").reason).toMatch(/^this bundle is shard 1 of 2: it carries 1\/2 of the experiment's load/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });
});

describe("G32 shards start together", () => {
  it("does not apply to an unsharded run", async () => {
    const r = await analyzeSpec({
      ...merged(0),
      manifest: {},
      requests: shardLane(0, 0).map(({shard: _s, ...x}) => ({...x, point: POINT.id}))
    });
    expect(gateOf(r, "G32").status).toBe("not_applicable");
  });

  it("passes measured phases 3 ms apart and states how well the shards are placed", async () => {
    const g = gateOf(await analyzeSpec(merged(3)), "G32");
    expect(g.status).toBe("pass");
    expect(g.reason).toBe(
      "2 shards; measured phases started within 3.0 ms of each other (worst: concurrency-2 repeat 0); placement on one timeline ±1.5 ms; time sync not confirmed on shard 0, 1: the window and throughput carry that host's unknown clock error"
    );
  });

  it("one host: its one clock needs no sync", async () => {
    const g = gateOf(await analyzeSpec(merged(3, {manifest: {merge: merge(["box", "box"])}})), "G32");
    expect(g.reason).toMatch(/; every shard ran on one host \(one clock\)$/);
  });

  it("makes the run INCONCLUSIVE when the shards started 150 ms apart (tolerance 100 ms)", async () => {
    // 1 s requests: the 150 ms at the window's edges leave the mean in flight at 1.94 of 2 (G5 holds)
    const requests = [...shardLane(0, 0, 5, 1000), ...shardLane(1, 150, 5, 1000)];
    const r = await analyzeSpec({
      ...merged(150, {requests}),
      client: [phaseStart(0, 0), phaseStart(1, 150), ...loopSamples(0, 5200)]
    });
    const g = gateOf(r, "G32");
    expect(g.status).toBe("warn");
    expect(g.reason).toMatch(
      /^the shards started concurrency-2 repeat 0 150\.0 ms apart \(shard 0 first, shard 1 last\) > 100 ms; /
    );
    expect(g.evidence.worstSkewMs).toBe(150);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("INCONCLUSIVE");
  });

  it("honours a wider tolerance from the config", async () => {
    const spec = merged(150);
    spec.config = {...CONFIG, gates: {min_samples: 5, max_shard_start_skew_ms: 200}};
    expect(gateOf(await analyzeSpec(spec), "G32").status).toBe("pass");
  });

  const g32 = async (spec: BundleSpec) => gateOf(await analyzeSpec(spec), "G32");
  const note = (k: number | undefined, tMs: number, event: string, phase: string, repeat = 0) => ({
    kind: "note" as const,
    ...(k === undefined ? {} : {shard: k}),
    tNs: Math.round(tMs * MS),
    event,
    point: POINT.id,
    repeat,
    detail: {phase}
  });

  it("reads only the measured phases' first start per shard: warmups, other notes and repeats do not count", async () => {
    const spec = merged(3);
    spec.client = [
      note(1, 900, "phase_start", "warmup"), // a warmup 900 ms after: not a measured start
      note(1, 700, "point_start", "measure"), // another event
      startOf(0, 0),
      startOf(1, 3),
      note(1, 500, "phase_start", "measure"), // a second start of shard 1: the first counts
      ...loopSamples(0, 700)
    ];
    expect((await g32(spec)).evidence.worstSkewMs).toBe(3);
  });

  it("names the worst phase and orders shards by when they started (shard 1 first here)", async () => {
    const spec = merged(0);
    spec.points = [{...POINT, repeats: 2}];
    spec.client = [
      startOf(0, 10),
      startOf(1, 0),
      note(0, 700, "phase_start", "measure", 1),
      note(1, 750, "phase_start", "measure", 1),
      ...loopSamples(0, 1300)
    ];
    const requests = [...shardLane(0, 10), ...shardLane(1, 0)];
    spec.requests = [
      ...requests,
      ...requests.map((r) => ({
        ...r,
        id: `${r.id}-r1`,
        repeat: 1,
        tSchedNs: r.tSchedNs! + 700 * MS,
        tDispNs: r.tDispNs! + 700 * MS,
        tHdrNs: r.tHdrNs! + 700 * MS,
        tByte1Ns: r.tByte1Ns! + 700 * MS,
        tEndNs: r.tEndNs! + 700 * MS,
        events: r.events.map((e) => [e[0] + 700 * MS, ...e.slice(1)] as typeof e)
      }))
    ];
    const g = await g32(spec);
    expect(g.evidence.worstSkewMs).toBe(50);
    expect(g.reason).toMatch(
      /^2 shards; measured phases started within 50\.0 ms of each other \(worst: concurrency-2 repeat 1\)/
    );
    const apart = merged(150);
    apart.client = [startOf(0, 150), startOf(1, 0), ...loopSamples(0, 800)];
    expect((await g32(apart)).reason).toMatch(/150\.0 ms apart \(shard 1 first, shard 0 last\)/);
  });

  it("is not evaluable without any measured start, and says which shard never started a phase", async () => {
    const none = merged(0);
    none.client = loopSamples(0, 600);
    const g = await g32(none);
    expect(g.status).toBe("not_evaluable");
    expect(g.reason).toMatch(/^no measured phase started on any shard; placement on one timeline ±1\.5 ms/);
    const half = merged(0);
    half.client = [startOf(0, 0), ...loopSamples(0, 600)];
    const h = await g32(half);
    expect(h.status).toBe("warn");
    expect(h.reason).toMatch(
      /^measured phases missing on some shards: concurrency-2 repeat 0 \(1 of 2 shards\); placement/
    );
  });

  it("passes a spread of exactly the tolerance, and joins several problems with '; '", async () => {
    const edge = merged(100, {requests: [...shardLane(0, 0, 5, 1000), ...shardLane(1, 100, 5, 1000)]});
    edge.client = [startOf(0, 0), startOf(1, 100), ...loopSamples(0, 5200)];
    expect((await g32(edge)).status).toBe("pass");
    const spec = merged(150);
    spec.manifest = {merge: {...merge(), count: 3, shards: [...merge().shards]}};
    spec.client = [startOf(0, 0), startOf(1, 150), ...loopSamples(0, 800)];
    const g = await g32(spec);
    expect(g.reason).toMatch(
      /^measured phases missing on some shards: concurrency-2 repeat 0 \(2 of 3 shards\); the shards started .* > 100 ms; placement/
    );
  });

  it("states the placement from the shards that have a bound, 'unknown' when none has, nothing about sync when all are synchronised", async () => {
    const synced: TimeSync = {source: "chronyc", synchronized: true, offsetMs: 0.2, raw: null, reason: null};
    const m = merge();
    const mixed = merged(3, {
      manifest: {
        merge: {
          ...m,
          shards: [
            {...m.shards[0]!, offsetUncertaintyMs: null},
            {...m.shards[1]!, offsetUncertaintyMs: 2.25}
          ]
        }
      }
    });
    expect((await g32(mixed)).reason).toMatch(
      /; placement on one timeline ±2\.3 ms; time sync not confirmed on shard 0, 1:/
    );
    const unknown = merged(3, {
      manifest: {merge: {...m, shards: m.shards.map((s) => ({...s, offsetUncertaintyMs: null}))}}
    });
    expect((await g32(unknown)).reason).toMatch(/; placement on one timeline: uncertainty unknown; time sync/);
    const good = merged(3, {
      manifest: {merge: {...m, shards: [{...m.shards[0]!, timeSync: synced}, {...m.shards[1]!}]}}
    });
    expect((await g32(good)).reason).toMatch(/time sync not confirmed on shard 1: the window/);
    const all = merged(3, {manifest: {merge: {...m, shards: m.shards.map((s) => ({...s, timeSync: synced}))}}});
    expect((await g32(all)).reason).toMatch(/placement on one timeline ±1\.5 ms$/);
  });

  it("records each shard's late start in ms, and a lone shard's identity; a 1-of-1 shard is no shard", async () => {
    const m = merge();
    const late = merged(3, {
      manifest: {
        merge: {
          ...m,
          shards: [
            {...m.shards[0]!, startLateNs: 2_500_000},
            {...m.shards[1]!, startLateNs: null}
          ]
        }
      }
    });
    expect((await g32(late)).evidence.startLateMs).toEqual([2.5, null]);
    const shard = (index: number, count: number) => ({
      config: CONFIG,
      points: [POINT],
      requests: shardLane(index, 0).map(({shard: _s, ...rest}) => rest),
      client: loopSamples(0, 600),
      manifest: {
        shard: {index, count, planSha256: "a".repeat(64), startAt: null, startLateNs: null, timeSync: UNKNOWN_SYNC}
      }
    });
    expect((await g32(shard(1, 2))).evidence).toEqual({shard: 1, count: 2});
    expect((await g32(shard(0, 1))).status).toBe("not_applicable");
  });
});
