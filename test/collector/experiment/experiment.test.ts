import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterEach, describe, expect, it} from "vitest";

import {spawnCli, tempDir, waitFor} from "../helpers.ts";
import {alive, fakeLauncher, livePid, readRecord, runConfig, teardownPids, writePlan} from "./support.ts";

const dirs: {cleanup(): void}[] = [];
const started: number[] = [];
afterEach(() => {
  // a failed test must not leave a server behind: only the processes (and the groups of the launched servers)
  // this test saw started are signalled, by their PID
  for (const pid of started.splice(0))
    for (const target of [-pid, pid])
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // gone, or not a group leader
      }
  for (const d of dirs.splice(0)) d.cleanup();
});
const temp = () => {
  const t = tempDir("inferscope-exp-");
  dirs.push(t);
  return t.dir;
};

describe("inferscope experiment (process launcher, fake server)", () => {
  it("runs a grid of two variants and a variant that fails to start; records each; exit 6", async () => {
    const dir = temp();
    const plan = writePlan(dir, {
      name: "grid",
      variants: [
        {
          name: "fake",
          launcher: fakeLauncher(),
          grid: {speed: {fast: [], slow: ["--scenario", "default"]}},
          labels: {engine_family: "fake"},
          health: {timeout_s: 60, interval_ms: 100}
        },
        {
          name: "broken",
          launcher: {
            kind: "process",
            command: [process.execPath, "-e", "console.error('boom: model file missing'); process.exit(3)"]
          },
          health: {timeout_s: 30, interval_ms: 100}
        }
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    const {code} = await cli.exit;
    expect(code, cli.stderr()).toBe(6);
    const record = readRecord(dir, "grid")!;
    expect(record.status).toBe("complete");
    expect(record.order).toEqual(["fake-speed-fast", "fake-speed-slow", "broken"]);
    const [fast, slow, broken] = record.variants;
    expect([fast!.status, slow!.status, broken!.status]).toEqual(["collected", "collected", "start_failed"]);
    expect(broken!.reason).toMatch(/exited with code 3 before it was ready/);
    expect(broken!.logTail).toContain("boom: model file missing");
    // the grid parameter reaches the launch command and the bundle's labels
    expect(slow!.command!.slice(-2)).toEqual(["--scenario", "default"]);
    for (const v of [fast!, slow!]) {
      expect(v.bundles).toHaveLength(1);
      const manifest = JSON.parse(
        readFileSync(join(dir, "evidence/experiments/grid", v.bundles[0]!.dir, "manifest.json"), "utf8")
      ) as {
        labels: Record<string, string>;
        files: {path: string; role: string}[];
        environment: {server: {launchArgs: string[] | null}};
      };
      expect(manifest.labels).toMatchObject({
        experiment: "grid",
        variant: v.name,
        speed: v.params.speed,
        engine_family: "fake"
      });
      expect(manifest.files.find((f) => f.path === "server.log")?.role).toBe("attachment");
      expect(manifest.environment.server.launchArgs).toContain("fake-server");
    }
    expect(record.group.bundles).toEqual([fast!.bundles[0]!.bundleId, slow!.bundles[0]!.bundleId]);
    // every server started is gone, by its PID (its process group)
    const pids = teardownPids(record);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
    const seal = JSON.parse(readFileSync(join(dir, "evidence/experiments/grid/experiment.seal.json"), "utf8")) as {
      files: {path: string}[];
    };
    expect(seal.files.map((f) => f.path)).toEqual([
      "experiment.json",
      "logs/broken.log",
      "logs/fake-speed-fast.log",
      "logs/fake-speed-slow.log"
    ]);
  }, 90_000);

  it("keeps credential values out of the record, its log tails and the saved logs (audit: all three held them)", async () => {
    const dir = temp();
    // a server that prints its argv (as vLLM and llama.cpp do) and fails: the log tail is kept in the record
    const echo = "console.error('args: ' + process.argv.slice(1).join(' ')); process.exit(1)";
    const plan = writePlan(dir, {
      name: "secrets",
      vars: {k1: "vartoken-SECRET-0001", hf_token: "hfvar-SECRET-0002"},
      variants: [
        {
          name: "broken",
          launcher: {
            kind: "process",
            // a literal after --api-key, a value after --hf-token=, a plain-named var after --api-key
            command: [process.execPath, "-e", echo, "--", "--api-key", "literal-SECRET-0003"],
            env: {}
          },
          grid: {auth: {a: ["--hf-token=eq-SECRET-0004", "--api-key", "{k1}", "--other", "{hf_token}"]}},
          health: {timeout_s: 30, interval_ms: 100}
        }
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    const {code} = await cli.exit;
    expect(code, cli.stderr()).toBe(6);
    const folder = join(dir, "evidence/experiments/secrets");
    const record = readFileSync(join(folder, "experiment.json"), "utf8");
    const log = readFileSync(join(folder, "logs/broken-auth-a.log"), "utf8");
    // the server did print them: the log is scrubbed, not empty
    expect(log).toMatch(/args: .*--api-key \[REDACTED:[0-9a-f]{8}\]/);
    expect(JSON.parse(record).variants[0].logTail).toMatch(/--hf-token=\[REDACTED:[0-9a-f]{8}\]/);
    for (const secret of ["vartoken-SECRET-0001", "hfvar-SECRET-0002", "literal-SECRET-0003", "eq-SECRET-0004"]) {
      expect(record, secret).not.toContain(secret);
      expect(log, secret).not.toContain(secret);
      expect(cli.stderr(), secret).not.toContain(secret);
    }
  }, 60_000);

  it("SIGINT mid-collection: the run is sealed interrupted, the server's process group is gone, exit 130", async () => {
    const dir = temp();
    const plan = writePlan(
      dir,
      {
        name: "int",
        variants: [
          {name: "a", launcher: fakeLauncher(), health: {timeout_s: 60, interval_ms: 100}},
          {name: "b", launcher: fakeLauncher()}
        ]
      },
      runConfig({mode: "concurrency", values: [1], duration_s: 60, warmup: 0, grace_s: 2})
    );
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    await waitFor(() => livePid(dir, "int") !== null && /ready in/.test(cli.stderr()), 60_000, "variant a ready");
    const pid = livePid(dir, "int")!;
    started.push(pid);
    await new Promise((r) => setTimeout(r, 1500)); // mid-collection
    cli.kill("SIGINT");
    const {code} = await cli.exit;
    expect(code, cli.stderr()).toBe(130);
    expect(alive(pid)).toBe(false);
    const record = readRecord(dir, "int")!;
    expect(record.status).toBe("interrupted");
    expect(record.variants.map((v) => v.status)).toEqual(["interrupted", "pending"]);
    expect(record.variants[0]!.bundles[0]!.status).toBe("interrupted");
    expect(livePid(dir, "int")).toBeNull();
  }, 90_000);

  it("SIGINT while waiting for a server that never gets ready: torn down, exit 130", async () => {
    const dir = temp();
    // the server prints, then leaves a marker: the test interrupts only once the line is out (a busy machine may
    // start the server late), and the teardown keeps what it printed (the log is read once its pipes closed)
    const marker = join(dir, "printed");
    const hang = [
      process.execPath,
      "-e",
      `console.log('loading…'); require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''); setInterval(() => {}, 1000)`
    ];
    const plan = writePlan(dir, {
      name: "wait",
      variants: [{name: "slow", launcher: {kind: "process", command: hang}, health: {timeout_s: 600, interval_ms: 100}}]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    await waitFor(() => livePid(dir, "wait") !== null, 30_000, "the server started");
    const pid = livePid(dir, "wait")!;
    started.push(pid);
    await waitFor(() => /waiting for GET \/health/.test(cli.stderr()), 30_000, "a readiness progress line");
    await waitFor(() => existsSync(marker), 30_000, "the server's first line");
    cli.kill("SIGINT");
    const {code} = await cli.exit;
    expect(code, cli.stderr()).toBe(130);
    expect(alive(pid)).toBe(false);
    const v = readRecord(dir, "wait")!.variants[0]!;
    expect(v.status).toBe("interrupted");
    expect(v.logTail).toContain("loading…");
  }, 60_000);

  it("--resume after SIGKILL: tears down the server the killed run left, skips the sealed variant, runs the rest", async () => {
    const dir = temp();
    const plan = writePlan(
      dir,
      {
        name: "res",
        variants: [
          {name: "a", launcher: fakeLauncher(), health: {timeout_s: 60, interval_ms: 100}},
          {name: "b", launcher: fakeLauncher(), health: {timeout_s: 60, interval_ms: 100}}
        ]
      },
      runConfig({mode: "concurrency", values: [1], duration_s: 3, warmup: 0})
    );
    const first = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    await waitFor(
      () => readRecord(dir, "res")?.variants[0]?.status === "collected" && livePid(dir, "res") !== null,
      60_000,
      "variant b launched"
    );
    const orphan = livePid(dir, "res")!;
    started.push(orphan);
    first.kill("SIGKILL");
    await first.exit;
    expect(alive(orphan)).toBe(true); // SIGKILL cannot clean up: the server outlives the experiment
    const aBundle = readRecord(dir, "res")!.variants[0]!.bundles[0]!.bundleId;

    const again = spawnCli(["experiment", "--plan", plan, "--resume", "--no-progress"]);
    const {code} = await again.exit;
    expect([0, 4], again.stderr()).toContain(code); // 4 only if a busy machine makes a verdict INCONCLUSIVE
    expect(alive(orphan)).toBe(false);
    expect(again.stderr()).toContain(`tearing down process group ${orphan} left by an earlier run`);
    expect(again.stderr()).toContain("variant a: already collected (sealed), skipped");
    const record = readRecord(dir, "res")!;
    expect(record.status).toBe("complete");
    expect(record.resumes).toHaveLength(1);
    expect(record.variants.map((v) => v.status)).toEqual(["collected", "collected"]);
    expect(record.variants[0]!.bundles[0]!.bundleId).toBe(aBundle);
    for (const pid of teardownPids(record)) expect(alive(pid)).toBe(false);
  }, 120_000);

  it("refuses to overwrite an experiment without --resume, and a bad plan names file:line (exit 2)", async () => {
    const dir = temp();
    const plan = writePlan(dir, {
      name: "bad",
      variants: [{name: "a", launcher: {kind: "process", command: ["x"]}, colour: 1}]
    });
    const cli = spawnCli(["experiment", "--plan", plan]);
    expect((await cli.exit).code).toBe(2);
    expect(cli.stderr()).toMatch(/plan\.yaml:\d+:\d+: variants\[0\]\.colour: unknown key "colour"/);
    // what a launch would fail on is a plan error before anything starts: no record, no server, exit 2
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        "placeholder",
        {kind: "process", command: [process.execPath, "-e", "", "{prot}"]},
        /plan\.yaml:\d+:\d+: variant a: launcher\.command\[3\]: unknown placeholder \{prot\} \(known: host, port, variant\)/
      ],
      [
        "env",
        {kind: "process", command: [process.execPath, "{env.INFERSCOPE_NO_SUCH_VAR}"]},
        /variant a: launcher\.command\[1\]: \{env\.INFERSCOPE_NO_SUCH_VAR\}: the environment variable INFERSCOPE_NO_SUCH_VAR is not set/
      ],
      [
        "url",
        {kind: "external", base_url: "not a url"},
        /launcher\.base_url: expected an http\(s\) URL, got "not a url"/
      ]
    ];
    // an output folder that cannot be made (a file there) is evidence not written: exit 5 (it was 2)
    const o = temp();
    writeFileSync(join(o, "taken"), "a file\n");
    const outFile = writePlan(o, {
      name: "out",
      out: join(o, "taken"),
      variants: [{name: "a", launcher: fakeLauncher()}]
    });
    const w = spawnCli(["experiment", "--plan", outFile]);
    expect((await w.exit).code, w.stderr()).toBe(5);
    expect(w.stderr()).toMatch(/experiment out: cannot write under .*taken\/experiments\/out: ENOTDIR/);
    for (const [name, launcher, said] of cases) {
      const d = temp();
      const p = writePlan(d, {name, variants: [{name: "a", launcher}]});
      const c = spawnCli(["experiment", "--plan", p]);
      expect((await c.exit).code, name).toBe(2);
      expect(c.stderr(), name).toMatch(said);
      expect(existsSync(join(d, "evidence")), name).toBe(false);
    }
  }, 60_000);

  it("--resume skips a sealed INCONCLUSIVE variant; --rerun-inconclusive runs it again", async () => {
    const dir = temp();
    // 6 measured requests against a 10-sample minimum: every bundle is INCONCLUSIVE
    const config = {...runConfig(), gates: {...runConfig().gates, min_samples: 10}};
    const plan = writePlan(
      dir,
      {name: "inc", variants: [{name: "a", launcher: fakeLauncher(), health: {timeout_s: 60, interval_ms: 100}}]},
      config
    );
    const first = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    expect((await first.exit).code, first.stderr()).toBe(4);
    const before = readRecord(dir, "inc")!.variants[0]!.bundles[0]!.bundleId;
    const resumed = spawnCli(["experiment", "--plan", plan, "--resume", "--no-progress"]);
    expect((await resumed.exit).code).toBe(4);
    expect(resumed.stderr()).toContain("variant a: already collected (sealed), skipped");
    expect(readRecord(dir, "inc")!.variants[0]!.bundles[0]!.bundleId).toBe(before);
    const rerun = spawnCli(["experiment", "--plan", plan, "--resume", "--rerun-inconclusive", "--no-progress"]);
    expect((await rerun.exit).code).toBe(4);
    const after = readRecord(dir, "inc")!;
    expect(after.variants[0]!.bundles[0]!.bundleId).not.toBe(before);
    expect(after.resumes).toHaveLength(2);
  }, 90_000);

  it("an external launcher is health-checked and collected against, never stopped", async () => {
    const dir = temp();
    const server = spawnCli([
      "fake-server",
      "--port",
      "0",
      "--options",
      JSON.stringify({ttftMs: 5, tokenIntervalMs: 2})
    ]);
    started.push(server.pid);
    await waitFor(
      () => /127\.0\.0\.1:\d+/.test(server.stdout() + server.stderr()),
      30_000,
      "the fake server's address"
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(server.stdout() + server.stderr())![0];
    const plan = writePlan(dir, {
      name: "ext",
      variants: [
        {name: "x", launcher: {kind: "external", base_url: `${url}/v1`}, health: {path: "/health", timeout_s: 30}}
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    expect([0, 4], cli.stderr()).toContain((await cli.exit).code);
    const v = readRecord(dir, "ext")!.variants[0]!;
    expect([v.status, v.launcher, v.baseUrl, v.command]).toEqual(["collected", "external", url, null]);
    expect(v.teardown).toEqual([{step: "external server: left running", ok: true, detail: null}]);
    expect(alive(server.pid)).toBe(true);
    server.kill("SIGTERM");
    await server.exit;
  }, 60_000);

  it("a collection that fails (the server stops listening once ready) is recorded, and the server is still torn down", async () => {
    const dir = temp();
    // answers the readiness checks, then stops listening but stays alive: collect() finds it unreachable
    const script = [
      'const http = require("http");',
      "const s = http.createServer((q, r) => {",
      '  const send = (c, b) => { r.writeHead(c, {"content-type": "application/json"}); r.end(JSON.stringify(b)); };',
      '  if (q.url === "/health") return send(200, {status: "ok"});',
      '  if (q.url === "/v1/models") return send(200, {data: [{id: "fake-model"}]});',
      '  if (q.url.startsWith("/v1/chat")) {',
      '    send(200, {choices: [{message: {content: "x"}}]});',
      '    r.on("finish", () => { s.close(); s.closeAllConnections(); console.log("stopped listening"); });',
      "    return;",
      "  }",
      "  send(404, {});",
      "});",
      's.listen(Number(process.argv[1]), "127.0.0.1");',
      "setInterval(() => {}, 1000);"
    ].join("\n");
    const plan = writePlan(dir, {
      name: "cf",
      variants: [
        {
          name: "deaf",
          launcher: {kind: "process", command: [process.execPath, "-e", script, "{port}"], stop_grace_s: 5},
          health: {timeout_s: 30, interval_ms: 100}
        }
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    expect((await cli.exit).code, cli.stderr()).toBe(6);
    const v = readRecord(dir, "cf")!.variants[0]!;
    expect(v.status).toBe("collect_failed");
    expect(v.reason).toMatch(/target unreachable/);
    expect(v.logTail).toContain("stopped listening");
    const pids = teardownPids(readRecord(dir, "cf")!);
    expect(v.teardown.find((s) => s.step.startsWith("SIGTERM process group"))?.ok).toBe(true);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 60_000);
});
