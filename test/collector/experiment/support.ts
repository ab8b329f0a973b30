import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {stringify} from "yaml";

import type {ExperimentRecord} from "../../../src/analysis/schema/experiment.ts";
import {REPO_ROOT} from "../helpers.ts";

/** A process launcher that starts the fake server through the CLI with these scenario options. */
export function fakeLauncher(options: Record<string, unknown> = {ttftMs: 5, tokenIntervalMs: 2}) {
  return {
    kind: "process",
    command: [
      process.execPath,
      "collector/cli.ts",
      "fake-server",
      "--port",
      "{port}",
      "--options",
      JSON.stringify(options)
    ],
    cwd: REPO_ROOT,
    stop_grace_s: 5
  };
}

/** A small run config (the experiment points it at each variant's server). */
export function runConfig(load: Record<string, unknown> = {mode: "concurrency", values: [2], requests: 6, warmup: 0}) {
  return {
    name: "exp",
    target: {
      base_url: "http://127.0.0.1:9/v1",
      model: "fake-model",
      timeouts: {connect_ms: 2000, headers_ms: 5000, idle_ms: 3000}
    },
    workload: {prompt_tokens: 16, max_tokens: 8},
    load,
    telemetry: {gpu: "off", server_metrics: "off", interval_ms: 100},
    slo: {percentile: "p50"},
    gates: {min_samples: 5, max_loop_delay_p99_ms: 1000, max_dispatch_lag_p99_ms: 1000, min_achieved_load: 0.6},
    output: {fsync_interval_ms: 100}
  };
}

/** Writes the plan and its run config into `dir`; returns the plan's path. */
export function writePlan(
  dir: string,
  plan: Record<string, unknown>,
  config: Record<string, unknown> = runConfig()
): string {
  writeFileSync(join(dir, "run.yaml"), stringify(config));
  const path = join(dir, "plan.yaml");
  writeFileSync(path, stringify({runs: ["run.yaml"], cooldown_s: 0, out: join(dir, "evidence"), ...plan}));
  return path;
}

export const recordPath = (dir: string, name: string) => join(dir, "evidence", "experiments", name, "experiment.json");
export const statePath = (dir: string, name: string) => join(dir, "evidence", "experiments", name, "state.json");

export function readRecord(dir: string, name: string): ExperimentRecord | null {
  const p = recordPath(dir, name);
  if (!existsSync(p)) return null;
  try {
    return JSON.parse(readFileSync(p, "utf8")) as ExperimentRecord;
  } catch {
    return null; // being replaced (atomic rename): read again
  }
}

/** The live PID the experiment's state file names, or null. */
export function livePid(dir: string, name: string): number | null {
  const p = statePath(dir, name);
  if (!existsSync(p)) return null;
  try {
    const s = JSON.parse(readFileSync(p, "utf8")) as {live: {pid?: number}[]};
    return s.live[0]?.pid ?? null;
  } catch {
    return null;
  }
}

/** Whether a process (or any member of its group) with this id exists. */
export function alive(pid: number): boolean {
  for (const target of [pid, -pid])
    try {
      process.kill(target, 0);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EPERM") return true;
    }
  return false;
}

/** The PIDs named by a variant's teardown steps ("SIGTERM process group 1234"). */
export function teardownPids(record: ExperimentRecord): number[] {
  return record.variants.flatMap((v) =>
    v.teardown.flatMap((s) => {
      const m = /process group (\d+)/.exec(s.step);
      return m ? [Number(m[1])] : [];
    })
  );
}
