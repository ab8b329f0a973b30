import type {Command} from "commander";

import {CliError, EXIT} from "../cliError.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {hostBandwidth} from "../env/bandwidth.ts";
import {allowlistedEnv, gpuInfo, hostInfo, runtimeInfo} from "../env/host.ts";
import {modelFilePath, modelProbe} from "../env/modelFile.ts";
import {probeServer} from "../env/probe.ts";
import {runRedactor} from "../redact.ts";
import {openPool} from "../request/pool.ts";
import {requestTarget} from "../request/send.ts";
import {readConfig, defaultCollectDeps, type CollectDeps} from "./collect.ts";
import {defaultIo, type Io} from "./io.ts";

/** `probe`: fingerprint and capabilities of the target, no load. Prints JSON; exit 3 when unreachable. */
export async function probeCommand(
  o: {config?: string; hostLabel?: string},
  io: Io,
  fx: Effects = defaultEffects(),
  deps: Pick<CollectDeps, "stream"> = defaultCollectDeps
): Promise<void> {
  if (o.config === undefined) throw new CliError("probe needs --config FILE", {exitCode: EXIT.usage});
  const config = await readConfig(fx, o.config);
  const keyEnv = config.target.api_key_env;
  const apiKey = keyEnv ? (fx.env[keyEnv] ?? null) : null;
  const redact = runRedactor(config.target, fx.env, apiKey);
  const pool = await openPool(config, fx.files);
  const target = requestTarget(config, {
    stream: deps.stream,
    apiKey,
    origin: fx.clock.nowNs(),
    clock: () => fx.clock.nowNs(),
    agent: pool.agent,
    freshAgent: pool.fresh,
    redact
  });
  let probe;
  try {
    probe = await probeServer({fx, target, config, apiKey, redact});
  } finally {
    pool.agent.destroy();
  }
  const out = redact.value({
    target: {
      base_url: redact.url(config.target.base_url),
      model: config.target.model,
      endpoint: config.target.endpoint
    },
    reachable: probe.reachable,
    unreachable_reason: probe.unreachableReason,
    capabilities: probe.capabilities,
    server: {
      engine: probe.engine,
      engine_version: probe.engineVersion,
      models: probe.models,
      version: probe.version,
      probe_stream: probe.stream
    },
    host: {...hostInfo(fx, o.hostLabel ?? null), memoryBandwidth: await hostBandwidth(fx)},
    gpu: config.telemetry.gpu === "off" ? null : await gpuInfo(fx.exec),
    model: await modelProbe(fx.files, modelFilePath(probe, config.target.launch_args)),
    runtime: runtimeInfo(),
    env: allowlistedEnv(fx.env)
  });
  io.out(JSON.stringify(out, null, 2));
  if (!probe.reachable)
    throw new CliError(`target unreachable: ${redact.url(config.target.base_url)} (${probe.unreachableReason})`, {
      exitCode: EXIT.unreachable
    });
}

export function register(program: Command): void {
  program
    .command("probe")
    .description("fingerprint the host and probe the target's capabilities without load (prints JSON)")
    .option("--config <file>", "run config (YAML)")
    .option("--host-label <label>", "host name to record")
    .action(async (o: {config?: string; hostLabel?: string}) => probeCommand(o, defaultIo()));
}
