import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterEach, beforeEach, describe, expect, it} from "vitest";

import {defaultEffects} from "../../../collector/effects.ts";
import type {RunContext} from "../../../collector/run/context.ts";
import {aliveFolder, livenessTimes, startHeartbeat, watchSilence} from "../../../collector/run/liveness.ts";
import {shardIdentityOf} from "../helpers.ts";

/**
 * Signs of life between shards (issue 17): a shard killed outright writes no `left` marker, so its peers take
 * it as gone once its heartbeat has stood still for the silence window, measured on their own clock.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "inferscope-liveness-"));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

const PLAN = "ef".repeat(32);
const identity = (index: number, count: number) => shardIdentityOf(PLAN, index, count);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function side() {
  const warnings: string[] = [];
  const fx = defaultEffects({log: {info: () => undefined, warn: (m: string) => void warnings.push(m)} as never});
  return {c: {fx} as unknown as RunContext, warnings};
}

/** Writes shard k's heartbeat file by hand. */
function beat(k: number, n: number, atMs = Date.now()) {
  mkdirSync(aliveFolder(dir, PLAN), {recursive: true});
  writeFileSync(join(aliveFolder(dir, PLAN), `${k}.json`), JSON.stringify({shard: k, atMs, beat: n}));
}

describe("livenessTimes", () => {
  it("derives the beat and the silence window from the barrier timeout", () => {
    // 600 s (the default): a beat every 2 s; a quarter of the timeout is 150 s, held to 90 s
    expect(livenessTimes({dir, timeoutMs: 600_000})).toEqual({heartbeatMs: 2000, silentMs: 90_000});
    // 120 s: a beat every 2 s, a window of 30 s (a quarter)
    expect(livenessTimes({dir, timeoutMs: 120_000})).toEqual({heartbeatMs: 2000, silentMs: 30_000});
    // 20 s: a beat every 1 s (a twentieth); a quarter (5 s) is raised to the 15 s floor
    expect(livenessTimes({dir, timeoutMs: 20_000})).toEqual({heartbeatMs: 1000, silentMs: 15_000});
    expect(livenessTimes({dir, timeoutMs: 1000})).toEqual({heartbeatMs: 50, silentMs: 15_000});
    // never fewer than five beats, the 90 s cap included: a shorter window would take a live shard between
    // two beats as dead
    expect(livenessTimes({dir, timeoutMs: 600_000, heartbeatMs: 20_000})).toEqual({
      heartbeatMs: 20_000,
      silentMs: 100_000
    });
    expect(livenessTimes({dir, timeoutMs: 1000, silentMs: 40})).toEqual({heartbeatMs: 50, silentMs: 40});
  });
});

describe("watchSilence", () => {
  it("names a peer whose beat stood still for the window, by the reader's clock, and not before", async () => {
    const {c} = side();
    beat(1, 3);
    beat(2, 9);
    const watch = watchSilence(c, identity(0, 4), {dir, timeoutMs: 10_000, silentMs: 150}, 0);
    expect(await watch.silent()).toEqual([]); // first seen now
    await sleep(60);
    beat(2, 10); // shard 2 beats on
    expect(await watch.silent()).toEqual([]);
    await sleep(110); // 170 ms since shard 1's beat was first seen, 110 ms since shard 2's changed
    expect(await watch.silent()).toEqual([1]);
    await sleep(60);
    expect(await watch.silent()).toEqual([1, 2]);
    beat(1, 4); // a peer that beats again is alive again
    expect(await watch.silent()).toEqual([2]);
  });

  it("does not judge a peer never seen beating, its own file, or another attempt's beat", async () => {
    const {c} = side();
    const since = Date.now();
    beat(0, 1, since - 5000); // this reader's own heartbeat, stale: never judged
    beat(2, 5, since - 1); // written before this attempt began
    const watch = watchSilence(c, identity(0, 3), {dir, timeoutMs: 10_000, silentMs: 20}, since);
    expect(await watch.silent()).toEqual([]);
    await sleep(50);
    expect(await watch.silent()).toEqual([]); // shard 1 never beat: the timeout judges it, not the heartbeat
  });

  it("a beat file that cannot be read this time is no reading: neither a beat nor a silence", async () => {
    const {c} = side();
    beat(1, 3);
    const watch = watchSilence(c, identity(0, 2), {dir, timeoutMs: 10_000, silentMs: 50}, 0);
    expect(await watch.silent()).toEqual([]);
    const path = join(aliveFolder(dir, PLAN), "1.json");
    rmSync(path);
    mkdirSync(path); // reading it fails (EISDIR), as a network volume's ESTALE would
    await sleep(70);
    expect(await watch.silent()).toEqual([]);
    rmSync(path, {recursive: true});
    beat(1, 3); // readable again, the same count: it stood still all along
    expect(await watch.silent()).toEqual([1]);
  });

  it("the writer's clock does not matter: a beat stamped an hour ahead still stands still", async () => {
    const {c} = side();
    beat(1, 1, Date.now() + 3_600_000);
    const watch = watchSilence(c, identity(0, 2), {dir, timeoutMs: 10_000, silentMs: 50}, 0);
    expect(await watch.silent()).toEqual([]);
    await sleep(70);
    expect(await watch.silent()).toEqual([1]);
  });
});

describe("startHeartbeat", () => {
  it("beats at once and on every interval, so a watching peer never takes it as silent; stops when told", async () => {
    const {c} = side();
    const o = {dir, timeoutMs: 10_000, heartbeatMs: 20, silentMs: 150};
    const stop = startHeartbeat(c, identity(1, 2), o);
    const watch = watchSilence(c, identity(0, 2), o, 0);
    await sleep(30);
    const read = () => JSON.parse(readFileSync(join(aliveFolder(dir, PLAN), "1.json"), "utf8")) as {beat: number};
    const first = read().beat;
    expect(first).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 8; i++) {
      expect(await watch.silent()).toEqual([]);
      await sleep(50);
    }
    expect(read().beat).toBeGreaterThan(first + 5); // 400 ms at 20 ms: well over five more beats
    stop();
    await sleep(40); // a beat in flight when stopped lands
    const last = read().beat;
    await sleep(100);
    expect(read().beat).toBe(last);
    await watch.silent(); // sees the last beat
    await sleep(160);
    expect(await watch.silent()).toEqual([1]);
  });

  it("warns once when the heartbeat cannot be written, and goes on", async () => {
    const {c, warnings} = side();
    writeFileSync(join(dir, "file"), "");
    const stop = startHeartbeat(c, identity(0, 2), {dir: join(dir, "file"), timeoutMs: 10_000, heartbeatMs: 10});
    await sleep(80);
    stop();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^shard 0: could not write its heartbeat \(ENOTDIR.*\); peers may take it as gone$/);
  });
});
