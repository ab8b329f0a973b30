import {resolve} from "node:path";

import type {Command} from "commander";

import {analyzeBundle} from "../../src/analysis/index.ts";
import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {judgeRecords, type PointSummary} from "../../src/analysis/search/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {RecoverError, SealWriteError, sealCrashedBundle} from "../bundle/recover.ts";
import {signBundle} from "./sign.ts";
import {suiteOptions} from "../cases/plan.ts";
import {CliError, EXIT} from "../cliError.ts";
import {ConfigError, parseRunConfig} from "../config/load.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {createPacer} from "../load/pacer.ts";
import {streamRequest} from "../http/stream.ts";
import {collect} from "../run/collect.ts";
import type {ProbeJudge} from "../run/context.ts";
import {createProgress, silentProgress} from "../load/progress.ts";
import type {Pacer} from "../load/pacer.ts";
import type {StreamFn} from "../request/types.ts";
import {defaultIo, type Io} from "./io.ts";

export interface CollectCliOptions {
  config?: string;
  out?: string;
  hostLabel?: string;
  resume?: string;
  progress?: boolean;
  /** Comma-separated suite ids, replacing the config's `suites`. */
  suites?: string;
  skipHeavy?: boolean;
  /** Sign the sealed manifest with this Ed25519 private key (PEM) as `signer`. */
  sign?: string;
  signer?: string;
}

export interface CollectDeps {
  stream: StreamFn;
  pacer: (clock: () => bigint) => Pacer;
}

export const defaultCollectDeps: CollectDeps = {
  stream: streamRequest,
  pacer: (clock) => createPacer({clock, spinMs: 1.5})
};

/** Reads and validates a run config file; every problem becomes one CliError (exit 2) with file:line. */
export async function readConfig(fx: Pick<Effects, "files">, file: string) {
  let text: string;
  try {
    text = (await fx.files.readFile(file)).toString("utf8");
  } catch (e) {
    throw new CliError(`cannot read config ${file}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  try {
    return parseRunConfig(text, file);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`invalid config:\n${e.message}`, {exitCode: EXIT.usage});
    throw e;
  }
}

/**
 * The load search's probe judge handed to the collector: the analyzer's own (src/analysis/search), so the
 * collector chooses probes by the same "the SLO holds" that the report recomputes.
 */
export function probeJudge(config: RunConfig): ProbeJudge {
  return (search, records, point, lower) => {
    const v = judgeRecords(config, search, records, point, lower as PointSummary | null);
    return {status: v.status, margin: v.margin, reason: v.reason, summary: v.summary};
  };
}

/** Seals a crashed bundle as partial; prints its path. */
export async function sealCommand(dir: string, io: Io, fx: Effects, o: {force?: boolean} = {}): Promise<void> {
  try {
    const m = await sealCrashedBundle(fx, dir, o);
    io.err.info(`sealed ${m.bundleId} as ${m.status} (${m.files.length} files digested): ${m.statusReason}`);
  } catch (e) {
    if (e instanceof RecoverError) throw new CliError(e.message, {exitCode: EXIT.usage});
    if (e instanceof SealWriteError)
      throw new CliError(`cannot seal ${dir}: ${e.message}`, {exitCode: EXIT.writeFailed});
    throw new CliError(`cannot seal ${dir}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed});
  }
  io.out(resolve(dir));
}

/**
 * `collect`: run the experiment, seal the bundle, analyse it. The bundle path is the last line of stdout.
 * Exit: 0 VALID, 4 not VALID, 5 evidence not writable, 130 interrupted (bundle sealed as interrupted).
 */
export async function collectCommand(
  o: CollectCliOptions,
  io: Io,
  fx: Effects = defaultEffects(),
  deps: CollectDeps = defaultCollectDeps
) {
  if (o.resume !== undefined) return sealCommand(o.resume, io, fx);
  if (o.config === undefined)
    throw new CliError("collect needs --config FILE (or --resume DIR to seal a crashed bundle)", {
      exitCode: EXIT.usage
    });
  if (o.sign !== undefined && o.signer === undefined)
    throw new CliError("--sign KEY needs --signer NAME (the name allowed_signers gives the key)", {
      exitCode: EXIT.usage
    });
  if (o.sign !== undefined && !(await fx.files.exists(o.sign)))
    throw new CliError(`--sign: the key file ${o.sign} does not exist`, {exitCode: EXIT.usage});
  let config = await readConfig(fx, o.config);
  if (o.suites !== undefined)
    config = {
      ...config,
      suites: o.suites
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    };
  if (o.skipHeavy) config = {...config, suite_options: {...suiteOptions(config), skip_heavy: true}};
  const progress = o.progress === false ? silentProgress : createProgress(io.err, fx.clock);
  const outcome = await collect({
    config,
    fx,
    stream: deps.stream,
    pacer: deps.pacer,
    outParent: o.out ?? null,
    hostLabel: o.hostLabel ?? null,
    progress,
    judgeProbe: probeJudge(config)
  });
  const dir = resolve(outcome.dir);
  if (outcome.writeFailure !== null) {
    io.err.warn(`bundle ${outcome.manifest ? `sealed as ${outcome.status}` : "left unsealed"}: ${dir}`);
    io.out(dir);
    throw new CliError(outcome.writeFailure, {exitCode: EXIT.writeFailed});
  }
  if (o.sign !== undefined && outcome.manifest !== null) {
    await signBundle(fx, outcome.dir, o.sign, o.signer!);
    io.err.info(`signed the manifest as ${o.signer}`);
  }
  const report = await analyzeBundle(fsBundle(outcome.dir));
  io.err.info(`verdict ${report.verdict} (status ${outcome.status})`);
  for (const r of report.verdict_reasons.slice(0, 10)) io.err.info(`  ${r}`);
  io.out(dir);
  if (outcome.interrupted)
    throw new CliError(`interrupted: bundle sealed as interrupted (${outcome.statusReason})`, {
      exitCode: EXIT.interrupted
    });
  if (report.verdict !== "VALID")
    throw new CliError(`verdict ${report.verdict}: see \`inferscope analyze ${dir}\``, {exitCode: EXIT.notValid});
}

export function register(program: Command): void {
  program
    .command("collect")
    .description("run the experiment of a config against the target and write one evidence bundle")
    .option("--config <file>", "run config (YAML)")
    .option("--out <dir>", "parent folder of the bundle (default: output.dir of the config, else evidence/)")
    .option("--host-label <label>", "host name recorded and used in the bundle name (default: the hostname)")
    .option("--resume <dir>", "seal a bundle whose collector crashed (torn tails cut, status partial)")
    .option("--no-progress", "no progress display on stderr")
    .option(
      "--suites <ids>",
      "case suite to run after the load points, comma-separated (e.g. case_10_needle,gsm8k; all)"
    )
    .option("--skip-heavy", "skip the heavy cases 05/06/07/09 (quality cases are never skipped)")
    .option("--sign <key>", "sign the sealed manifest with this Ed25519 private key (PEM; see `keygen`)")
    .option("--signer <name>", "the signer's name, as in evidence/allowed_signers")
    .action(async (o: CollectCliOptions) => collectCommand(o, defaultIo()));
  program
    .command("seal")
    .description("seal a bundle whose collector crashed or was killed: cut torn tails, status partial")
    .argument("<dir>", "the unsealed bundle folder")
    .option("--force", "take over a lock held by a collector on another host (its liveness cannot be checked)")
    .action(async (dir: string, o: {force?: boolean}) => sealCommand(dir, defaultIo(), defaultEffects(), o));
}
