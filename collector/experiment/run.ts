import {join, relative} from "node:path";

import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {
  PLACEHOLDER,
  type ExperimentPlan,
  type ExperimentRecord,
  type Variant,
  type VariantRecord
} from "../../src/analysis/schema/experiment.ts";
import {credentialValues, redactArgs} from "../../src/analysis/redact/args.ts";
import {appendAll} from "../../src/analysis/util/append.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {isoOf} from "../bundle/manifest.ts";
import {shortId} from "../bundle/name.ts";
import type {Effects} from "../effects.ts";
import {waitReady} from "../launch/health.ts";
import {launchDocker} from "../launch/docker.ts";
import {logTail} from "../launch/logBuffer.ts";
import {launchProcess} from "../launch/process.ts";
import {teardownLeftovers, writeState} from "../launch/state.ts";
import type {Launched, TeardownStep} from "../launch/types.ts";
import {createRedactor, isSecretName, type Redactor} from "../redact.ts";
import type {CollectOutcome} from "../run/context.ts";
import {bindConfig} from "./bind.ts";
import {readRecord, sealRecord, writeRecord} from "./record.ts";

/** One run config of the plan, read and validated. */
export interface PlanRun {
  file: string;
  config: RunConfig;
}

export interface ExperimentOptions {
  fx: Effects;
  plan: ExperimentPlan;
  planText: string;
  planDir: string;
  variants: Variant[];
  runs: PlanRun[];
  /** The experiment's folder (record, logs, state). */
  dir: string;
  resume: boolean;
  rerunInconclusive: boolean;
  /** Collects one bound config (the CLI passes collect() with its transport; the server log is attached). */
  collect: (config: RunConfig, attach: () => Promise<{name: string; text: string}[]>) => Promise<CollectOutcome>;
  /** The verdict of a sealed bundle (for --rerun-inconclusive). */
  verdict: (bundleDir: string) => Promise<string>;
}

export interface ExperimentOutcome {
  record: ExperimentRecord;
  interrupted: boolean;
  leftovers: TeardownStep[];
}

/** The argv a variant's launcher states (its own arguments and the grid's), placeholders not yet filled. */
function launchArgv(v: Variant): string[] {
  const l = v.spec.launcher;
  if (l.kind === "process") return [...l.command, ...v.extraArgs];
  if (l.kind === "docker") return [...l.run_args, ...l.args, ...v.extraArgs];
  return [];
}

/**
 * Secrets of the plan: values of secret-named launcher environment variables, of secret-named plan vars and of
 * the process env, and the values after credential flags (`--api-key X`, `--hf-token=X`) in every variant's
 * argv, with the plan's vars and {env.NAME} filled in as the launch fills them (a placeholder after a credential
 * flag is a secret whatever its name). Scrubs the record's plan copy, its log tails and the saved server logs.
 */
function planSecrets(plan: ExperimentPlan, variants: readonly Variant[], env: Effects["env"]): string[] {
  const values: string[] = [];
  for (const v of plan.variants)
    if (v.launcher.kind !== "external")
      for (const [k, x] of Object.entries(v.launcher.env)) if (isSecretName(k)) values.push(x);
  for (const [k, x] of Object.entries(plan.vars)) if (isSecretName(k)) values.push(x);
  for (const [k, x] of Object.entries(env)) if (x !== undefined && isSecretName(k)) values.push(x);
  const vars: Record<string, string> = {...plan.vars};
  for (const [k, x] of Object.entries(env)) if (x !== undefined) vars[`env.${k}`] = x;
  const fill = (a: string) => a.replace(PLACEHOLDER, (m, k: string) => vars[k] ?? m);
  for (const v of variants) appendAll(values, credentialValues(launchArgv(v).map(fill)));
  return values;
}

/** A variant whose bundles are all sealed is done (whatever its verdict, unless --rerun-inconclusive). */
async function alreadyDone(o: ExperimentOptions, prev: VariantRecord | undefined): Promise<boolean> {
  if (prev === undefined || prev.status !== "collected" || prev.bundles.length < o.runs.length) return false;
  for (const b of prev.bundles) if (!(await o.fx.files.exists(join(o.dir, b.dir, "manifest.json")))) return false;
  if (!o.rerunInconclusive) return true;
  for (const b of prev.bundles) if ((await o.verdict(join(o.dir, b.dir))) === "INCONCLUSIVE") return false;
  return true;
}

function launch(o: ExperimentOptions, v: Variant): Promise<Launched> {
  // {env.NAME} reads the collector's environment (a token for the server: redacted wherever it is written)
  const env = Object.fromEntries(
    Object.entries(o.fx.env).flatMap(([k, x]) => (x === undefined ? [] : [[`env.${k}`, x] as const]))
  );
  const req = {
    fx: o.fx,
    variant: v.name,
    launcher: v.spec.launcher,
    extraArgs: v.extraArgs,
    vars: {...env, ...o.plan.vars},
    planDir: o.planDir
  };
  if (v.spec.launcher.kind === "process") return launchProcess(req);
  if (v.spec.launcher.kind === "docker") return launchDocker({...req, experiment: o.plan.name, nonce: shortId()});
  const base = v.spec.launcher.base_url.replace(/\/+$/, "").replace(/\/v1$/, "");
  return Promise.resolve({
    baseUrl: base,
    command: null,
    handle: {kind: "external", variant: v.name},
    exited: async () => null,
    logs: async () => "",
    stop: async () => [{step: "external server: left running", ok: true, detail: null}]
  });
}

/** The record of one variant before it runs. */
function blankRecord(v: Variant, startedAt: string): VariantRecord {
  return {
    name: v.name,
    params: v.params,
    labels: v.spec.labels,
    launcher: v.spec.launcher.kind,
    command: null,
    baseUrl: null,
    status: "pending",
    reason: null,
    readyMs: null,
    startedAt,
    endedAt: null,
    logFile: null,
    logTail: null,
    bundles: [],
    teardown: []
  };
}

/** Launch, wait for health, collect every run, tear down (always), keep the log. */
// eslint-disable-next-line max-lines-per-function -- one variant's life in order: launch, ready, collect, teardown
async function runVariant(
  o: ExperimentOptions,
  v: Variant,
  secrets: readonly string[],
  stopped: () => boolean
): Promise<VariantRecord & {interrupted: boolean}> {
  const {fx} = o;
  const rec = blankRecord(v, isoOf(fx.clock.wallMs()));
  let server: Launched;
  let redact: Redactor = createRedactor(secrets);
  try {
    server = await launch(o, v);
  } catch (e) {
    return {
      ...rec,
      status: "start_failed",
      reason: redact((e as Error).message),
      endedAt: isoOf(fx.clock.wallMs()),
      interrupted: false
    };
  }
  await writeState(fx, o.dir, [server.handle]);
  // the command as launched: credential values its filled placeholders gave are secrets of its log too
  if (server.command !== null) redact = createRedactor([...secrets, ...credentialValues(server.command)]);
  rec.command = server.command === null ? null : redactArgs(server.command).map((a) => redact(a));
  rec.baseUrl = server.baseUrl;
  let interrupted = false;
  let wantTail = false;
  const logText = async () => redact(await server.logs());
  try {
    fx.log.info(
      `variant ${v.name}: ${server.command === null ? `external ${server.baseUrl}` : `started (${rec.command!.join(" ").slice(0, 160)})`}`
    );
    const model = v.spec.model ?? o.runs[0]!.config.target.model;
    const health = await waitReady({
      fx,
      server,
      health: v.spec.health,
      model,
      endpoint: o.runs[0]!.config.target.endpoint,
      stopped,
      label: v.name
    });
    if (!health.ready) {
      interrupted = stopped();
      rec.status = interrupted ? "interrupted" : "start_failed";
      rec.reason = health.reason;
      wantTail = true;
    } else {
      rec.readyMs = health.readyMs;
      fx.log.info(`variant ${v.name}: ready in ${(health.readyMs / 1000).toFixed(1)} s at ${server.baseUrl}`);
      for (const run of o.runs) {
        const bound = bindConfig(run.config, {
          experiment: o.plan.name,
          variant: v,
          baseUrl: server.baseUrl,
          model: health.model,
          command: server.command
        });
        const outcome = await o.collect(bound, async () => [{name: "server.log", text: await logText()}]);
        rec.bundles.push({
          run: run.file,
          bundleId: outcome.manifest?.bundleId ?? outcome.dir.split("/").pop()!,
          // relative to the record's folder: the evidence folder moves (a copy for the site, another host)
          dir: relative(o.dir, outcome.dir),
          status: outcome.status
        });
        if (outcome.interrupted || stopped()) {
          interrupted = true;
          break;
        }
      }
      rec.status = interrupted ? "interrupted" : "collected";
    }
  } catch (e) {
    rec.status = stopped() ? "interrupted" : "collect_failed";
    interrupted = stopped();
    rec.reason = redact((e as Error).message);
    wantTail = true;
  } finally {
    // the log after the teardown: what the server printed while stopping (or just before a Ctrl-C) is in it
    rec.teardown = await server.stop();
    const log = await logText();
    if (wantTail) rec.logTail = logTail(log);
    rec.logFile = `logs/${v.name}.log`;
    await fx.files.writeAtomic(join(o.dir, rec.logFile), log);
    const ok = rec.teardown.every((s) => s.ok);
    fx.log[ok ? "info" : "warn"](
      `variant ${v.name}: teardown ${ok ? "done" : "INCOMPLETE"}: ${rec.teardown.map((s) => `${s.step}${s.ok ? "" : ` (failed: ${s.detail})`}`).join("; ")}`
    );
    if (ok) await writeState(fx, o.dir, []);
    rec.endedAt = isoOf(fx.clock.wallMs());
  }
  return {...rec, interrupted};
}

/**
 * Runs an experiment: tears down what a killed earlier run left, then for each variant in order: launch,
 * wait until ready, collect each run config against it, tear it down (also on failure and on Ctrl-C), cool
 * down. The record is rewritten after every variant and sealed at the end, interrupted or not.
 */
export async function runExperimentPlan(o: ExperimentOptions): Promise<ExperimentOutcome> {
  const {fx, plan} = o;
  const previous = await readRecord(fx, o.dir);
  if (previous !== null && !o.resume)
    throw new Error(
      `${join(o.dir, "experiment.json")} exists: pass --resume to continue that experiment, or choose another name`
    );
  await fx.files.mkdirp(join(o.dir, "logs"));
  const leftovers = await teardownLeftovers(fx, o.dir);
  const secrets = planSecrets(plan, o.variants, fx.env);
  const redact = createRedactor(secrets);
  const now = isoOf(fx.clock.wallMs());
  const record: ExperimentRecord = {
    kind: "inferscope.experiment",
    schemaVersion: 1,
    name: plan.name,
    description: plan.description ?? null,
    planSha256: sha256Hex(o.planText),
    plan: redact.value(plan),
    startedAt: previous?.startedAt ?? now,
    finishedAt: null,
    status: "running",
    order: o.variants.map((v) => v.name),
    variants: o.variants.map((v) => previous?.variants.find((p) => p.name === v.name) ?? blankRecord(v, now)),
    resumes: previous === null ? [] : [...previous.resumes, now],
    group: {id: `experiment-${plan.name}`, title: plan.description ?? `experiment ${plan.name}`, bundles: []}
  };
  let interrupted = false;
  const off = fx.signals.on(() => (interrupted = true));
  try {
    await writeRecord(fx, o.dir, record);
    for (const [i, v] of o.variants.entries()) {
      if (interrupted) break;
      if (await alreadyDone(o, record.variants[i])) {
        fx.log.info(`variant ${v.name}: already collected (sealed), skipped`);
        continue;
      }
      const {interrupted: stop, ...rec} = await runVariant(o, v, secrets, () => interrupted);
      record.variants[i] = rec;
      interrupted ||= stop;
      await writeRecord(fx, o.dir, record);
      if (!interrupted && i < o.variants.length - 1 && plan.cooldown_s > 0) await fx.sleep(plan.cooldown_s * 1000);
    }
  } finally {
    off();
  }
  record.status = interrupted ? "interrupted" : "complete";
  record.finishedAt = isoOf(fx.clock.wallMs());
  record.group.bundles = record.variants.flatMap((v) => v.bundles.map((b) => b.bundleId));
  await sealRecord(fx, o.dir, record);
  return {record, interrupted, leftovers};
}
