import {dirname, resolve} from "node:path";

import type {Command} from "commander";
import {stringify} from "yaml";

import {formatProblem, parseSpecText} from "../../src/analysis/schema/configText.ts";
import {CliError, EXIT} from "../cliError.ts";
import {redactArgs} from "../../src/analysis/redact/args.ts";
import {START_AT_WINDOW_MS} from "../../src/analysis/schema/shard.ts";
import {isSecretName} from "../redact.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {K8sPlan} from "../k8s/plan.ts";
import {renderK8s} from "../k8s/render.ts";
import {barrierRequired, shardProblem} from "../run/shard.ts";
import {readConfig} from "./collect.ts";
import {defaultIo, type Io} from "./io.ts";

/**
 * A credential written into the run config itself, which `collect` would redact from its artifacts but the
 * ConfigMap would carry as written: a URL's user or password, a query value under a secret name (api_key=,
 * token=; api-version= is not one), a value after a credential flag in the launch arguments. Null when none.
 */
function inlineCredential(target: {base_url: string; metrics_url?: string; launch_args?: string[]}): string | null {
  for (const key of ["base_url", "metrics_url"] as const) {
    const u = target[key];
    if (u === undefined) continue;
    let p: URL;
    try {
      p = new URL(u);
    } catch {
      continue;
    }
    if (p.username !== "" || p.password !== "") return `target.${key} holds a user name or password`;
    const secret = [...p.searchParams.keys()].find(isSecretName);
    if (secret !== undefined) return `target.${key} holds a secret in its query (${secret}=)`;
  }
  // redactArgs marks a credential flag's value (the next argument, or after its "=") and keeps the flag
  const args = target.launch_args ?? [];
  const marked = redactArgs(args);
  const at = marked.findIndex((m, i) => m !== args[i]);
  return at === -1 ? null : `target.launch_args[${at}] holds a credential (${marked[at]})`;
}

/**
 * `k8s --plan FILE`: the ConfigMap and Indexed Job of a sharded experiment, as YAML on stdout (or --out).
 * The run config is checked (valid, shardable into the plan's shards) before anything is printed.
 */
export async function k8sCommand(o: {plan: string; out?: string}, io: Io, fx: Effects = defaultEffects()) {
  let text: string;
  try {
    text = (await fx.files.readFile(o.plan)).toString("utf8");
  } catch (e) {
    throw new CliError(`cannot read plan ${o.plan}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const parsed = parseSpecText(text, o.plan, K8sPlan, "expected a mapping with name, image, config and shards");
  if (parsed.config === null)
    throw new CliError(`invalid plan:\n${parsed.problems.map(formatProblem).join("\n")}`, {exitCode: EXIT.usage});
  const plan = parsed.config;
  const configPath = resolve(dirname(o.plan), plan.config);
  const config = await readConfig(fx, configPath);
  const problem = shardProblem(config, plan.shards);
  if (problem !== null) throw new CliError(`${configPath}: ${problem}`, {exitCode: EXIT.usage});
  // the shards meet only on a shared claim (render.ts): a search judged across them needs one, and so does a suite
  const noBarrier = barrierRequired(config, plan.shards, "claim" in plan.evidence, "evidence: {claim: …}");
  if (noBarrier !== null) throw new CliError(`${configPath}: ${noBarrier}`, {exitCode: EXIT.usage});
  // the ConfigMap is readable by anyone who can read the namespace: a secret goes in a Secret
  const literal = Object.keys(config.target.headers ?? {}).find(isSecretName);
  if (literal !== undefined)
    throw new CliError(
      `${configPath}: target.headers.${literal} holds a secret, which would land in the ConfigMap: send it as the API key (target.api_key_env, from api_key_secret)`,
      {exitCode: EXIT.usage}
    );
  const inline = inlineCredential(config.target);
  if (inline !== null)
    throw new CliError(
      `${configPath}: ${inline}, which would land in the ConfigMap: send it as the API key (target.api_key_env, from api_key_secret) or leave it out`,
      {exitCode: EXIT.usage}
    );
  const apiKeyEnv = config.target.api_key_env ?? null;
  if (apiKeyEnv !== null && plan.api_key_secret === undefined)
    throw new CliError(
      `${configPath} reads its API key from $${apiKeyEnv}: name the Secret that holds it (api_key_secret: {name, key})`,
      {exitCode: EXIT.usage}
    );
  const now = fx.clock.wallMs();
  if (plan.start_at !== undefined) {
    // every pod checks its start against the window (collect --start-at): one it would refuse is refused here
    const ms = Date.parse(plan.start_at);
    const at = parsed.locate(["start_at"]);
    const where = at.line === null ? o.plan : `${o.plan}:${at.line}:${at.column}`;
    if (ms <= now || ms - now > START_AT_WINDOW_MS)
      throw new CliError(
        `${where}: start_at: ${plan.start_at} is ${ms <= now ? "already past" : `more than ${START_AT_WINDOW_MS / 3_600_000} h away`} (now ${new Date(now).toISOString()}): every shard would refuse it`,
        {exitCode: EXIT.usage}
      );
  }
  const startAt = plan.start_at ?? new Date(now + plan.start_delay_s! * 1000).toISOString();
  const configText = (await fx.files.readFile(configPath)).toString("utf8");
  const docs = renderK8s({plan, configText, apiKeyEnv, startAt});
  const yaml = docs.map((d) => stringify(d, {lineWidth: 0})).join("---\n");
  if (o.out === undefined) io.out(yaml.trimEnd());
  else {
    try {
      await fx.files.writeAtomic(o.out, yaml);
    } catch (e) {
      throw new CliError(`cannot write ${o.out}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed, cause: e});
    }
    io.err.info(
      `wrote ${o.out}: ConfigMap ${plan.name}-config, Job ${plan.name} (${plan.shards} shards from ${startAt})`
    );
  }
}

export function register(program: Command): void {
  program
    .command("k8s")
    .description("render a sharded experiment as a Kubernetes Indexed Job and its ConfigMap (YAML)")
    .requiredOption(
      "--plan <file>",
      "the Kubernetes plan (YAML): name, image, config, shards, start time, Secret, volume"
    )
    .option("--out <file>", "write the YAML here instead of stdout")
    .action(async (o: {plan: string; out?: string}) => k8sCommand(o, defaultIo()));
}
