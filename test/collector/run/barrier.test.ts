import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterEach, beforeEach, describe, expect, it} from "vitest";

import {defaultEffects} from "../../../collector/effects.ts";
import {RunControl} from "../../../collector/load/control.ts";
import {createPacer} from "../../../collector/load/pacer.ts";
import {
  BARRIER_MARGIN_MS,
  barrierDirProblem,
  barrierFolder,
  commonStart,
  shardBarrier
} from "../../../collector/run/barrier.ts";
import {aliveFolder, watchSilence} from "../../../collector/run/liveness.ts";
import type {BarrierOptions} from "../../../collector/run/context.ts";
import type {RunContext} from "../../../collector/run/context.ts";
import type {BundleWriter} from "../../../collector/writer/bundleWriter.ts";
import type {ShardIdentity} from "../../../src/analysis/schema/shard.ts";
import {shardIdentityOf} from "../helpers.ts";

/**
 * The shards' phase barrier (issue 17): every shard in the shared folder, then one common start derived from
 * the files; a missing shard ends the wait at the timeout, a stop at once.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "inferscope-barrier-"));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

const PLAN = "ab".repeat(32);
const identity = (index: number, count: number) => shardIdentityOf(PLAN, index, count);

interface Note {
  event: string;
  detail: Record<string, unknown>;
  point: string | null | undefined;
  repeat: number | null | undefined;
  wallMs: number;
}

/** One shard's side of a run: a real clock and file system, a stop switch, the notes it writes. */
function shardSide() {
  const notes: Note[] = [];
  const warnings: string[] = [];
  const fx = defaultEffects({log: {info: () => undefined, warn: (m: string) => void warnings.push(m)} as never});
  const control = new RunControl();
  const c = {
    fx,
    control,
    pacer: (clock: () => bigint) => createPacer({clock}),
    rel: () => 0
  } as unknown as RunContext;
  const writer = {
    note: (_t: number, event: string, detail: Record<string, unknown>, point?: string | null, repeat?: number | null) =>
      void notes.push({event, detail, point, repeat, wallMs: Date.now()})
  } as unknown as BundleWriter;
  return {c, writer, notes, warnings, control};
}

const C4R1 = {point: "c4", repeat: 1, phase: "measure"} as const;
type Side = ReturnType<typeof shardSide>;
type Key = Parameters<ReturnType<typeof shardBarrier>["wait"]>[0];
/** One wait at one phase's barrier, as a run's first barrier. */
const phaseBarrier = (c: Side["c"], w: Side["writer"], id: ShardIdentity, o: BarrierOptions, k: Key) =>
  shardBarrier(c, w, id, o).wait(k);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("commonStart", () => {
  it("is the last ready time plus the margin once every shard is there, else null", () => {
    expect(commonStart([{shard: 0, readyMs: 1000}], 2)).toBeNull();
    expect(
      commonStart(
        [
          {shard: 0, readyMs: 1000},
          {shard: 0, readyMs: 1500}
        ],
        2
      )
    ).toBeNull(); // shard 1 missing
    expect(
      commonStart(
        [
          {shard: 1, readyMs: 1500},
          {shard: 0, readyMs: 1000},
          {shard: 2, readyMs: 1200}
        ],
        3
      )
    ).toBe(1500 + BARRIER_MARGIN_MS);
  });

  it("keeps each experiment and phase apart", () => {
    expect(barrierFolder("/b", PLAN, {point: "c 4/x", repeat: 1, phase: "measure"})).toBe(
      `/b/${PLAN.slice(0, 16)}/c%204%2Fx.r1.measure`
    );
    const k = {point: "c4", repeat: 0, phase: "measure"} as const;
    expect(barrierFolder("/b", PLAN, k)).not.toBe(barrierFolder("/b", PLAN, {...k, repeat: 1}));
    expect(barrierFolder("/b", PLAN, k)).not.toBe(barrierFolder("/b", PLAN, {...k, phase: "warmup"}));
  });
});

describe("phaseBarrier", () => {
  it("a shard that arrives 300 ms after the other: both start at one time, its ready time + the margin", async () => {
    const a = shardSide();
    const b = shardSide();
    const opts = {dir, timeoutMs: 10_000};
    const first = phaseBarrier(a.c, a.writer, identity(0, 2), opts, C4R1);
    await sleep(300);
    const readyB = Date.now();
    await Promise.all([first, phaseBarrier(b.c, b.writer, identity(1, 2), opts, C4R1)]);
    const [na, nb] = [a.notes[0]!, b.notes[0]!];
    expect([na.event, nb.event]).toEqual(["barrier", "barrier"]);
    expect([na.point, na.repeat, na.detail.phase]).toEqual(["c4", 1, "measure"]);
    expect([nb.point, nb.repeat, nb.detail.phase]).toEqual(["c4", 1, "measure"]);
    const start = na.detail.startAtMs as number;
    expect(nb.detail.startAtMs).toBe(start);
    // the later shard's ready time decides: it waited the margin, the earlier one 300 ms more
    expect(start - readyB).toBeGreaterThanOrEqual(BARRIER_MARGIN_MS - 5);
    expect(start - readyB).toBeLessThanOrEqual(BARRIER_MARGIN_MS + 5);
    expect(nb.detail.waitedMs).toBe(BARRIER_MARGIN_MS);
    // (less 2 ms: a timer may fire up to a millisecond early by Date.now, and readings are whole ms)
    expect(na.detail.waitedMs as number).toBeGreaterThanOrEqual(300 + BARRIER_MARGIN_MS - 2);
    // each began its phase at the common start, not when it happened to see the other (a busy machine may
    // make one late: the note says by how much)
    for (const n of [na, nb]) {
      expect(n.wallMs).toBeGreaterThanOrEqual(start);
      expect(n.wallMs - start).toBeLessThanOrEqual(Math.ceil((n.detail.lateNs as number) / 1e6) + 2);
    }
    expect(readdirSync(barrierFolder(dir, PLAN, C4R1)).sort()).toEqual(["0.json", "1.json"]);
  });

  it("lateness counts the last look after the wake-up: the phase begins when the note is written", async () => {
    const a = shardSide();
    const b = shardSide();
    // a's folder listings take 40 ms once the common start has passed (a busy disk, a network volume)
    let startMs = Infinity;
    const list = a.c.fx.files.list.bind(a.c.fx.files);
    a.c.fx.files = {
      ...a.c.fx.files,
      list: async (p: string) => {
        if (Date.now() >= startMs) await sleep(40);
        return list(p);
      }
    };
    const opts = {dir, timeoutMs: 10_000};
    const first = phaseBarrier(a.c, a.writer, identity(0, 2), opts, C4R1);
    await sleep(50);
    startMs = Date.now() + BARRIER_MARGIN_MS; // b's ready time + the margin, to within a millisecond
    await Promise.all([first, phaseBarrier(b.c, b.writer, identity(1, 2), opts, C4R1)]);
    const na = a.notes[0]!;
    expect(na.event).toBe("barrier");
    // the listing of who gave up (40 ms) stands between the wake-up and the phase's begin
    expect(na.detail.lateNs as number).toBeGreaterThanOrEqual(39e6);
    expect(na.wallMs - (na.detail.startAtMs as number)).toBeLessThanOrEqual(
      Math.ceil((na.detail.lateNs as number) / 1e6) + 2
    );
  });

  it("a shard that never comes: the wait ends at the timeout, noted with who was missing", async () => {
    const a = shardSide();
    const t0 = Date.now();
    await phaseBarrier(a.c, a.writer, identity(0, 3), {dir, timeoutMs: 200}, {point: "r2", repeat: 0, phase: "warmup"});
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(a.notes.map((n) => n.event)).toEqual(["barrier_timeout"]);
    expect(a.notes[0]!.detail.missing).toEqual([1, 2]);
    expect(a.notes[0]!.detail.phase).toBe("warmup");
    expect(a.warnings.join("\n")).toMatch(/r2 repeat 0 warmup: shard 1, 2 not ready after 0.2 s/);
  });

  it("a shard whose heartbeat stands still (killed outright, no `left` marker) ends the wait after the window", async () => {
    const a = shardSide();
    mkdirSync(aliveFolder(dir, PLAN), {recursive: true});
    writeFileSync(join(aliveFolder(dir, PLAN), "1.json"), JSON.stringify({shard: 1, atMs: Date.now(), beat: 12}));
    const t0 = Date.now();
    await phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 10_000, silentMs: 200}, C4R1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "silent", [1]]
    ]);
    expect(a.warnings.join("\n")).toMatch(/c4 repeat 1 measure: shard 1 stopped beating \(killed, or its host lost\)/);
  });

  it("a silence already timed by the run's one reader (at an earlier wait or probe) is not timed again", async () => {
    const a = shardSide();
    mkdirSync(aliveFolder(dir, PLAN), {recursive: true});
    writeFileSync(join(aliveFolder(dir, PLAN), "1.json"), JSON.stringify({shard: 1, atMs: Date.now(), beat: 4}));
    const o = {dir, timeoutMs: 10_000, silentMs: 300};
    const silence = watchSilence(a.c, identity(0, 2), o, 0);
    await silence.silent(); // seen at an earlier wait
    await sleep(320);
    const t0 = Date.now();
    await shardBarrier(a.c, a.writer, identity(0, 2), o, silence).wait(C4R1);
    expect(Date.now() - t0).toBeLessThan(250); // at the first look, not a window later
    expect(a.notes.map((n) => [n.event, n.detail.reason])).toEqual([["barrier_timeout", "silent"]]);
  });

  it("a stop while waiting ends the wait at once, with no note", async () => {
    const a = shardSide();
    const t0 = Date.now();
    const waiting = phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 60_000}, C4R1);
    await sleep(50);
    a.control.stop("interrupt", "test", 0);
    await waiting;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(a.notes).toEqual([]);
  });

  it("files of another phase or experiment are not counted", async () => {
    const a = shardSide();
    const b = shardSide();
    await Promise.all([
      phaseBarrier(b.c, b.writer, {...identity(1, 2), planSha256: "cd".repeat(32)}, {dir, timeoutMs: 300}, C4R1),
      phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 300}, C4R1)
    ]);
    expect(a.notes.map((n) => n.event)).toEqual(["barrier_timeout"]);
    expect(b.notes.map((n) => n.event)).toEqual(["barrier_timeout"]);
  });

  it("a shard that arrives after the other gave up does not call it met: it gives up too, at once", async () => {
    const a = shardSide();
    const b = shardSide();
    const first = phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 200}, C4R1);
    await sleep(400); // shard 0 gave up at 200 ms; its ready file is still there
    const t0 = Date.now();
    await phaseBarrier(b.c, b.writer, identity(1, 2), {dir, timeoutMs: 10_000}, C4R1);
    await first;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "timeout", [1]]
    ]);
    expect(b.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "gave_up", [0]]
    ]);
    expect(b.warnings.join("\n")).toMatch(/c4 repeat 1 measure: shard 0 gave up on this phase/);
  });

  it("a ready file from well before this run began is another attempt's: not counted", async () => {
    const folder = barrierFolder(dir, PLAN, C4R1);
    mkdirSync(folder, {recursive: true});
    // older than the timeout and the clock slack before this run began: another attempt's
    writeFileSync(join(folder, "1.json"), JSON.stringify({shard: 1, atMs: Date.now() - 300 - 60_000 - 1000}));
    const a = shardSide();
    await phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 300}, C4R1);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "timeout", [1]]
    ]);
  });

  it("a shard that ended its run (finished, stopped or failed) ends the others' wait at once", async () => {
    const a = shardSide();
    const b = shardSide();
    const t0 = Date.now();
    const waiting = phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 60_000}, C4R1);
    await sleep(100);
    await shardBarrier(b.c, b.writer, identity(1, 2), {dir, timeoutMs: 60_000}).leave(); // shard 1 stopped
    await waiting;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "left", [1]]
    ]);
    expect(a.warnings.join("\n")).toMatch(/shard 1 ended its run/);
  });

  it("once given up, the barrier stays off for the rest of the run: one timeout, not one per phase", async () => {
    const a = shardSide();
    const barrier = shardBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 150});
    await barrier.wait({point: "c4", repeat: 0, phase: "measure"});
    const t0 = Date.now();
    await barrier.wait({point: "c4", repeat: 1, phase: "warmup"});
    await barrier.wait({point: "c4", repeat: 1, phase: "measure"});
    expect(Date.now() - t0).toBeLessThan(100);
    expect(a.notes.map((x) => x.event)).toEqual(["barrier_timeout"]);
    expect(a.warnings.join("\n")).toMatch(/for this phase and the rest of the run/);
  });

  it("a ready time further ahead than any shard waits (a clock far off) is not waited for", async () => {
    const folder = barrierFolder(dir, PLAN, C4R1);
    mkdirSync(folder, {recursive: true});
    writeFileSync(join(folder, "1.json"), JSON.stringify({shard: 1, atMs: Date.now() + 3_600_000}));
    const a = shardSide();
    const t0 = Date.now();
    await phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 5000}, C4R1);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "clock", [1]]
    ]);
  });

  it("a barrier folder that cannot be written: checked before the run; mid-run, a note and the run goes on", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    const a = shardSide();
    expect(await barrierDirProblem(a.c.fx, join(file, "barrier"))).toMatch(/ENOTDIR/);
    expect(await barrierDirProblem(a.c.fx, join(dir, "fine", "barrier"))).toBeNull();
    expect(readdirSync(join(dir, "fine", "barrier"))).toEqual([]); // the probe file is removed
    const barrier = shardBarrier(a.c, a.writer, identity(0, 2), {dir: join(file, "barrier"), timeoutMs: 60_000});
    await barrier.wait(C4R1); // returns: no throw, no wait
    expect(a.notes.map((n) => n.event)).toEqual(["barrier_error"]);
    expect(String(a.notes[0]!.detail.message)).toMatch(/ENOTDIR/);
  });

  it("a peer that has waited longer than the timeout by this host's clock is still counted (clocks differ)", async () => {
    // shard 1's clock runs 1.5 s behind this one's: by this clock it has waited longer than the 1 s timeout
    const folder = barrierFolder(dir, PLAN, C4R1);
    mkdirSync(folder, {recursive: true});
    writeFileSync(join(folder, "1.json"), JSON.stringify({shard: 1, atMs: Date.now() - 1500}));
    const a = shardSide();
    await phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 1000}, C4R1);
    expect(a.notes.map((n) => n.event)).toEqual(["barrier"]);
  });

  it("a shard that ended its run long ago is honoured however old its marker", async () => {
    const a = shardSide();
    const b = shardSide();
    await shardBarrier(b.c, b.writer, identity(1, 2), {dir, timeoutMs: 200}).leave();
    await sleep(700); // long after shard 1 ended (more than the timeout + margin), shard 0 reaches its next barrier
    const t0 = Date.now();
    await phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 200}, C4R1);
    expect(Date.now() - t0).toBeLessThan(150);
    expect(a.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "left", [1]]
    ]);
  });

  it("a shard stopped while waiting is not counted as there by one that comes after", async () => {
    const a = shardSide();
    const b = shardSide();
    const waiting = phaseBarrier(a.c, a.writer, identity(0, 2), {dir, timeoutMs: 60_000}, C4R1);
    await sleep(50);
    a.control.stop("interrupt", "test", 0);
    await waiting;
    await phaseBarrier(b.c, b.writer, identity(1, 2), {dir, timeoutMs: 60_000}, C4R1);
    expect(b.notes.map((n) => [n.event, n.detail.reason, n.detail.missing])).toEqual([
      ["barrier_timeout", "gave_up", [0]]
    ]);
  });

  it("the folder check of many shards at once with one pid (pods are all pid 1) never collides", async () => {
    const a = shardSide();
    const fx = {...a.c.fx, pid: 1};
    const results = await Promise.all(Array.from({length: 8}, () => barrierDirProblem(fx, join(dir, "shared"))));
    expect(results).toEqual(Array(8).fill(null));
  });
});
