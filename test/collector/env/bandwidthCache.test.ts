import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {MemoryBandwidthProbe} from "../../../src/analysis/schema/manifest.ts";
import {hostBandwidth, probePlan} from "../../../collector/env/bandwidth.ts";
import {BOOT_ID_PATH, bandwidthOncePerBoot} from "../../../collector/env/bandwidthCache.ts";
import {realFiles, type Files} from "../../../collector/effects.ts";

const root = mkdtempSync(join(tmpdir(), "bw-cache-"));
afterAll(() => rmSync(root, {recursive: true, force: true}));

const PLAN = {threads: 2, bufferBytes: 64 * 1024 * 1024, passes: 5};
const PROBE: MemoryBandwidthProbe = {
  method: "parallel-copy",
  threads: 2,
  bufferBytes: 64 * 1024 * 1024,
  trials: [{bytesMoved: 268_435_456, ns: 20_000_000}],
  error: null
};
/** 2026-12-02T10:00:00.000Z */
const clock = {nowNs: () => 0n, wallMs: () => Date.UTC(2026, 11, 2, 10)};

/** Real files in a temp folder, with the boot id answered (or refused) by the test. */
function files(boot: () => string | null): Files {
  return {
    ...realFiles,
    readFile: async (path) => {
      if (path !== BOOT_ID_PATH) return realFiles.readFile(path);
      const id = boot();
      if (id === null) throw Object.assign(new Error("ENOENT"), {code: "ENOENT"});
      return Buffer.from(id + "\n");
    }
  };
}

function counter(probe: MemoryBandwidthProbe = PROBE) {
  let calls = 0;
  return {measure: async () => (calls++, probe), calls: () => calls};
}

let n = 0;
const cacheEnv = () => ({INFERSCOPE_CACHE_DIR: join(root, `c${n++}`)});

describe("host bandwidth probe, once per boot", () => {
  it("the second run on the same boot reuses the first run's raw trials and says when and in which boot", async () => {
    const env = cacheEnv();
    const fx = {files: files(() => "boot-a"), clock, env};
    const m = counter();
    expect(await bandwidthOncePerBoot(fx, PLAN, m.measure)).toEqual(PROBE);
    const again = await bandwidthOncePerBoot(fx, PLAN, m.measure);
    expect(m.calls()).toBe(1);
    expect(again).toEqual({...PROBE, reusedFrom: {measuredAt: "2026-12-02T10:00:00.000Z", bootId: "boot-a"}});
    expect(MemoryBandwidthProbe.safeParse(again).success).toBe(true);
    expect(JSON.parse(readFileSync(join(env.INFERSCOPE_CACHE_DIR, "host-bandwidth.json"), "utf8"))).toMatchObject({
      bootId: "boot-a",
      plan: PLAN
    });
  });

  it("a reboot, or another plan (thread count, buffer, passes), measures again", async () => {
    let boot = "boot-a";
    const fx = {files: files(() => boot), clock, env: cacheEnv()};
    const m = counter();
    await bandwidthOncePerBoot(fx, PLAN, m.measure);
    boot = "boot-b";
    expect((await bandwidthOncePerBoot(fx, PLAN, m.measure)).reusedFrom).toBeUndefined();
    expect(m.calls()).toBe(2);
    for (const plan of [
      {...PLAN, threads: 4},
      {...PLAN, bufferBytes: 1024},
      {...PLAN, passes: 3}
    ])
      expect((await bandwidthOncePerBoot(fx, plan, m.measure)).reusedFrom).toBeUndefined();
    expect(m.calls()).toBe(5);
  });

  it("a failed probe is not kept: the next run measures", async () => {
    const fx = {files: files(() => "boot-a"), clock, env: cacheEnv()};
    const failed = counter({...PROBE, trials: [], error: "bandwidth probe timed out after 5000 ms"});
    await bandwidthOncePerBoot(fx, PLAN, failed.measure);
    await bandwidthOncePerBoot(fx, PLAN, failed.measure);
    expect(failed.calls()).toBe(2);
  });

  it("a corrupt or foreign cache file is measured over and replaced", async () => {
    const env = cacheEnv();
    const fx = {files: files(() => "boot-a"), clock, env};
    await realFiles.mkdirp(env.INFERSCOPE_CACHE_DIR);
    const path = join(env.INFERSCOPE_CACHE_DIR, "host-bandwidth.json");
    const m = counter();
    for (const text of ["{not json", JSON.stringify({version: 2, bootId: "boot-a"})]) {
      writeFileSync(path, text);
      expect((await bandwidthOncePerBoot(fx, PLAN, m.measure)).reusedFrom).toBeUndefined();
    }
    expect(m.calls()).toBe(2);
    expect((await bandwidthOncePerBoot(fx, PLAN, m.measure)).reusedFrom?.bootId).toBe("boot-a");
    expect(m.calls()).toBe(2);
  });

  it("no boot id (not Linux) or no cache folder: measured every time, nothing written", async () => {
    const env = cacheEnv();
    const m = counter();
    await bandwidthOncePerBoot({files: files(() => null), clock, env}, PLAN, m.measure);
    await bandwidthOncePerBoot({files: files(() => null), clock, env}, PLAN, m.measure);
    await bandwidthOncePerBoot({files: files(() => "boot-a"), clock, env: {}}, PLAN, m.measure);
    await bandwidthOncePerBoot({files: files(() => "boot-a"), clock, env: {}}, PLAN, m.measure);
    expect(m.calls()).toBe(4);
    expect(await realFiles.exists(env.INFERSCOPE_CACHE_DIR)).toBe(false);
  });

  it("an unwritable cache folder still returns the measurement", async () => {
    const blocker = join(root, "a-file");
    writeFileSync(blocker, "");
    const m = counter();
    const fx = {files: files(() => "boot-a"), clock, env: {INFERSCOPE_CACHE_DIR: join(blocker, "sub")}};
    expect(await bandwidthOncePerBoot(fx, PLAN, m.measure)).toEqual(PROBE);
  });

  it("INFERSCOPE_BANDWIDTH_CACHE=off measures although this boot's entry fits", async () => {
    const o = {threads: 1, bufferBytes: 1024 * 1024, passes: 2, timeoutMs: 20_000};
    const env = cacheEnv();
    const fx = {files: files(() => "boot-a"), clock, env};
    const first = await hostBandwidth(fx, o);
    expect(first.trials).toHaveLength(2);
    expect((await hostBandwidth(fx, o)).reusedFrom?.bootId).toBe("boot-a");
    const off = await hostBandwidth({...fx, env: {...env, INFERSCOPE_BANDWIDTH_CACHE: "off"}}, o);
    expect(off.reusedFrom).toBeUndefined();
    expect(off.trials).not.toEqual(first.trials);
    expect(probePlan(o)).toEqual({threads: 1, bufferBytes: 1024 * 1024, passes: 2});
  });
});
