import {dirname, isAbsolute, join, resolve} from "node:path";

import type {Command} from "commander";

import {analyzeBundle} from "../../src/analysis/index.ts";
import {formatProblem, parseSpecText, type Locate} from "../../src/analysis/schema/configText.ts";
import {
  expandVariants,
  ExperimentPlanSpec,
  fillTemplate,
  type ExperimentPlan,
  type Variant
} from "../../src/analysis/schema/experiment.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {runExperimentPlan, type PlanRun} from "../experiment/run.ts";
import {createProgress, silentProgress} from "../load/progress.ts";
import {collect} from "../run/collect.ts";
import {defaultCollectDeps, probeJudge, readConfig, type CollectDeps} from "./collect.ts";
import {defaultIo, type Io} from "./io.ts";

export interface ExperimentCliOptions {
  plan?: string;
  out?: string;
  resume?: boolean;
  rerunInconclusive?: boolean;
  progress?: boolean;
}

/** The names a launch fills in besides the plan's vars and {env.NAME} (launch/process.ts, launch/docker.ts). */
const LAUNCH_VARS = {process: ["port", "host", "variant"], docker: ["port", "host_port", "host", "variant"]} as const;

/**
 * What a launch would fail on that the plan already shows: a placeholder no launch fills, an {env.NAME} that is
 * not set, an external server URL that is not one. Checked before anything starts (each was found only when its
 * variant launched, after the variants before it had run, with a record written): ":line:col: why", or null.
 */
function launchProblem(
  plan: ExperimentPlan,
  variants: readonly Variant[],
  env: Effects["env"],
  locate: Locate
): string | null {
  const at = (path: (string | number)[]) => {
    const p = locate(path);
    return p.line === null ? ": " : `:${p.line}:${p.column}: `;
  };
  for (const v of variants) {
    const l = v.spec.launcher;
    const vi = plan.variants.indexOf(v.spec);
    if (l.kind === "external") {
      if (!URL.canParse(l.base_url) || !/^https?:$/.test(new URL(l.base_url).protocol))
        return `${at(["variants", vi, "launcher", "base_url"])}launcher.base_url: expected an http(s) URL, got "${l.base_url}"`;
      continue;
    }
    const vars: Record<string, string> = {...plan.vars};
    for (const k of LAUNCH_VARS[l.kind]) vars[k] = k;
    for (const [k, x] of Object.entries(env)) if (x !== undefined) vars[`env.${k}`] = x;
    const key = l.kind === "process" ? "command" : "args";
    const own = l.kind === "process" ? l.command : l.args;
    const argv = [...own, ...v.extraArgs];
    for (const [i, a] of argv.entries())
      try {
        fillTemplate(a, vars, `variant ${v.name}: launcher.${key}[${i}]`);
      } catch (e) {
        return `${i < own.length ? at(["variants", vi, "launcher", key, i]) : ": "}${(e as Error).message}`;
      }
    for (const [k, x] of Object.entries(l.env))
      try {
        fillTemplate(x, vars, `variant ${v.name}: launcher.env.${k}`);
      } catch (e) {
        return `${at(["variants", vi, "launcher", "env", k])}${(e as Error).message}`;
      }
  }
  return null;
}

/** Reads the plan and everything it names; every problem is exit 2 with file:line. */
async function readPlan(
  fx: Effects,
  file: string
): Promise<{plan: ExperimentPlan; text: string; variants: Variant[]; runs: PlanRun[]}> {
  let text: string;
  try {
    text = (await fx.files.readFile(file)).toString("utf8");
  } catch (e) {
    throw new CliError(`cannot read plan ${file}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const parsed = parseSpecText(text, file, ExperimentPlanSpec, "expected a mapping with name, runs and variants");
  if (parsed.config === null)
    throw new CliError(`invalid plan:\n${parsed.problems.map(formatProblem).join("\n")}`, {exitCode: EXIT.usage});
  const plan = parsed.config;
  let variants: Variant[];
  try {
    variants = expandVariants(plan);
  } catch (e) {
    throw new CliError(`invalid plan ${file}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const unfilled = launchProblem(plan, variants, fx.env, parsed.locate);
  if (unfilled !== null) throw new CliError(`invalid plan ${file}${unfilled}`, {exitCode: EXIT.usage});
  const planDir = dirname(resolve(file));
  const runs: PlanRun[] = [];
  for (const run of plan.runs) {
    const path = isAbsolute(run) ? run : join(planDir, run);
    runs.push({file: run, config: await readConfig(fx, path)});
  }
  return {plan, text, variants, runs};
}

/** The exit code of a whole experiment: interrupted, then variants that failed, then verdicts. */
export function experimentExit(o: {interrupted: boolean; failed: number; notValid: number}): number {
  if (o.interrupted) return EXIT.interrupted;
  if (o.failed > 0) return EXIT.variantsFailed;
  if (o.notValid > 0) return EXIT.notValid;
  return EXIT.ok;
}

/**
 * `experiment --plan FILE`: launch each variant, wait until it is ready, collect the plan's run configs
 * against it, tear it down, and seal the experiment record. The record's folder is the last line of stdout.
 */
export async function experimentCommand(
  o: ExperimentCliOptions,
  io: Io,
  fx: Effects = defaultEffects(),
  deps: CollectDeps = defaultCollectDeps
): Promise<void> {
  if (o.plan === undefined) throw new CliError("experiment needs --plan FILE", {exitCode: EXIT.usage});
  const {plan, text, variants, runs} = await readPlan(fx, o.plan);
  const outParent = o.out ?? plan.out ?? runs[0]!.config.output.dir;
  const dir = join(outParent, "experiments", plan.name);
  io.err.info(`experiment ${plan.name}: ${variants.length} variant(s) × ${runs.length} run(s); record in ${dir}`);
  const progress = o.progress === false ? silentProgress : createProgress(io.err, fx.clock);
  let outcome;
  try {
    outcome = await runExperimentPlan({
      fx,
      plan,
      planText: text,
      planDir: dirname(resolve(o.plan)),
      variants,
      runs,
      dir,
      resume: o.resume === true,
      rerunInconclusive: o.rerunInconclusive === true,
      collect: (config, attach) =>
        collect({
          config,
          fx,
          stream: deps.stream,
          pacer: deps.pacer,
          outParent,
          progress,
          attachments: attach,
          judgeProbe: probeJudge(config)
        }),
      verdict: async (bundleDir) => (await analyzeBundle(fsBundle(bundleDir))).verdict
    });
  } catch (e) {
    if (e instanceof CliError) throw e;
    // a file system error (ENOTDIR, EACCES, EPERM, ENOSPC…) is evidence that could not be written: exit 5
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code))
      throw new CliError(`experiment ${plan.name}: cannot write under ${dir}: ${(e as Error).message}`, {
        exitCode: EXIT.writeFailed,
        cause: e
      });
    throw new CliError(`experiment ${plan.name}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const {record} = outcome;
  let failed = 0;
  let notValid = 0;
  for (const v of record.variants) {
    if (v.status === "start_failed" || v.status === "collect_failed") failed++;
    const verdicts: string[] = [];
    for (const b of v.bundles) {
      const verdict = (await analyzeBundle(fsBundle(join(dir, b.dir)))).verdict;
      if (verdict !== "VALID") notValid++;
      verdicts.push(`${b.bundleId} ${verdict}`);
    }
    io.err.info(
      `  ${v.name}: ${v.status}${v.reason === null ? "" : ` (${v.reason.split("\n")[0]})`}${verdicts.length > 0 ? `: ${verdicts.join(", ")}` : ""}`
    );
  }
  io.out(resolve(dir));
  const code = experimentExit({interrupted: outcome.interrupted, failed, notValid});
  if (code === EXIT.interrupted)
    throw new CliError(
      `interrupted: the servers started were torn down; record sealed as interrupted (--resume continues)`,
      {exitCode: code}
    );
  if (code === EXIT.variantsFailed)
    throw new CliError(`${failed} variant(s) failed to start or to collect: see ${join(dir, "experiment.json")}`, {
      exitCode: code
    });
  if (code === EXIT.notValid) throw new CliError(`${notValid} bundle(s) not VALID`, {exitCode: code});
}

export function register(program: Command): void {
  program
    .command("experiment")
    .description("launch server variants one after another, collect run configs against each, tear each down")
    .option("--plan <file>", "experiment plan (YAML; schema: configs/experiment-plan.schema.json)")
    .option(
      "--out <dir>",
      "parent folder of the bundles and of experiments/<name> (default: the plan's out, else the first run config's output.dir)"
    )
    .option("--resume", "continue an earlier run of this plan: skip variants whose bundles are sealed")
    .option("--rerun-inconclusive", "with --resume: run again the variants whose bundles are INCONCLUSIVE")
    .option("--no-progress", "no progress display on stderr")
    .action(async (o: ExperimentCliOptions) => experimentCommand(o, defaultIo()));
}
