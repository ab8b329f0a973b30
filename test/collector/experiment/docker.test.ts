import {execFileSync} from "node:child_process";
import {existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterEach, describe, expect, it} from "vitest";

import {stopContainer} from "../../../collector/launch/docker.ts";
import {teardownLeftovers} from "../../../collector/launch/state.ts";
import {defaultEffects} from "../../../collector/effects.ts";
import {spawnCli, tempDir, waitFor} from "../helpers.ts";
import {writeFakeDocker} from "./fakeDocker.ts";
import {alive, readRecord, writePlan} from "./support.ts";

const dirs: {dir: string; cleanup(): void}[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    // any server the fake docker left (a failed test) is ended by the PID it recorded
    const state = join(d.dir, "docker-state");
    if (existsSync(state))
      for (const f of readdirJson(state))
        try {
          process.kill(-f.pid, "SIGKILL");
        } catch {
          // gone
        }
    d.cleanup();
  }
});
function readdirJson(dir: string): {pid: number}[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as {pid: number});
}
const calls = (dir: string): string[][] =>
  readFileSync(join(dir, "docker-state", "calls.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as string[]);

/** A temp folder with the fake docker and its (empty) state folder, removed after the test. */
function dockerSandbox() {
  const t = tempDir("inferscope-docker-");
  dirs.push(t);
  const state = join(t.dir, "docker-state");
  mkdirSync(state);
  writeFileSync(join(state, "calls.jsonl"), "");
  return {t, state, docker: writeFakeDocker(t.dir)};
}

describe("docker launcher (a fake docker that records its calls)", () => {
  it("runs the container on 127.0.0.1 with the GPU selection, collects, and tears down restart policy first", async () => {
    const {t, docker} = dockerSandbox();
    const plan = writePlan(t.dir, {
      name: "dock",
      variants: [
        {
          name: "vllm",
          launcher: {
            kind: "docker",
            image: "vllm/vllm-openai:v0.11.0",
            args: ["--port", "{port}"],
            container_port: 8000,
            gpus: "device=0",
            restart: "always",
            docker,
            env: {HF_TOKEN: "hf_secretsecret123"}
          },
          model: "fake-model",
          health: {timeout_s: 60, interval_ms: 100}
        }
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"], {
      FAKE_DOCKER_DIR: join(t.dir, "docker-state")
    });
    const {code} = await cli.exit;
    expect([0, 4], cli.stderr()).toContain(code);
    const argv = calls(t.dir);
    const run = argv.find((a) => a[0] === "run")!;
    const name = run[run.indexOf("--name") + 1]!;
    expect(run).toContain("--detach");
    expect(run[run.indexOf("--gpus") + 1]).toBe("device=0");
    expect(run[run.indexOf("--publish") + 1]).toMatch(/^127\.0\.0\.1:\d+:8000$/);
    expect(run.slice(-3)).toEqual(["vllm/vllm-openai:v0.11.0", "--port", "8000"]);
    // teardown order: restart policy off, stop, remove, then a check that it is gone
    const after = argv.slice(argv.indexOf(run) + 1).filter((a) => a[0] !== "inspect" && a[0] !== "logs");
    expect(after.map((a) => a[0])).toEqual(["update", "stop", "rm"]);
    expect(after[0]).toEqual(["update", "--restart=no", name]);
    expect(argv.at(-1)!.slice(0, 1)).toEqual(["inspect"]);
    expect(existsSync(join(t.dir, "docker-state", `${name}.json`))).toBe(false);
    const pids = readFileSync(join(t.dir, "docker-state", "pids.log"), "utf8")
      .trim()
      .split("\n")
      .map(Number);
    expect(pids).toHaveLength(1); // the restart policy was off before the stop: nothing came back
    await waitFor(() => !alive(pids[0]!), 5000, "the container's server gone");
    const record = readRecord(t.dir, "dock")!;
    const v = record.variants[0]!;
    expect(v.status).toBe("collected");
    expect(v.teardown.every((s) => s.ok)).toBe(true);
    // the token passed with --env never reaches the record
    expect(JSON.stringify(record)).not.toContain("hf_secretsecret123");
    expect(v.command!.join(" ")).toContain("HF_TOKEN=[REDACTED]");
    // the server printed it in its log (as servers print their configuration) …
    expect(readFileSync(join(t.dir, "evidence/experiments/dock", v.logFile!), "utf8")).toMatch(
      /env HF_TOKEN=\[REDACTED:[0-9a-f]{8}\]/
    );
    // … but it reaches no file of the bundle (config, manifest, server log) or of the experiment's folder
    const bundleDir = join(t.dir, "evidence/experiments/dock", v.bundles[0]!.dir);
    const exp = join(t.dir, "evidence/experiments/dock");
    for (const d of [bundleDir, exp, join(exp, "logs")])
      for (const f of readdirSync(d).filter((x) => !x.includes("logs") || d.endsWith("logs")))
        if (!statSync(join(d, f)).isDirectory())
          expect(readFileSync(join(d, f), "utf8"), `${d}/${f}`).not.toContain("hf_secretsecret123");
  }, 90_000);

  it("the emulation is not toothless: stopping without disabling the restart policy brings the server back", async () => {
    const {state, docker} = dockerSandbox();
    const fx = defaultEffects({env: {...process.env, FAKE_DOCKER_DIR: state}});
    const env = {...process.env, FAKE_DOCKER_DIR: state};
    execFileSync(
      docker,
      ["run", "--detach", "--name", "c1", "--restart", "always", "--publish", "127.0.0.1:1:8000", "img"],
      {env}
    );
    execFileSync(docker, ["stop", "-t", "1", "c1"], {env});
    const back = JSON.parse(readFileSync(join(state, "c1.json"), "utf8")) as {pid: number; status: string};
    expect(back.status).toBe("running");
    expect(alive(back.pid)).toBe(true);
    // our teardown on the same container: gone, process included (the real exec passes this env on)
    process.env.FAKE_DOCKER_DIR = state;
    try {
      const steps = await stopContainer(fx, docker, "c1", 1);
      expect(steps.map((s) => [s.step.split(" ").slice(0, 2).join(" "), s.ok])).toEqual([
        ["docker update", true],
        ["docker stop", true],
        ["docker rm", true],
        ["container c1", true]
      ]);
    } finally {
      delete process.env.FAKE_DOCKER_DIR;
    }
    // SIGKILLed: gone once the orphan is reaped
    await waitFor(() => !alive(back.pid), 5000, `pid ${back.pid} gone`);
  }, 30_000);

  it("a container a killed run left behind (named in state.json) is torn down before anything else runs", async () => {
    const {t, state, docker} = dockerSandbox();
    const env = {...process.env, FAKE_DOCKER_DIR: state};
    execFileSync(
      docker,
      ["run", "--detach", "--name", "left-1", "--restart", "unless-stopped", "--publish", "127.0.0.1:1:8000", "img"],
      {env}
    );
    const pid = (JSON.parse(readFileSync(join(state, "left-1.json"), "utf8")) as {pid: number}).pid;
    const exp = join(t.dir, "exp");
    mkdirSync(exp);
    writeFileSync(
      join(exp, "state.json"),
      JSON.stringify({live: [{kind: "docker", variant: "v", container: "left-1", docker}]})
    );
    process.env.FAKE_DOCKER_DIR = state;
    try {
      const steps = await teardownLeftovers(defaultEffects(), exp);
      expect(steps.map((s) => s.ok)).toEqual([true, true, true, true]);
      expect(steps[0]!.step).toBe("docker update --restart=no left-1");
    } finally {
      delete process.env.FAKE_DOCKER_DIR;
    }
    expect(existsSync(join(exp, "state.json"))).toBe(false);
    expect(existsSync(join(state, "left-1.json"))).toBe(false);
    await waitFor(() => !alive(pid), 5000, `pid ${pid} gone`);
  }, 30_000);
});
