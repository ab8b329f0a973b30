import {join} from "node:path";

import {redactArgs} from "../../src/analysis/redact/args.ts";
import {isOpenLoop, loadBlocks, type RunConfig} from "../../src/analysis/schema/config.ts";
import {FILE_NAMES, type Environment, type Manifest, type RequestRecord} from "../../src/analysis/schema/index.ts";
import {PRNG_NAME} from "../../src/analysis/stats/prng.ts";
import {MEASURE_VERSION, SCHEMA_VERSION} from "../../src/analysis/schema/versions.ts";
import {collectorInfo, isoOf} from "../bundle/manifest.ts";
import {releaseLock, takeLock} from "../bundle/lock.ts";
import {bundleName, shortId} from "../bundle/name.ts";
import type {Gsm8kSource} from "../cases/gsm8k.ts";
import type {ScoreFn} from "../cases/runner.ts";
import {buildSuite, runSuite, setupSuite, type BuiltSuite, type SuiteSetup} from "../cases/suite.ts";
import {CliError, EXIT} from "../cliError.ts";
import {resolvedConfigYaml} from "../config/load.ts";
import type {Effects} from "../effects.ts";
import {allowlistedEnv, gpuInfo, hostInfo, runtimeInfo} from "../env/host.ts";
import {probeServer, tokenCounter, type ServerProbe} from "../env/probe.ts";
import {runRedactor, type Redactor} from "../redact.ts";
import type {CreateConnection} from "../http/agent.ts";
import type {Pacer} from "../load/pacer.ts";
import {requestBody} from "../request/body.ts";
import {openPool, type Pool} from "../request/pool.ts";
import {redactRecord, toRecord} from "../request/record.ts";
import {requestTarget, sendStreamed, type RequestTarget} from "../request/send.ts";
import type {StreamFn, StreamResult} from "../request/types.ts";
import {endpointUrl, joinUrl, serverRoot} from "../request/url.ts";
import {createClientMonitor} from "../telemetry/client.ts";
import {sampleGpus} from "../telemetry/gpu.ts";
import {scrapeOnce} from "../telemetry/prometheus.ts";
import {startSampler, type Sampler} from "../telemetry/sampler.ts";
import {BUNDLE_JSONL, BundleWriter, flushIntervalOf} from "../writer/bundleWriter.ts";
import {RunControl} from "../load/control.ts";
import {runClosedLoop, runOpenLoop, type PhaseContext} from "../load/dispatch.ts";
import {planPoints, type PlannedPoint} from "../load/plan.ts";
import {silentProgress, type Progress} from "../load/progress.ts";
import {planPrompt, saltedPrompt, saltFor, sha256Hex, type PromptPlan} from "../request/prompt.ts";
import {planStream} from "../load/planStream.ts";
import {arrivalOffsets} from "../load/schedule.ts";
import {finishBundle, DRAFT_FILE} from "../bundle/finish.ts";

type BundleStatus = Manifest["status"];

export interface CollectOptions {
  config: RunConfig;
  fx: Effects;
  stream: StreamFn;
  pacer: (clock: () => bigint) => Pacer;
  /** Parent folder of the bundle (`--out`), else config.output.dir. */
  outParent?: string | null;
  hostLabel?: string | null;
  progress?: Progress;
  /** The scorers of the case suite (src/analysis/quality, passed in by the collect command); needed with `suites`. */
  score?: ScoreFn;
  /** Where GSM8K is downloaded from (tests point it at a local server). */
  gsm8kSource?: Gsm8kSource;
  /** How sockets are made (tests inject connect delays); default node's own. */
  createConnection?: CreateConnection;
}

export interface CollectOutcome {
  dir: string;
  status: BundleStatus;
  statusReason: string | null;
  manifest: Manifest | null;
  /** Set when evidence could not be written (the CLI exits 5). */
  writeFailure: string | null;
  interrupted: boolean;
}

/** Warmup schedules use a seed this far from the measured one, so the two never coincide. */
export const WARMUP_SEED_OFFSET = 1_000_003;
const ANCHOR_EVERY_MS = 10_000;

const PROBE_TIMEOUT_MS = 120_000;

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
  if (suite !== null && o.score === undefined)
    throw new CliError("collect was called with suites but without scorers", {exitCode: EXIT.internal});
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

interface Ctx extends CollectOptions {
  points: PlannedPoint[];
  suite: SuiteSetup | null;
  apiKey: string | null;
  redact: Redactor;
  origin: bigint;
  startWall: number;
  rel: (t?: bigint) => number;
  control: RunControl;
  pool: Pool;
  target: RequestTarget;
  graceMs: number;
}

async function runExperiment(c: Ctx): Promise<CollectOutcome> {
  const {config, fx, redact} = c;
  fx.log.info(`probing ${redact.url(config.target.base_url)} …`);
  const probe = await withTimeout(
    probeServer({fx, target: c.target, config, apiKey: c.apiKey, redact}),
    PROBE_TIMEOUT_MS,
    "probing the target"
  );
  if (!probe.reachable)
    throw new CliError(
      `target unreachable: GET ${redact.url(joinUrl(config.target.base_url, "/models"))} failed (${probe.unreachableReason})`,
      {exitCode: EXIT.unreachable}
    );
  if (probe.stream && !probe.stream.ok)
    fx.log.warn(
      `the probe request did not stream (status ${probe.stream.httpStatus ?? "none"}: ${probe.stream.error ?? "no events"}); collecting anyway`
    );
  if (probe.downgrade) fx.log.warn(probe.downgrade);
  if (probe.keepsConnections === false) {
    c.pool.perRequest(
      "the server closed the probe's connection right after its streamed response although it announces keep-alive: one connection per request (reusing one would race its close)"
    );
    c.target = {...c.target, agent: c.pool.agent};
    fx.log.warn(c.pool.note!);
  }
  if (c.control.stopped)
    throw new CliError("interrupted before the run started: no bundle written", {exitCode: EXIT.interrupted});

  const gpu: Environment["gpu"] =
    config.telemetry.gpu === "off"
      ? {
          available: false,
          reason: "gpu telemetry off in the config",
          devices: [],
          driverVersion: null,
          cudaVersion: null,
          topology: null
        }
      : await gpuInfo(fx.exec);
  const firstBlock = loadBlocks(config)[0]!;
  const prompt = await planPrompt({
    promptTokens: config.workload.prompt_tokens,
    ...(config.workload.prompt_text === undefined ? {} : {promptText: config.workload.prompt_text}),
    salt: config.workload.salt,
    seed: firstBlock.seed,
    count: probe.tokenize ? tokenCounter(fx, config, c.apiKey) : null
  });
  const collector = await collectorInfo(fx);
  let built: BuiltSuite | null = null;
  if (c.suite !== null) {
    try {
      built = await buildSuite(c.suite, {
        fx,
        seed: firstBlock.seed,
        count: probe.tokenize ? tokenCounter(fx, config, c.apiKey) : null,
        salt: config.workload.salt,
        ...(c.gsm8kSource === undefined ? {} : {gsm8kSource: c.gsm8kSource})
      });
    } catch (e) {
      throw new CliError(`case suite: ${(e as Error).message}`, {exitCode: EXIT.usage, cause: e});
    }
  }

  const id = shortId();
  const host = c.hostLabel ?? fx.hostname();
  const bundleId = bundleName({wallMs: c.startWall, host, model: config.target.model, name: config.name, id});
  const parent = c.outParent ?? config.output.dir;
  const dir = join(parent, bundleId);
  try {
    await fx.files.mkdirNew(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST")
      throw new CliError(`refusing to overwrite the existing folder ${dir}`, {exitCode: EXIT.usage});
    throw new CliError(`cannot create the bundle folder ${dir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  try {
    await takeLock(fx, dir);
  } catch (e) {
    throw new CliError(`cannot write into the bundle folder ${dir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  const resolvedYaml = resolvedConfigYaml(config, redact);
  const environment: Environment = redact.value({
    host: hostInfo(fx, c.hostLabel ?? null),
    gpu,
    server: {
      baseUrl: redact.url(config.target.base_url),
      engine: probe.engine,
      engineVersion: probe.engineVersion,
      models: probe.models,
      version: Object.keys(probe.version).length ? probe.version : null,
      launchArgs: config.target.launch_args === undefined ? null : redactArgs(config.target.launch_args),
      imageDigest: config.target.image_digest ?? null,
      gpus: config.target.gpus ?? null,
      capabilities: probe.capabilities
    },
    runtime: runtimeInfo(),
    extra: {env: allowlistedEnv(fx.env), prompt: prompt.calibration}
  });
  const openBlock = loadBlocks(config).find((b) => isOpenLoop(b.mode));
  const draft: Omit<Manifest, "files"> = {
    schemaVersion: SCHEMA_VERSION,
    bundleId,
    measureVersion: MEASURE_VERSION,
    status: "partial",
    statusReason: "the collector stopped before sealing (crash or kill); sealed later with `inferscope seal`",
    startedAt: isoOf(c.startWall),
    finishedAt: null,
    monotonicOriginNs: c.origin.toString(),
    timeUnit: "ns",
    clockAnchors: [{wall: isoOf(c.startWall), tNs: 0}],
    collector,
    configSha256: sha256Hex(resolvedYaml),
    capture: {
      connection: c.pool.connection,
      ...(c.pool.note === null ? {} : {connectionNote: c.pool.note}),
      keepAliveIdleMs: c.pool.connection === "reuse" ? config.target.keep_alive_ms : null,
      payloadBytes: config.output.payload_bytes,
      closeMs: config.target.timeouts.close_ms
    },
    durability: {
      fsyncIntervalMs: config.output.fsync_interval_ms,
      flushIntervalMs: flushIntervalOf({fsyncIntervalMs: config.output.fsync_interval_ms})
    },
    prng: {name: PRNG_NAME, seed: (openBlock ?? firstBlock).seed},
    loadPoints: c.points.map((p) => p.point),
    labels: config.labels,
    environment,
    provenance: config.description ? {kind: "collected", note: config.description} : {kind: "collected"}
  };
  try {
    await fx.files.writeAtomic(join(dir, FILE_NAMES.config), resolvedYaml);
    await fx.files.writeAtomic(join(dir, DRAFT_FILE), `${JSON.stringify(draft, null, 2)}\n`);
  } catch (e) {
    throw new CliError(`cannot write into the bundle folder ${dir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  const writer = await BundleWriter.open(fx.files, dir, {
    fsyncIntervalMs: config.output.fsync_interval_ms,
    quality: built !== null,
    onError: (e, path) => {
      const reason = `evidence write failed: ${path}: ${(e as NodeJS.ErrnoException).code ?? ""} ${e.message}`.replace(
        /\s+/g,
        " "
      );
      fx.log.warn(`${reason}; stopping the run`);
      c.control.stop("write_error", reason, 0);
    }
  }).catch((e: Error) => {
    throw new CliError(`cannot open the evidence files in ${dir}: ${e.message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  });
  fx.log.info(`bundle: ${dir}`);

  const anchors: Manifest["clockAnchors"] = [...draft.clockAnchors];
  writer.note(0, "run_start", {bundleId, wall: anchors[0]!.wall, points: c.points.map((p) => p.point.id)});
  if (probe.downgrade) writer.note(c.rel(), "downgrade", {feature: "continuous_usage_stats", reason: probe.downgrade});

  const samplers = startTelemetry(c, writer, probe, anchors);
  try {
    await runPoints(c, writer, prompt, probe, bundleId, id);
    if (built !== null && !c.control.stopped) await runSuite(suiteContext(c, writer, probe, bundleId, id), built);
  } catch (e) {
    // a collector bug: keep what was captured on disk (unsealed: `inferscope seal` can recover it)
    c.control.stop("write_error", `collector error: ${(e as Error).message}`, 0);
    for (const s of samplers.list) await s.stop();
    writer.note(c.rel(), "collector_error", {message: c.redact((e as Error).message)});
    await writer.close();
    throw e;
  } finally {
    for (const s of samplers.list) await s.stop();
    samplers.final();
  }
  const endWall = fx.clock.wallMs();
  anchors.push({wall: isoOf(endWall), tNs: c.rel()});
  const stopped = c.control.stopped as RunControl["stopped"]; // set asynchronously by signals or write errors
  if (stopped)
    writer.note(c.rel(), stopped.kind === "interrupt" ? "interrupt" : "write_error", {reason: stopped.reason});
  writer.note(c.rel(), "run_end", {wall: isoOf(endWall)});
  await writer.close();

  const failure = writer.failure;
  const status: BundleStatus = failure ? "partial" : stopped?.kind === "interrupt" ? "interrupted" : "complete";
  const statusReason = failure
    ? `evidence could not be written: ${failure.path}: ${failure.error.message}`
    : stopped?.kind === "interrupt"
      ? `${stopped.reason}: dispatching stopped; in-flight requests had up to ${c.graceMs / 1000} s to finish, then were aborted`
      : null;
  const manifest = await finishBundle({
    fx,
    dir,
    draft: {...draft, status, statusReason, finishedAt: isoOf(endWall), clockAnchors: anchors},
    files: [FILE_NAMES.config, ...BUNDLE_JSONL.map((r) => FILE_NAMES[r]), ...(built ? [FILE_NAMES.quality] : [])],
    repairTails: failure !== null,
    origin: c.origin
  });
  if (manifest.manifest !== null) await releaseLock(fx, dir).catch(() => undefined);
  return {
    dir,
    status,
    statusReason,
    manifest: manifest.manifest,
    writeFailure: failure ? statusReason : manifest.error,
    interrupted: stopped?.kind === "interrupt"
  };
}

/** What the case runner needs from this run: transport, clock, redaction, writers, stop switch. */
function suiteContext(c: Ctx, writer: BundleWriter, probe: ServerProbe, bundleId: string, runId: string) {
  return {
    config: c.config,
    options: c.suite!.options,
    fx: c.fx,
    target: c.target,
    origin: c.origin,
    rel: c.rel,
    redact: c.redact,
    redactRecord: (r: Omit<RequestRecord, "seq">) => redactRecord(r, c.redact),
    control: c.control,
    requests: writer.requests,
    quality: writer.quality!,
    note: (event: string, detail: Record<string, unknown>) => writer.note(c.rel(), event, detail),
    progress: c.progress ?? silentProgress,
    pacer: c.pacer(() => c.fx.clock.nowNs()),
    runId,
    bundleId,
    apiKey: c.apiKey,
    continuousUsage: probe.continuousUsage,
    score: c.score!
  };
}

function startTelemetry(c: Ctx, writer: BundleWriter, probe: ServerProbe, anchors: Manifest["clockAnchors"]) {
  const {config, fx} = c;
  const list: Sampler[] = [];
  const interval = config.telemetry.interval_ms;
  const sockets = () => {
    let n = 0;
    for (const group of [c.pool.agent.sockets, c.pool.agent.freeSockets])
      for (const arr of Object.values(group)) n += arr?.length ?? 0;
    return n;
  };
  const monitor = createClientMonitor({inFlight: () => c.control.inFlight, openSockets: sockets}, c.rel(), c.origin);
  let first = true;
  list.push(
    startSampler({
      intervalMs: interval,
      clock: fx.clock,
      tick: () => {
        if (first) {
          first = false; // the first window would only cover start-up
          monitor.sample(c.rel());
          return;
        }
        writer.client.append(monitor.sample(c.rel()));
      }
    })
  );
  list.push(
    startSampler({
      intervalMs: ANCHOR_EVERY_MS,
      clock: fx.clock,
      tick: () => {
        const a = {wall: isoOf(fx.clock.wallMs()), tNs: c.rel()};
        if (a.tNs > 0) {
          anchors.push(a);
          writer.note(a.tNs, "clock_anchor", {wall: a.wall});
        }
      }
    })
  );
  const metrics = config.telemetry.server_metrics;
  if (metrics === "on" || (metrics === "auto" && probe.metricsOk)) {
    const url = config.target.metrics_url ?? joinUrl(serverRoot(config.target.base_url), "/metrics");
    list.push(
      startSampler({
        intervalMs: interval,
        clock: fx.clock,
        tick: async () => {
          writer.server.append(await scrapeOnce(fx, url, c.origin, Math.max(interval * 4, 2000), c.redact));
        }
      })
    );
  }
  if (config.telemetry.gpu !== "off") {
    let gone = false;
    list.push(
      startSampler({
        intervalMs: interval,
        clock: fx.clock,
        tick: async () => {
          if (gone) return;
          const tNs = c.rel();
          const g = await sampleGpus(fx.exec, Math.max(interval * 4, 2000));
          writer.gpu.append({tNs, ok: g.ok, error: g.error, gpus: g.gpus});
          if (g.notFound) gone = true; // recorded once as unavailable, never as zeros
        }
      })
    );
  }
  return {
    list,
    final: () => {
      writer.client.append(monitor.sample(c.rel()));
      monitor.close();
    }
  };
}

async function runPoints(
  c: Ctx,
  writer: BundleWriter,
  prompt: PromptPlan,
  probe: ServerProbe,
  bundleId: string,
  runId: string
) {
  const {config, fx, control} = c;
  const w = config.workload;
  const url = endpointUrl(config.target.base_url, config.target.endpoint);
  const progress = c.progress ?? silentProgress;
  const pacer = c.pacer(() => fx.clock.nowNs());
  const last = c.points.length - 1;
  const recording = new Set<Promise<void>>();

  for (const [pi, planned] of c.points.entries()) {
    const {point, block} = planned;
    if (control.stopped) break;
    writer.note(c.rel(), "point_start", {mode: point.mode, value: point.value}, point.id);
    for (let repeat = 0; repeat < point.repeats && !control.stopped; repeat++) {
      writer.note(c.rel(), "repeat_start", {}, point.id, repeat);
      const makeSend = (phase: "warmup" | "measure") => async (index: number, tSchedNs: number) => {
        const id = `${runId}-${point.id}-r${repeat}-${phase === "warmup" ? "w" : "m"}${index}`;
        const salt = w.salt ? saltFor(bundleId, id) : null;
        const text = saltedPrompt(salt, prompt.body);
        const body = requestBody({
          model: config.target.model,
          endpoint: config.target.endpoint,
          prompt: text,
          maxTokens: w.max_tokens,
          temperature: w.temperature,
          ignoreEos: w.ignore_eos,
          continuousUsage: probe.continuousUsage
        });
        const res = await sendStreamed(c.target, {url, id, body, keepText: w.save_text}, control);
        // record after the caller had the chance to dispatch the next request (closed loop)
        const done = Promise.resolve().then(() => {
          const rec = toRecord(
            {
              id,
              point: point.id,
              repeat,
              index,
              phase,
              tSchedNs,
              promptDigest: sha256Hex(text),
              promptTokensIntended: prompt.intendedTokens,
              maxTokens: w.max_tokens,
              salt,
              promptText: text
            },
            res,
            w.save_text
          );
          writer.requests.append(redactRecord(rec, c.redact));
          progress.tick(!looksFailed(res));
        });
        recording.add(done);
        void done.finally(() => recording.delete(done));
        return res.tEndNs ?? c.rel();
      };
      const open = isOpenLoop(point.mode);
      for (const phase of ["warmup", "measure"] as const) {
        if (control.stopped) break;
        const count = phase === "warmup" ? point.warmup : point.requests;
        if (phase === "warmup" && count === 0) continue;
        const durationS = phase === "warmup" ? null : point.durationS;
        const label = `${point.id} r${repeat} ${phase}`;
        const phaseCtx: PhaseContext = {control, clock: fx.clock, origin: c.origin, send: makeSend(phase)};
        let phaseSent: number;
        if (!open) {
          progress.start(label, count, durationS);
          writer.note(c.rel(), "phase_start", {phase}, point.id, repeat);
          const sent = await runClosedLoop(phaseCtx, {
            concurrency: point.value,
            count,
            durationNs: durationS === null ? null : durationS * 1e9
          });
          // every planned request is accounted for: those a stop kept from being sent are noted as such
          if (count !== null && sent < count)
            writer.note(c.rel(), "not_sent", notSent(phase, sent, count - 1, control), point.id, repeat);
          phaseSent = sent;
        } else {
          const plan = planStream({
            offsets: arrivalOffsets({
              mode: point.mode as "rate" | "poisson" | "gamma",
              rate: point.value,
              burstiness: block.burstiness,
              seed: block.seed + repeat + (phase === "warmup" ? WARMUP_SEED_OFFSET : 0),
              ...(count === null ? {durationS: durationS!} : {count})
            }),
            append: (offsetNs, index) =>
              writer.schedule.append({
                point: point.id,
                repeat,
                index,
                phase,
                offsetNs,
                requestId: `${runId}-${point.id}-r${repeat}-${phase === "warmup" ? "w" : "m"}${index}`
              }),
            flush: () => writer.schedule.flush()
          });
          await plan.prime(); // the first planned requests are on disk before the first dispatch
          progress.start(label, count, count === null ? durationS : null);
          const sent = await runOpenLoop(phaseCtx, {
            offsetsNs: () => plan.next(),
            maxConcurrency: point.maxConcurrency,
            pacer,
            onStart: (t0) => writer.note(c.rel(t0), "phase_start", {phase, scheduled: count ?? null}, point.id, repeat)
          });
          writer.note(c.rel(), "plan_end", {phase, scheduled: plan.written}, point.id, repeat);
          // a declared count is the plan even where a stop kept the schedule from being written to its end
          const planned = count ?? plan.written;
          if (sent < planned)
            writer.note(c.rel(), "not_sent", notSent(phase, sent, planned - 1, control), point.id, repeat);
          phaseSent = sent;
        }
        await Promise.all(recording);
        progress.end();
        writer.note(c.rel(), "phase_end", {phase, sent: phaseSent}, point.id, repeat);
      }
      writer.note(c.rel(), "repeat_end", {}, point.id, repeat);
      const lastRepeat = repeat === point.repeats - 1 && pi === last;
      if (!lastRepeat && block.cooldown_s > 0 && !control.stopped) {
        writer.note(c.rel(), "cooldown", {seconds: block.cooldown_s}, point.id, repeat);
        await control.sleep(block.cooldown_s * 1000);
      }
    }
    writer.note(c.rel(), "point_end", {}, point.id);
  }
}

/** The note of planned requests that were never sent (indexes `from`…`to` of a phase) and why. */
function notSent(phase: "warmup" | "measure", from: number, to: number, control: RunControl): Record<string, unknown> {
  const stop = control.stopped;
  return {
    phase,
    from,
    to,
    reason: stop === null ? "the phase ended before they were due" : `${stop.kind}: ${stop.reason}`
  };
}

/** Progress display only: a rough failure flag (the analyzer classifies for real). */
function looksFailed(res: StreamResult): boolean {
  return (
    res.transportError !== null ||
    res.httpStatus === null ||
    res.httpStatus < 200 ||
    res.httpStatus >= 300 ||
    res.events.some((e) => e[2] === "error" || e[2] === "parse_error")
  );
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | null = null;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(
          () => reject(new CliError(`${what} took longer than ${ms / 1000} s`, {exitCode: EXIT.unreachable})),
          ms
        );
      })
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
