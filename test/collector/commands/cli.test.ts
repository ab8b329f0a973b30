import {readFileSync, writeFileSync} from "node:fs";
import {createServer} from "node:net";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {Command} from "commander";

import {buildProgram, COMMANDS, nodeTooOld} from "../../../collector/cli.ts";
import {analyzeCommand} from "../../../collector/commands/analyze.ts";
import {collectCommand} from "../../../collector/commands/collect.ts";
import {gateCommand} from "../../../collector/commands/gate.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {CliError} from "../../../collector/cliError.ts";
import {realFiles} from "../../../collector/effects.ts";
import {FAST, memoryLogger, spawnCli, tempDir, testEffects, writeConfig} from "../helpers.ts";

let server: FakeServer;
const t = tempDir();
let valid = "";
const STEADY = JSON.stringify({ttftMs: 30, tokenIntervalMs: 10});
let inconclusive = "";

function config(extra: Record<string, unknown> = {}) {
  return {
    name: "cli",
    // ~100 ms a request (not FAST's ~20): a busy machine's gaps between a closed loop's requests stay a small share
    // of G5's achieved load (the valid run went INCONCLUSIVE once under load average ~6)
    target: {base_url: server.url, model: "fake-model", headers: {"x-fake-options": STEADY}},
    workload: {prompt_tokens: 16, max_tokens: 8},
    load: {mode: "concurrency", values: [2], requests: 12, warmup: 1},
    telemetry: {gpu: "off", server_metrics: "auto", interval_ms: 100},
    // loosened client-health and achieved-load thresholds: the fake server shares this test's 2 cores
    // judged at the median (5 samples suffice); SLOs loose enough that a busy machine's stalls do not make
    // a request miss them (--min-goodput is tested on what the server did, not on this machine's load)
    slo: {percentile: "p50", ttft_ms: 10_000, itl_ms: 2000, e2e_ms: 60_000},
    gates: {min_samples: 5, max_loop_delay_p99_ms: 1000, max_dispatch_lag_p99_ms: 1000, min_achieved_load: 0.6},
    output: {fsync_interval_ms: 100},
    ...extra
  };
}

function memoryIo(): Io & {lines: string[]} {
  const lines: string[] = [];
  return {lines, out: (l) => void lines.push(l), err: memoryLogger()};
}

beforeAll(async () => {
  server = await startFakeServer({port: 0});
  const ok = spawnCli([
    "collect",
    "--config",
    writeConfig(t.dir, "ok.yaml", config()),
    "--out",
    join(t.dir, "b"),
    "--no-progress"
  ]);
  await ok.exit;
  const bad = spawnCli([
    "collect",
    "--config",
    writeConfig(
      t.dir,
      "none.yaml",
      config({
        target: {
          base_url: server.url,
          model: "fake-model",
          headers: {"x-fake-scenario": "usage-none", "x-fake-options": FAST}
        }
      })
    ),
    "--out",
    join(t.dir, "b"),
    "--no-progress"
  ]);
  const a = await ok.exit;
  const b = await bad.exit;
  expect(a.code, ok.stderr()).toBe(0);
  expect(b.code, bad.stderr()).toBe(4); // finished, verdict not VALID
  valid = ok.stdout().trim().split("\n").pop()!;
  inconclusive = bad.stdout().trim().split("\n").pop()!;
  expect(bad.stderr()).toMatch(/verdict INCONCLUSIVE/);
}, 60_000);

afterAll(async () => {
  await server.close();
  t.cleanup();
});

describe("inferscope CLI", () => {
  it("--help documents the exit codes; the bundle path is the last stdout line of collect", async () => {
    const h = spawnCli(["--help"]);
    expect((await h.exit).code).toBe(0);
    expect(h.stdout()).toMatch(/130\s+interrupted/);
    expect(h.stdout()).toMatch(/5\s+evidence could not be written/);
    expect(valid).toMatch(/\/\d{8}-[a-z0-9.-]+-fake-model-cli-[0-9a-f]{6}$/);
  });

  it("a config error exits 2 naming file, line, column and key path", async () => {
    const path = writeConfig(t.dir, "typo.yaml", {...config(), load: {mode: "concurrency", values: [1], requets: 3}});
    const c = spawnCli(["collect", "--config", path]);
    expect((await c.exit).code).toBe(2);
    expect(c.stderr()).toMatch(
      new RegExp(`${path.replace(/[.]/g, "\\.")}:\\d+:\\d+: load\\.requets: unknown key "requets"`)
    );
    expect(c.stdout()).toBe("");
  });

  it("an unreachable target exits 3 with its URL, and writes no bundle", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as {port: number}).port;
        s.close(() => resolve(p));
      });
    });
    const path = writeConfig(
      t.dir,
      "down.yaml",
      config({target: {base_url: `http://127.0.0.1:${port}/v1`, model: "m"}})
    );
    const c = spawnCli(["collect", "--config", path, "--out", join(t.dir, "down")]);
    expect((await c.exit).code).toBe(3);
    expect(c.stderr()).toMatch(new RegExp(`target unreachable: GET http://127\\.0\\.0\\.1:${port}/v1/models`));
    expect(c.stdout()).toBe("");
  });

  it("analyze --json prints the stable shape with the documented keys", async () => {
    const io = memoryIo();
    await analyzeCommand(valid, {json: true}, io);
    const v = JSON.parse(io.lines.join("\n")) as Record<string, unknown> & {
      gates: Record<string, unknown>[];
      load_points: {metrics: Record<string, Record<string, unknown>>}[];
    };
    expect(Object.keys(v)).toEqual(
      expect.arrayContaining([
        "bundle",
        "verdict",
        "verdict_reasons",
        "status",
        "measure_version",
        "analyzer_version",
        "gates",
        "load_points",
        "issues"
      ])
    );
    expect(v.verdict).toBe("VALID");
    expect(Object.keys(v.gates[0]!)).toEqual(["id", "slug", "status", "reason"]);
    const lp = v.load_points[0]!;
    expect(Object.keys(lp)).toEqual(
      expect.arrayContaining(["id", "mode", "value", "n", "n_success", "verdict", "metrics"])
    );
    for (const id of ["ttft_ms", "e2e_ms", "tpot_ms", "itl_ms", "inter_chunk_ms", "decode_tok_s", "prefill_tok_s"])
      expect(Object.keys(lp.metrics[id]!), id).toEqual(
        expect.arrayContaining(["mean", "p50", "p90", "p95", "p99", "n"])
      );
    for (const id of ["request_throughput_rps", "output_throughput_tok_s", "goodput_pct", "success_rate_pct"])
      expect(lp.metrics[id], id).toHaveProperty("value");
    expect(lp.metrics.ttft_ms!.p99).toBeNull(); // n = 12 < 100: withheld
    // the old key of the renamed total throughput was kept for analyzer 2 only
    expect(lp.metrics.total_throughput_tok_s).toBeUndefined();
    expect(lp.metrics.input_output_throughput_tok_s).toHaveProperty("value");
    const text = memoryIo();
    await analyzeCommand(valid, {}, text);
    expect(text.lines[0]).toMatch(/verdict VALID/);
    expect(text.lines.some((l) => /p99 —\*/.test(l))).toBe(true);
  });

  it("verify: exit 0 when intact; one changed byte makes it exit 4 naming the file", async () => {
    const ok = spawnCli(["verify", valid]);
    expect((await ok.exit).code, ok.stdout()).toBe(0);
    expect(ok.stdout()).toMatch(/^ok\s+requests\.jsonl/m);
    // an intact bundle prints no FAIL line, not even for the manifest that cannot digest itself
    expect(ok.stdout()).not.toMatch(/^FAIL/m);
    expect(ok.stdout()).toMatch(/^ok\s+manifest\.json/m);
    const path = join(valid, "schedule.jsonl");
    const before = readFileSync(join(valid, "requests.jsonl"));
    try {
      writeFileSync(
        join(valid, "requests.jsonl"),
        Buffer.concat([before.subarray(0, 20), Buffer.from(before[20] === 0x31 ? "2" : "1"), before.subarray(21)])
      );
      const bad = spawnCli(["verify", valid]);
      expect((await bad.exit).code).toBe(4);
      expect(bad.stdout()).toMatch(/FAIL\s+requests\.jsonl\s+MISMATCH/);
      expect(bad.stderr()).toMatch(/not intact/);
    } finally {
      writeFileSync(join(valid, "requests.jsonl"), before);
    }
    expect(readFileSync(path, "utf8")).toBe(""); // closed loop: an empty schedule, still digested
  });

  it("gate: every verdict but VALID fails unless --allow-inconclusive; --min-goodput checks every point", async () => {
    const good = memoryIo();
    await gateCommand([valid], {minGoodput: "90"}, good);
    expect(good.lines).toEqual([expect.stringMatching(/^PASS .*verdict VALID/)]);

    // INCONCLUSIVE (too few samples, an overloaded client) fails a pipeline like collect's exit 4 does
    const plain = spawnCli(["gate", valid, inconclusive]);
    expect((await plain.exit).code).toBe(4);
    expect(plain.stdout()).toMatch(/^PASS .*verdict VALID/m);
    expect(plain.stdout()).toMatch(/FAIL .*cli.*verdict INCONCLUSIVE/);
    const strict = spawnCli(["gate", valid, inconclusive, "--strict"]); // the old flag is accepted and changes nothing
    expect((await strict.exit).code).toBe(4);

    const allowed = memoryIo();
    await gateCommand([valid, inconclusive], {allowInconclusive: true}, allowed);
    expect(allowed.lines.filter((l) => l.startsWith("PASS"))).toHaveLength(2);
    expect(allowed.lines.join("\n")).toMatch(/INCONCLUSIVE, allowed by --allow-inconclusive/);

    const goodput = memoryIo();
    const e = await gateCommand([inconclusive], {minGoodput: "90", allowInconclusive: true}, goodput).catch(
      (x: unknown) => x
    );
    // without token counts the ITL clause cannot be judged: goodput is unknown, and unknown fails a minimum
    expect(goodput.lines.join("\n")).toMatch(/concurrency-2: goodput (unknown|\d)/);
    expect(e instanceof CliError ? e.exitCode : 0).toBe(4);

    await expect(gateCommand([valid], {minGoodput: "150"}, memoryIo())).rejects.toMatchObject({exitCode: 2});
  });

  it("collect --out naming a file: exit 5 naming the file, not an 'existing folder' that is not there", async () => {
    const file = join(t.dir, "not-a-folder.txt");
    writeFileSync(file, "a file\n");
    const c = spawnCli(["collect", "--config", writeConfig(t.dir, "out-file.yaml", config()), "--out", file]);
    expect((await c.exit).code).toBe(5);
    expect(c.stderr()).toContain(`${file} is a file, not a folder`);
    expect(readFileSync(file, "utf8")).toBe("a file\n");
  });

  it("collect with both --config and --resume: exit 2, neither run nor seal (--config was ignored)", async () => {
    const c = spawnCli(["collect", "--config", writeConfig(t.dir, "both.yaml", config()), "--resume", valid]);
    expect((await c.exit).code).toBe(2);
    expect(c.stderr()).toContain("give --config FILE (a new run) or --resume DIR (seal a crashed one), not both");
  });

  it("probe prints the fingerprint and capabilities as JSON", async () => {
    const p = spawnCli(["probe", "--config", writeConfig(t.dir, "probe.yaml", config())]);
    expect((await p.exit).code, p.stderr()).toBe(0);
    const v = JSON.parse(p.stdout()) as {
      reachable: boolean;
      capabilities: Record<string, unknown>;
      host: {cpuCount: number};
    };
    expect(v.reachable).toBe(true);
    expect(v.capabilities).toMatchObject({
      streaming: true,
      usage_in_stream: true,
      metrics: true,
      tokenize: true,
      models_endpoint: true
    });
    expect(v.host.cpuCount).toBeGreaterThan(0);
  });

  it("a missing API key variable is a usage error; an existing bundle folder is never overwritten", async () => {
    const withKey = writeConfig(
      t.dir,
      "key.yaml",
      config({target: {base_url: server.url, model: "fake-model", api_key_env: "NO_SUCH_KEY_VAR"}})
    );
    await expect(collectCommand({config: withKey, progress: false}, memoryIo(), testEffects())).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/NO_SUCH_KEY_VAR/)
    });
    const exists = Object.assign(new Error("EEXIST: file already exists"), {code: "EEXIST"});
    const fx = testEffects({files: {...realFiles, mkdirNew: () => Promise.reject(exists)}});
    const cfg = writeConfig(t.dir, "dup.yaml", config());
    await expect(
      collectCommand({config: cfg, out: join(t.dir, "dup"), progress: false}, memoryIo(), fx)
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/refusing to overwrite/)
    });
  });

  it("an unknown command is an error everywhere, --help and `help X` included (issue 18)", async () => {
    for (const args of [["nosuch", "--help"], ["help", "nosuch"], ["nosuch"]]) {
      const child = spawnCli(args);
      const {code} = await child.exit;
      expect(code, args.join(" ")).toBe(2);
      expect(child.stderr()).toBe("inferscope: unknown command 'nosuch' (see `inferscope --help`)\n");
      expect(child.stdout()).toBe(""); // not the root help
    }
    for (const args of [["help", "merge"], ["merge", "--help"], ["--help"]]) {
      const child = spawnCli(args);
      expect((await child.exit).code, args.join(" ")).toBe(0);
      expect(child.stdout()).toMatch(/^Usage: inferscope/);
    }
  }, 30_000);

  it("refuses Node older than 22.12", () => {
    expect([nodeTooOld("20.20.2"), nodeTooOld("22.11.0"), nodeTooOld("22.12.0"), nodeTooOld("24.1.0")]).toEqual([
      true,
      true,
      false,
      false
    ]);
  });
});

describe("loading the commands (issue 17: fixed cost)", () => {
  it("each entry of the command table names exactly what its module registers, no name twice", async () => {
    const all: string[] = [];
    for (const c of COMMANDS) {
      const p = new Command("inferscope");
      (await c.load()).register(p);
      expect(p.commands.map((x) => x.name())).toEqual(c.names);
      all.push(...c.names);
    }
    expect(new Set(all).size).toBe(all.length);
  });

  it("a command line naming a command loads that module alone; the root help, `help X` and an unknown word load all", async () => {
    const names = async (args: string[]) => (await buildProgram(args)).commands.map((c) => c.name());
    expect(await names(["merge", "a", "b", "--out", "c"])).toEqual(["merge"]);
    expect(await names(["keygen", "--help"])).toEqual(["keygen", "sign"]);
    const every = COMMANDS.flatMap((c) => c.names);
    for (const args of [[], ["--help"], ["help", "merge"], ["nosuch"], ["--version"]])
      expect(await names(args), args.join(" ")).toEqual(every);
  });
});
