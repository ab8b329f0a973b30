import {loadBlocks} from "../../src/analysis/schema/config.ts";
import {setupSuite, type SuiteSetup} from "../cases/suite.ts";
import {CliError, EXIT} from "../cliError.ts";
import {RunControl} from "../load/control.ts";
import {planPoints, type PlannedPoint} from "../load/plan.ts";
import {runRedactor} from "../redact.ts";
import {openPool} from "../request/pool.ts";
import {requestTarget} from "../request/send.ts";
import type {CollectOptions, CollectOutcome} from "./context.ts";
import {runExperiment} from "./experiment.ts";

export type {CollectOptions, CollectOutcome} from "./context.ts";
export {WARMUP_SEED_OFFSET} from "./points.ts";

/**
 * Runs a whole experiment and writes one bundle: probe the target, fingerprint, then for every load
 * point and repeat: warmup (drained), measured requests, cooldown. Captures raw records only.
 * Throws CliError for a bad config (2), an unreachable target (3), an unwritable folder (5) or an
 * interrupt before the bundle exists (130); after that, every outcome is a sealed bundle.
 */
export async function collect(o: CollectOptions): Promise<CollectOutcome> {
  const {config, fx} = o;
  let points: PlannedPoint[];
  try {
    points = planPoints(config);
  } catch (e) {
    throw new CliError((e as Error).message, {exitCode: EXIT.usage});
  }
  let suite: SuiteSetup | null;
  try {
    suite = setupSuite(config, points);
  } catch (e) {
    throw new CliError((e as Error).message, {exitCode: EXIT.usage});
  }
  const keyEnv = config.target.api_key_env;
  const apiKey = keyEnv ? (fx.env[keyEnv] ?? null) : null;
  if (keyEnv && !apiKey)
    throw new CliError(`target.api_key_env names ${keyEnv}, but that environment variable is not set`, {
      exitCode: EXIT.usage
    });
  const redact = runRedactor(config.target, fx.env, apiKey);
  const origin = fx.clock.nowNs();
  const startWall = fx.clock.wallMs();
  const rel = (t: bigint = fx.clock.nowNs()) => Number(t - origin);
  const graceMs = loadBlocks(config).reduce((m, b) => Math.max(m, b.grace_s), 0) * 1000;
  const control = new RunControl();
  const offSignals = fx.signals.on((sig) => {
    const again = control.stopped !== null;
    control.stop("interrupt", `interrupted by ${sig}`, graceMs);
    fx.log.warn(
      again
        ? `${sig} again: aborting in-flight requests`
        : `${sig}: no new requests; in-flight requests may finish for up to ${graceMs / 1000} s (press again to abort them)`
    );
  });
  const pool = await openPool(config, fx.files, o.createConnection);
  const target = requestTarget(config, {
    stream: o.stream,
    apiKey,
    origin,
    clock: () => fx.clock.nowNs(),
    agent: pool.agent,
    freshAgent: pool.fresh,
    redact
  });
  try {
    // the resolved config records every suite default
    const resolved = suite === null ? config : {...config, suite_options: suite.options};
    return await runExperiment({
      ...o,
      config: resolved,
      points,
      suite,
      apiKey,
      redact,
      origin,
      startWall,
      rel,
      control,
      pool,
      target,
      graceMs
    });
  } finally {
    offSignals();
    control.dispose();
    pool.agent.destroy();
  }
}
