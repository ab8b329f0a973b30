import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterEach, beforeEach, describe, expect, it} from "vitest";

import {defaultEffects} from "../../../collector/effects.ts";
import {RunControl} from "../../../collector/load/control.ts";
import {leftFolder} from "../../../collector/run/barrier.ts";
import {aliveFolder} from "../../../collector/run/liveness.ts";
import type {ProbeJudgement, RunContext} from "../../../collector/run/context.ts";
import {lean, probeFolder, searchExchange} from "../../../collector/run/searchExchange.ts";
import type {RequestRecord} from "../../../src/analysis/schema/index.ts";
import {shardIdentityOf} from "../helpers.ts";

/**
 * A load search over shards (issue 17): shard 0 judges each probe from every shard's records, placed on one
 * timeline; every shard goes on from that one verdict; a shard whose records do not come ends the search.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "inferscope-exchange-"));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

const PLAN = "cd".repeat(32);
const identity = (index: number, count: number) => shardIdentityOf(PLAN, index, count);

/** One shard's run context: real files and clock; its run began at `startWall` (wall ms). */
function side(startWall: number) {
  const fx = defaultEffects({log: {info: () => undefined, warn: () => undefined} as never});
  return {fx, control: new RunControl(), startWall} as unknown as RunContext;
}

type Req = Omit<RequestRecord, "seq">;
/** A request record with only what the test reads: its index and its run-relative times. */
const req = (index: number, tSchedNs: number): Req =>
  ({
    index,
    tSchedNs,
    tCallNs: tSchedNs + 1000,
    tEndNs: tSchedNs + 2_000_000,
    events: [[tSchedNs + 500_000, 1]]
  }) as never;

const PASS: ProbeJudgement = {status: "pass", margin: 0.5, reason: "holds", summary: {value: 2, throughput: 10}};

describe("searchExchange", () => {
  it("shard 0 judges the union of both shards' records on one timeline; both go on from its verdict", async () => {
    const o = {dir, timeoutMs: 5000};
    const now = Date.now();
    // shard 1's run began 5 ms after shard 0's: its run-relative times lie 5 ms later on the shared timeline
    const s0 = searchExchange(side(now), identity(0, 2), o);
    const s1 = searchExchange(side(now + 5), identity(1, 2), o);
    const seen: Req[][] = [];
    const judged = (all: Req[]) => (seen.push(all), PASS);
    const never = (): ProbeJudgement => {
      throw new Error("only shard 0 judges");
    };
    const [v0, v1] = await Promise.all([
      s0.share({block: 0, n: 0, point: "c-2", records: [req(0, 1_000_000), req(2, 3_000_000)]}, judged),
      s1.share({block: 0, n: 0, point: "c-2", records: [req(1, 1_000_000)]}, never)
    ]);
    expect(v0).toEqual({kind: "verdict", judgement: PASS});
    expect(v1).toEqual(v0);
    expect(seen).toHaveLength(1);
    const all = seen[0]!;
    expect(all.map((r) => [r.index, r.shard, r.tSchedNs])).toEqual([
      [0, 0, 1_000_000],
      [2, 0, 3_000_000],
      [1, 1, 6_000_000]
    ]);
    // every run-relative time moves by the same 5 ms, the event times too
    expect(all[2]!.tEndNs).toBe(8_000_000);
    expect(all[2]!.events[0]![0]).toBe(6_500_000);
  });

  it("ends the search on every shard when a shard ended its run without its records", async () => {
    const o = {dir, timeoutMs: 5000};
    const now = Date.now();
    mkdirSync(leftFolder(dir, PLAN), {recursive: true});
    writeFileSync(join(leftFolder(dir, PLAN), "1.json"), JSON.stringify({shard: 1, atMs: now}));
    const s0 = searchExchange(side(now), identity(0, 3), o);
    const s2 = searchExchange(side(now), identity(2, 3), o);
    const [v0, v2] = await Promise.all([
      s0.share({block: 1, n: 3, point: "c-2", records: [req(0, 0)]}, () => PASS),
      s2.share({block: 1, n: 3, point: "c-2", records: [req(2, 0)]}, () => PASS)
    ]);
    expect(v0).toEqual({kind: "abort", reason: "shard 1 ended its run before its records came"});
    expect(v2).toEqual(v0);
    const written = JSON.parse(readFileSync(join(probeFolder(dir, PLAN, 1, 3), "verdict.json"), "utf8")) as object;
    expect(written).toMatchObject({kind: "abort"});
  });

  it("gives up after the timeout when a shard's records never come", async () => {
    const s0 = searchExchange(side(Date.now()), identity(0, 2), {dir, timeoutMs: 150});
    const t0 = Date.now();
    expect(await s0.share({block: 0, n: 0, point: "c-2", records: [req(0, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "shard 1: no records after 0.15 s"
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it("a shard whose shard 0 ended its run stops waiting for the verdict", async () => {
    const now = Date.now();
    mkdirSync(leftFolder(dir, PLAN), {recursive: true});
    writeFileSync(join(leftFolder(dir, PLAN), "0.json"), JSON.stringify({shard: 0, atMs: now}));
    const s1 = searchExchange(side(now), identity(1, 2), {dir, timeoutMs: 5000});
    expect(await s1.share({block: 0, n: 0, point: "c-2", records: [req(1, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "shard 0 ended its run before it judged the probe"
    });
  });

  it("a shard killed outright (its heartbeat stands still) ends the wait for its records, and for shard 0's verdict", async () => {
    const now = Date.now();
    const beat = (k: number) => {
      mkdirSync(aliveFolder(dir, PLAN), {recursive: true});
      writeFileSync(join(aliveFolder(dir, PLAN), `${k}.json`), JSON.stringify({shard: k, atMs: now, beat: 7}));
    };
    beat(1);
    beat(0);
    const o = {dir, timeoutMs: 10_000, silentMs: 200};
    const t0 = Date.now();
    const s0 = searchExchange(side(now), identity(0, 2), o);
    expect(await s0.share({block: 0, n: 0, point: "c-2", records: [req(0, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "shard 1 stopped beating before its records came"
    });
    // the window, not the timeout: seen first at once, then 200 ms without a change
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(Date.now() - t0).toBeLessThan(5000);
    const s1 = searchExchange(side(now), identity(1, 2), o);
    expect(await s1.share({block: 0, n: 1, point: "c-2", records: [req(1, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "shard 0 stopped beating before it judged the probe"
    });
  });

  it("never takes an earlier attempt's verdict or records", async () => {
    const o = {dir, timeoutMs: 150};
    const now = Date.now();
    const folder = probeFolder(dir, PLAN, 0, 0);
    mkdirSync(folder, {recursive: true});
    // written long before this run could have begun (beyond the timeout and the clock slack)
    const old = now - 10 * 60_000;
    writeFileSync(join(folder, "verdict.json"), JSON.stringify({atMs: old, kind: "verdict", judgement: PASS}));
    writeFileSync(join(folder, "1.json"), JSON.stringify({shard: 1, atMs: old, originWallMs: old, records: []}));
    const s0 = searchExchange(side(now), identity(0, 2), o);
    expect(await s0.share({block: 0, n: 0, point: "c-2", records: [req(0, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "shard 1: no records after 0.15 s"
    });
    const s1 = searchExchange(side(now), identity(1, 2), o);
    rmSync(join(folder, "verdict.json"));
    writeFileSync(join(folder, "verdict.json"), JSON.stringify({atMs: old, kind: "verdict", judgement: PASS}));
    expect(await s1.share({block: 0, n: 0, point: "c-2", records: [req(1, 0)]}, () => PASS)).toEqual({
      kind: "abort",
      reason: "no verdict from shard 0 after 0.3 s"
    });
  });

  it("the first decision wins: a shard that gave up waiting ends the search for shard 0 too", async () => {
    const now = Date.now();
    const s1 = searchExchange(side(now), identity(1, 2), {dir, timeoutMs: 100});
    const gaveUp = await s1.share({block: 0, n: 0, point: "c-2", records: [req(1, 0)]}, () => PASS);
    expect(gaveUp).toEqual({kind: "abort", reason: "no verdict from shard 0 after 0.2 s"});
    // shard 0 arrives late: shard 1's records are there, but the decision is taken
    const s0 = searchExchange(side(now), identity(0, 2), {dir, timeoutMs: 100});
    const late = await s0.share({block: 0, n: 0, point: "c-2", records: [req(0, 0)]}, () => {
      throw new Error("judged after the decision");
    });
    expect(late).toEqual(gaveUp);
  });

  it("refuses to judge records of another probe", async () => {
    const o = {dir, timeoutMs: 5000};
    const now = Date.now();
    const [v0, v1] = await Promise.all([
      searchExchange(side(now), identity(0, 2), o).share({block: 0, n: 1, point: "c-4", records: []}, () => PASS),
      searchExchange(side(now), identity(1, 2), o).share({block: 0, n: 1, point: "c-3", records: []}, () => PASS)
    ]);
    expect(v0).toEqual({kind: "abort", reason: "shard 1 ran probe c-3, shard 0 c-4"});
    expect(v1).toEqual(v0);
  });

  it("a verdict written before shard 0 left is taken, not an abort", async () => {
    const now = Date.now();
    const folder = probeFolder(dir, PLAN, 0, 0);
    mkdirSync(folder, {recursive: true});
    writeFileSync(join(folder, "verdict.json"), JSON.stringify({atMs: now, kind: "verdict", judgement: PASS}));
    mkdirSync(leftFolder(dir, PLAN), {recursive: true});
    writeFileSync(join(leftFolder(dir, PLAN), "0.json"), JSON.stringify({shard: 0, atMs: now}));
    const s1 = searchExchange(side(now), identity(1, 2), {dir, timeoutMs: 5000});
    expect(await s1.share({block: 0, n: 0, point: "c-2", records: []}, () => PASS)).toEqual({
      kind: "verdict",
      judgement: PASS
    });
  });

  it("shares records without the event payloads and texts, which no judged metric reads", () => {
    const r = {...req(0, 0), events: [[5, 40, "data", 1, 'data: {"x":1}']], responseText: "hello", promptText: "p"};
    const l = lean(r as never);
    expect(l.events).toEqual([[5, 40, "data", 1]]);
    expect("responseText" in l || "promptText" in l).toBe(false);
    expect(l.tSchedNs).toBe(0);
  });
});
