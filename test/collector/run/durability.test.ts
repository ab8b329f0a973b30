import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import type {Manifest, RequestRecord} from "../../../src/analysis/schema/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {CliError} from "../../../collector/cliError.ts";
import {LOCK_FILE} from "../../../collector/bundle/lock.ts";
import {collectCommand, sealCommand} from "../../../collector/commands/collect.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {DRAFT_FILE} from "../../../collector/bundle/finish.ts";
import {
  FAST,
  fullDiskFiles,
  gate,
  memoryLogger,
  spawnCli,
  tempDir,
  testEffects,
  waitFor,
  writeConfig
} from "../helpers.ts";

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter(Boolean);
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

function yamlConfig(extra: Record<string, unknown> = {}) {
  return {
    name: "dur",
    target: {base_url: server.url, model: "fake-model", headers: {"x-fake-options": FAST}},
    workload: {prompt_tokens: 16, max_tokens: 8},
    load: {mode: "concurrency", values: [2], requests: 400, warmup: 0},
    telemetry: {gpu: "off", server_metrics: "auto", interval_ms: 100},
    slo: {percentile: "p50"}, // judged at the median: 5 samples suffice
    gates: {min_samples: 5},
    output: {fsync_interval_ms: 100},
    ...extra
  };
}

function memoryIo(): Io & {stdout: string[]} {
  const stdout: string[] = [];
  return {stdout, out: (l) => void stdout.push(l), err: memoryLogger()};
}

describe("interrupt (Ctrl-C / SIGTERM)", () => {
  it("SIGINT mid-run: dispatching stops, in-flight requests finish, bundle sealed as interrupted, exit 130", async () => {
    const out = join(t.dir, "sigint");
    const cfg = writeConfig(t.dir, "sigint.yaml", yamlConfig());
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    await new Promise((r) => setTimeout(r, 400));
    child.kill("SIGINT");
    const {code} = await child.exit;
    expect(code, child.stderr()).toBe(130);
    const dir = child.stdout().trim().split("\n").pop()!;
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    const m = manifestOf(dir);
    expect(m.status).toBe("interrupted");
    expect(m.statusReason).toMatch(/interrupted by SIGINT/);
    // the real bounds on loss: records reach the OS every 100 ms (a kill), fsync every 100 ms here (a host crash)
    expect(m.durability).toEqual({fsyncIntervalMs: 100, flushIntervalMs: 100});
    const recs = lines(join(dir, "requests.jsonl")).map((l) => JSON.parse(l) as RequestRecord);
    expect(recs.length).toBeGreaterThan(0);
    expect(recs.length).toBeLessThan(400);
    expect(recs.every((r) => r.transportError === null && r.finishReason !== null)).toBe(true); // grace: in-flight finished
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.status).toBe("interrupted");
    expect(gate(report, "G1").status).toBe("pass");
    expect(gate(report, "G28").status).toBe("warn");
    expect(report.verdict).not.toBe("VALID");
    // every one of the 400 planned requests is accounted for: recorded, or noted as never sent because of the stop
    expect(gate(report, "G30").status, gate(report, "G30").reason).toBe("pass");
    expect(gate(report, "G30").reason).toBe(
      `400 measured requests planned, ${recs.length} recorded, ${400 - recs.length} never sent (interrupt: interrupted by SIGINT)`
    );
    expect(lines(join(dir, "client_metrics.jsonl")).some((l) => l.includes('"event":"interrupt"'))).toBe(true);
    expect(existsSync(join(dir, DRAFT_FILE))).toBe(false);
  });

  it("with a short grace period, requests still in flight are aborted and recorded as client_abort", async () => {
    const out = join(t.dir, "grace");
    const cfg = writeConfig(
      t.dir,
      "grace.yaml",
      yamlConfig({
        target: {
          base_url: server.url,
          model: "fake-model",
          headers: {"x-fake-scenario": "trickle", "x-fake-options": JSON.stringify({tokenIntervalMs: 200})}
        },
        load: {mode: "concurrency", values: [3], requests: 30, warmup: 0, grace_s: 0.2}
      })
    );
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGTERM");
    const {code} = await child.exit;
    expect(code).toBe(130);
    const dir = child.stdout().trim().split("\n").pop()!;
    const recs = lines(join(dir, "requests.jsonl")).map((l) => JSON.parse(l) as RequestRecord);
    expect(recs.filter((r) => r.transportError === "client_abort")).toHaveLength(3);
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.load_points[0]!.outcomes.client_abort).toBe(3);
    expect(manifestOf(dir).statusReason).toMatch(/SIGTERM/);
    expect(gate(report, "G30").status, gate(report, "G30").reason).toBe("pass");
  });

  it("an open loop stopped mid-plan accounts for every planned request: the schedule written so far, the rest noted as never sent", async () => {
    const out = join(t.dir, "open-stop");
    const cfg = writeConfig(
      t.dir,
      "open-stop.yaml",
      yamlConfig({load: {mode: "poisson", values: [40], requests: 400, warmup: 4, seed: 3}})
    );
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    const dir = join(out, readdirSync(out)[0]!);
    await waitFor(
      () => existsSync(join(dir, "requests.jsonl")) && lines(join(dir, "requests.jsonl")).length >= 20,
      20_000,
      "records"
    );
    child.kill("SIGINT");
    expect((await child.exit).code).toBe(130);
    const measured = lines(join(dir, "requests.jsonl")).filter((l) => l.includes('"phase":"measure"')).length;
    const report = await analyzeBundle(fsBundle(dir));
    expect(gate(report, "G30").status, gate(report, "G30").reason).toBe("pass");
    expect(gate(report, "G30").reason).toBe(
      `400 measured requests planned, ${measured} recorded, ${400 - measured} never sent (interrupt: interrupted by SIGINT)`
    );
    // and deleting one record afterwards (resealed by hand) is caught
    const kept = lines(join(dir, "requests.jsonl")).filter(
      (l) => !(l.includes('"index":3,') && l.includes('"phase":"measure"'))
    );
    expect(kept.length).toBe(lines(join(dir, "requests.jsonl")).length - 1);
    writeFileSync(
      join(dir, "requests.jsonl"),
      kept.map((l, seq) => `${JSON.stringify({...JSON.parse(l), seq})}\n`).join("")
    );
    const tampered = await analyzeBundle(fsBundle(dir), {});
    expect(gate(tampered, "G30").status).toBe("fail");
    expect(gate(tampered, "G30").reason).toMatch(/1 planned request\(s\) lost .*\(index 3\)$/);
  });
});

describe("a closed SSH session (SIGHUP)", () => {
  it("is treated like SIGTERM: dispatching stops, the bundle is sealed interrupted with what was captured, exit 130", async () => {
    const out = join(t.dir, "hup");
    const cfg = writeConfig(
      t.dir,
      "hup.yaml",
      yamlConfig({load: {mode: "concurrency", values: [2], requests: 200, warmup: 0, grace_s: 5}})
    );
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    const dir = join(out, readdirSync(out)[0]!);
    await waitFor(
      () => existsSync(join(dir, "requests.jsonl")) && lines(join(dir, "requests.jsonl")).length >= 5,
      20_000,
      "records"
    );
    child.kill("SIGHUP");
    const {code} = await child.exit;
    expect(code).toBe(130);
    const m = manifestOf(dir);
    expect(m.status).toBe("interrupted");
    expect(m.statusReason).toMatch(/SIGHUP/);
    const recs = lines(join(dir, "requests.jsonl"));
    expect(recs.length).toBeGreaterThanOrEqual(5);
    expect(recs.length).toBeLessThan(200);
  });
});

describe("crash recovery", () => {
  it("SIGKILL mid-run leaves an unsealed bundle; `seal` cuts the torn tail with a note and seals it as partial", async () => {
    const out = join(t.dir, "kill");
    const cfg = writeConfig(t.dir, "kill.yaml", yamlConfig());
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    const dir = join(out, readdirSync(out)[0]!);
    await waitFor(
      () => existsSync(join(dir, "requests.jsonl")) && lines(join(dir, "requests.jsonl")).length >= 10,
      20_000,
      "records"
    );
    child.kill("SIGKILL");
    expect((await child.exit).signal).toBe("SIGKILL");
    expect(existsSync(join(dir, "manifest.json"))).toBe(false);
    expect(existsSync(join(dir, DRAFT_FILE))).toBe(true);
    // A kill between two write() calls of a batch leaves half a line: simulate that torn final write.
    const intact = readFileSync(join(dir, "requests.jsonl"), "utf8").split("\n").length - 1; // newline-terminated lines
    const torn = '{"seq":999999,"id":"torn-by-the-kill","events":[[1,';
    appendFileSync(join(dir, "requests.jsonl"), torn);

    const unsealed = await analyzeBundle(fsBundle(dir));
    expect(unsealed.status).toBe("partial");

    const seal = spawnCli(["seal", dir]);
    expect((await seal.exit).code, seal.stderr()).toBe(0);
    expect(seal.stdout().trim()).toBe(dir);
    const m = manifestOf(dir);
    expect(m.status).toBe("partial");
    expect(m.statusReason).toMatch(/sealed as partial/);
    expect(existsSync(join(dir, DRAFT_FILE))).toBe(false);
    expect(lines(join(dir, "requests.jsonl"))).toHaveLength(intact);
    const notes = lines(join(dir, "client_metrics.jsonl")).map(
      (l) => JSON.parse(l) as {event?: string; detail?: Record<string, unknown>}
    );
    const cut = notes.find((n) => n.event === "tail_truncated" && n.detail?.file === "requests.jsonl");
    expect(cut?.detail?.bytes).toBeGreaterThanOrEqual(Buffer.byteLength(torn)); // plus any half line the kill left
    expect(notes.some((n) => n.event === "resume")).toBe(true);
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.status).toBe("partial");
    expect(gate(report, "G1").status).toBe("pass");
    expect(report.verdict).not.toBe("VALID");
    expect(report.load_points[0]!.n).toBe(intact);
    // a killed collector could not account for the rest of its plan: inconclusive, never invalid for that
    expect(gate(report, "G30").status).toBe("warn");
    expect(gate(report, "G30").reason).toMatch(
      new RegExp(
        `^${400 - intact} planned request\\(s\\) have neither a record nor a not-sent note — the collector stopped`
      )
    );

    const again = spawnCli(["collect", "--resume", dir]);
    expect((await again.exit).code).toBe(2);
    expect(again.stderr()).toMatch(/already sealed/);
    // the dead collector's lock was taken over and removed with the seal (issue 11 item 4)
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    // issue 11 item 2: rewriting the unhashed status into "complete" is caught by the hashed client log
    const sealed = readFileSync(join(dir, "manifest.json"), "utf8");
    writeFileSync(
      join(dir, "manifest.json"),
      JSON.stringify({...JSON.parse(sealed), status: "complete", statusReason: null}, null, 2) + "\n"
    );
    const forged = spawnCli(["verify", dir]);
    expect((await forged.exit).code).toBe(4);
    expect(forged.stdout()).toMatch(
      /the manifest says complete, but the hashed client log has no run_end note, a sealed_partial note/
    );
    const gateRun = spawnCli(["gate", dir]);
    expect((await gateRun.exit).code).toBe(4);
    writeFileSync(join(dir, "manifest.json"), sealed);
  });

  it("`seal` refuses a bundle whose collector is still running, and the run then seals itself intact", async () => {
    const out = join(t.dir, "live");
    const cfg = writeConfig(
      t.dir,
      "live.yaml",
      // ≈ 8 s of collecting (80 requests of ≈ 0.2 s, two at a time): the refused `seal` must start and
      // finish while the run is still going, even when a busy machine takes seconds to start a process
      yamlConfig({
        target: {
          base_url: server.url,
          model: "fake-model",
          headers: {"x-fake-options": JSON.stringify({ttftMs: 5, tokenIntervalMs: 25})}
        },
        load: {mode: "concurrency", values: [2], requests: 80, warmup: 0}
      })
    );
    const child = spawnCli(["collect", "--config", cfg, "--out", out, "--no-progress"]);
    await waitFor(() => /bundle: /.test(child.stderr()), 20_000, "the bundle to open");
    const dir = join(out, readdirSync(out)[0]!);
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")) as {pid: number; host: string};
    expect(lock.pid).toBe(child.pid);
    const seal = spawnCli(["seal", dir]);
    expect((await seal.exit).code).toBe(2);
    expect(seal.stderr()).toMatch(new RegExp(`being written by a running collector \\(pid ${child.pid} on `));
    expect([0, 4]).toContain((await child.exit).code); // 4 only if this busy machine made the client late (G6)
    const m = manifestOf(dir);
    expect(m.status).toBe("complete"); // not corrupted by the refused seal
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const report = await analyzeBundle(fsBundle(dir));
    expect(gate(report, "G1").status).toBe("pass");
  });

  it("`seal` on a full disk exits 5 (evidence could not be written), not 2", async () => {
    const dir = join(t.dir, "seal-full");
    mkdirSync(dir, {recursive: true});
    // the seal's own note (resume) is the first write: the disk is full for it
    writeFileSync(join(dir, DRAFT_FILE), JSON.stringify({monotonicOriginNs: "0", clockAnchors: []}));
    writeFileSync(join(dir, "requests.jsonl"), "");
    const io = memoryIo();
    const fx = testEffects({files: fullDiskFiles("client_metrics.jsonl", 0)});
    const e = await sealCommand(dir, io, fx).catch((x: unknown) => x);
    expect((e as CliError).exitCode).toBe(5);
    expect((e as Error).message).toMatch(/no space left/);
  });
});

describe("evidence that cannot be written", () => {
  it("a full disk (ENOSPC on requests.jsonl) stops the run: exit 5, sealed partial with the reason, never VALID", async () => {
    const fx = testEffects({files: fullDiskFiles("requests.jsonl", 6000)});
    const cfgPath = writeConfig(
      t.dir,
      "full.yaml",
      yamlConfig({load: {mode: "concurrency", values: [2], requests: 60, warmup: 0}})
    );
    const io = memoryIo();
    const err = await collectCommand({config: cfgPath, out: join(t.dir, "full"), progress: false}, io, fx).catch(
      (e: unknown) => e
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(5);
    expect((err as CliError).message).toMatch(/ENOSPC/);
    const dir = io.stdout[io.stdout.length - 1]!;
    const m = manifestOf(dir);
    expect(m.status).toBe("partial");
    expect(m.statusReason).toMatch(/ENOSPC/);
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.verdict).not.toBe("VALID");
    expect(gate(report, "G1").status).toBe("pass"); // the torn partial write was cut before sealing
    const notes = lines(join(dir, "client_metrics.jsonl"));
    expect(notes.some((l) => l.includes('"event":"write_error"'))).toBe(true);
    expect(notes.some((l) => l.includes('"event":"tail_truncated"'))).toBe(true);
    expect(report.load_points[0]!.n).toBeLessThan(60);
  });

  it("an unwritable output folder fails before any request with exit 5", async () => {
    const blocker = join(t.dir, "not-a-folder");
    writeFileSync(blocker, "x");
    const io = memoryIo();
    const cfgPath = writeConfig(
      t.dir,
      "unwritable.yaml",
      yamlConfig({load: {mode: "concurrency", values: [1], requests: 2, warmup: 0}})
    );
    const err = await collectCommand(
      {config: cfgPath, out: join(blocker, "sub"), progress: false},
      io,
      testEffects()
    ).catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(5);
    expect((err as CliError).message).toMatch(/cannot create the bundle folder/);
    expect(io.stdout).toEqual([]);
  });
});
