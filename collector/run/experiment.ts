import {dirname, join} from "node:path";

import {loadBlocks} from "../../src/analysis/schema/config.ts";
import {FILE_NAMES, ROLE_BY_NAME, type Manifest, type RequestRecord} from "../../src/analysis/schema/index.ts";
import type {ShardIdentity} from "../../src/analysis/schema/shard.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {finishBundle, DRAFT_FILE} from "../bundle/finish.ts";
import {releaseLock, takeLock} from "../bundle/lock.ts";
import {isoOf} from "../bundle/manifest.ts";
import {bundleName, shortId} from "../bundle/name.ts";
import {buildSuite, runSuite, type BuiltSuite} from "../cases/suite.ts";
import {CliError, EXIT} from "../cliError.ts";
import {resolvedConfigYaml} from "../config/load.ts";
import {probeServer, tokenCounter, type ServerProbe} from "../env/probe.ts";
import type {RunControl} from "../load/control.ts";
import {silentProgress} from "../load/progress.ts";
import {planPrompt, type PromptPlan} from "../request/prompt.ts";
import {redactRecord} from "../request/record.ts";
import {joinUrl} from "../request/url.ts";
import {buildWorkload, type Workload} from "../workload/build.ts";
import {BUNDLE_JSONL, BundleWriter} from "../writer/bundleWriter.ts";
import type {BarrierOptions, BundleIdentity, BundleStatus, CollectOutcome, RunContext} from "./context.ts";
import {draftManifest, environmentOf, hostFacts} from "./draft.ts";
import {leaveBarrier, shardBarrier, staleBefore} from "./barrier.ts";
import {startHeartbeat, watchSilence} from "./liveness.ts";
import {searchExchange} from "./searchExchange.ts";
import {runPoints, type BeforePhase} from "./points.ts";
import type {PlannedPoint} from "../load/plan.ts";
import {startTelemetry} from "./telemetry.ts";
import {shardIdentity, SUITE_PHASE, suiteRunsHere, waitForStart} from "./shard.ts";
import {withTimeout} from "./timeout.ts";

const PROBE_TIMEOUT_MS = 120_000;

/**
 * The run once collect() has set it up, as a pipeline: probe the target, prepare the prompt and the case
 * suite, create the bundle (folder, lock, config, draft manifest, writers), run the load points and the
 * suite with telemetry, seal.
 */
export async function runExperiment(c: RunContext): Promise<CollectOutcome> {
  const resolvedYaml = resolvedConfigYaml(c.config, c.redact);
  const shard = c.shard ? await shardIdentity(c.fx, c.config, c.shard, sha256Hex(resolvedYaml)) : null;
  // a shard that meets the others at barriers
  const met = shard !== null && c.shard?.barrier ? {shard, o: c.shard.barrier} : null;
  // while it runs, it beats, so that peers can tell one killed outright from one that is slow
  const stopBeat = met ? startHeartbeat(c, met.shard, met.o) : () => {};
  const {probe, built, id, workload, draft, writer} = await (async () => {
    const probe = await probeTarget(c);
    const facts = await hostFacts(c, probe);
    const {prompt, built} = await prepareWorkload(c, probe);
    return {probe, built, ...(await openBundle(c, shard, probe, facts, prompt, built, resolvedYaml))};
  })().catch(async (e: unknown) => {
    // a shard that fails before its load (at the probe, the workload, the bundle) still tells the others
    // not to wait for it
    stopBeat();
    if (met) await leaveBarrier(c, met.shard, met.o);
    throw e;
  });

  const anchors: Manifest["clockAnchors"] = [...draft.clockAnchors];
  const {barrier, exchange} = met ? meeting(c, writer, met.shard, met.o) : {barrier: null, exchange: null};
  let samplers: ReturnType<typeof startTelemetry> | null = null;
  try {
    writer.note(0, "run_start", {
      bundleId: id.bundleId,
      wall: anchors[0]!.wall,
      points: c.points.map((p) => p.point.id)
    });
    if (probe.downgrade)
      writer.note(c.rel(), "downgrade", {feature: "continuous_usage_stats", reason: probe.downgrade});
    samplers = startTelemetry(c, writer, probe, anchors);
    // a search's probe joins the draft manifest before it runs, so a crashed run's seal lists it
    // a shard warms up, then waits for the experiment's start time: the measured phases start together;
    // every phase after that starts together again at the shards' barrier, where one is given. With a barrier
    // the first measured phase meets there too, so a shard that came after the start time (a slow start-up on
    // a busy host, a pod scheduled late) holds the others back instead of starting apart from them
    let started = false;
    const beforePhase: BeforePhase | null =
      shard === null
        ? null
        : async (point, repeat, phase) => {
            if (!started) {
              if (phase !== "measure") return;
              started = true;
              await barrier?.wait({point, repeat, phase});
              return waitForStart(c, writer, shard);
            }
            await barrier?.wait({point, repeat, phase});
          };
    const onPointAdded = async (p: PlannedPoint) => {
      draft.loadPoints.push(p.point);
      await c.fx.files.writeAtomic(join(id.dir, DRAFT_FILE), `${JSON.stringify(draft, null, 2)}\n`);
    };
    await runPoints(c, writer, workload, probe, id.bundleId, id.runId, onPointAdded, beforePhase, exchange);
    // shard 0 runs a sharded suite once every shard's load has ended: its idle cases are idle
    if (c.suite !== null && shard !== null && !c.control.stopped) await barrier?.wait(SUITE_PHASE);
    if (built !== null && !c.control.stopped) await runSuite(suiteContext(c, writer, probe, id), built);
    await samplers.lastScrape();
  } catch (e) {
    // a collector bug: keep what was captured on disk (unsealed: `inferscope seal` can recover it)
    c.control.stop("write_error", `collector error: ${(e as Error).message}`, 0);
    for (const s of samplers?.list ?? []) await s.stop();
    writer.note(c.rel(), "collector_error", {message: c.redact((e as Error).message)});
    await writer.close();
    throw e;
  } finally {
    // finished, stopped or failed: no shard need wait for this one at a later barrier
    stopBeat();
    await barrier?.leave();
    for (const s of samplers?.list ?? []) await s.stop();
    samplers?.final();
  }
  return sealRun(c, {writer, draft, anchors, dir: id.dir, quality: built !== null});
}

/**
 * A shard's barrier and search exchange, with one reader of the peers' heartbeats for both: a silence seen at a
 * barrier is not timed again at a probe.
 */
function meeting(c: RunContext, writer: BundleWriter, shard: ShardIdentity, o: BarrierOptions) {
  const silence = watchSilence(c, shard, o, staleBefore(c.fx.clock.wallMs(), o.timeoutMs));
  return {barrier: shardBarrier(c, writer, shard, o, silence), exchange: searchExchange(c, shard, o, silence)};
}

/** The bundle's folder, config, draft manifest and writer (the workload loaded for its bundle id). */
async function openBundle(
  c: RunContext,
  shard: ShardIdentity | null,
  probe: ServerProbe,
  facts: Awaited<ReturnType<typeof hostFacts>>,
  prompt: PromptPlan,
  built: BuiltSuite | null,
  resolvedYaml: string
) {
  const id = bundleIdentity(c, shard);
  const workload = await loadWorkload(c, probe, prompt, id.bundleId);
  await createBundleFolder(c, id.dir);
  const environment = environmentOf(c, probe, facts, prompt);
  const draft = await draftManifest(c, {bundleId: id.bundleId, resolvedYaml, environment, workload: workload.facts});
  if (shard !== null) draft.shard = shard;
  await writeOrFail(id.dir, async () => {
    await c.fx.files.writeAtomic(join(id.dir, FILE_NAMES.config), resolvedYaml);
    await c.fx.files.writeAtomic(join(id.dir, DRAFT_FILE), `${JSON.stringify(draft, null, 2)}\n`);
  });
  const writer = await openWriter(c, id.dir, built !== null);
  c.fx.log.info(`bundle: ${id.dir}`);
  return {id, workload, draft, writer};
}

/** Probes the target (reachability, streaming, usage, keep-alive) and adapts the run to what it found. */
async function probeTarget(c: RunContext): Promise<ServerProbe> {
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
      `the probe request did not ${c.config.target.endpoint === "embeddings" ? "return a vector" : "stream"} (status ${probe.stream.httpStatus ?? "none"}: ${probe.stream.error ?? "no events"}); collecting anyway`
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
  return probe;
}

/** The calibrated prompt of the load points and, with `suites`, the built case suite. */
async function prepareWorkload(
  c: RunContext,
  probe: ServerProbe
): Promise<{prompt: PromptPlan; built: BuiltSuite | null}> {
  const {config, fx} = c;
  const firstBlock = loadBlocks(config)[0]!;
  const prompt = await planPrompt({
    promptTokens: config.workload.prompt_tokens,
    ...(config.workload.prompt_text === undefined ? {} : {promptText: config.workload.prompt_text}),
    salt: config.workload.salt,
    seed: firstBlock.seed,
    count: probe.tokenize ? tokenCounter(fx, config, c.apiKey) : null
  });
  if (c.suite === null || !suiteRunsHere(c.shard)) return {prompt, built: null};
  try {
    const built = await buildSuite(c.suite, {
      fx,
      seed: firstBlock.seed,
      count: probe.tokenize ? tokenCounter(fx, config, c.apiKey) : null,
      salt: config.workload.salt,
      ...(c.gsm8kSource === undefined ? {} : {gsm8kSource: c.gsm8kSource})
    });
    return {prompt, built};
  } catch (e) {
    throw new CliError(`case suite: ${(e as Error).message}`, {exitCode: EXIT.usage, cause: e});
  }
}

/** The workload of the load points (its files read and checked before any bundle folder exists). */
async function loadWorkload(
  c: RunContext,
  probe: ServerProbe,
  prompt: PromptPlan,
  bundleId: string
): Promise<Workload> {
  try {
    return await buildWorkload({
      config: c.config,
      bundleId,
      prompt,
      count: probe.tokenize ? tokenCounter(c.fx, c.config, c.apiKey) : null,
      read: (path) => c.fx.files.readFile(path)
    });
  } catch (e) {
    throw new CliError(`workload: ${(e as Error).message}`, {exitCode: EXIT.usage, cause: e});
  }
}

/**
 * The bundle's name (date, host, model, name, short id) and folder. The shards of one experiment share the
 * run id (from the plan's digest), so their request ids are one run's; each shard's name says which it is.
 */
function bundleIdentity(c: RunContext, shard: ShardIdentity | null): BundleIdentity {
  const runId = shard === null ? shortId() : shard.planSha256.slice(0, 6);
  const host = c.hostLabel ?? c.fx.hostname();
  const bundleId = bundleName({
    wallMs: c.startWall,
    host,
    model: c.config.target.model,
    name: shard === null ? c.config.name : `${c.config.name}-shard${shard.index}of${shard.count}`,
    id: runId
  });
  return {bundleId, runId, dir: join(c.outParent ?? c.config.output.dir, bundleId)};
}

/** Creates the bundle folder (never over an existing one) and takes its lock. */
async function createBundleFolder(c: RunContext, dir: string): Promise<void> {
  try {
    await c.fx.files.mkdirNew(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // mkdir of a folder under a file says EEXIST (of the file) or ENOTDIR (mkdirpSync, naming the file in its
    // path): name the file, not a folder that is not there
    const parent = code === "ENOTDIR" ? ((e as NodeJS.ErrnoException).path ?? dirname(dir)) : dirname(dir);
    const parentKind =
      code === "EEXIST" || code === "ENOTDIR" ? await c.fx.files.entryKind(parent).catch(() => null) : null;
    if (parentKind !== null && parentKind !== "directory" && parentKind !== "symlink")
      throw new CliError(`cannot create the bundle folder ${dir}: ${parent} is a ${parentKind}, not a folder`, {
        exitCode: EXIT.writeFailed,
        cause: e
      });
    if (code === "EEXIST")
      throw new CliError(`refusing to overwrite the existing folder ${dir}`, {exitCode: EXIT.usage});
    throw new CliError(`cannot create the bundle folder ${dir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  await writeOrFail(dir, () => takeLock(c.fx, dir));
}

/** Runs a write into the bundle folder; a failure is exit 5 with the folder and the reason. */
async function writeOrFail(dir: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    throw new CliError(`cannot write into the bundle folder ${dir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
}

/** Opens the evidence files; a write error later stops the run (the bundle is then sealed partial). */
function openWriter(c: RunContext, dir: string, quality: boolean): Promise<BundleWriter> {
  const {config, fx} = c;
  return BundleWriter.open(fx.files, dir, {
    fsyncIntervalMs: config.output.fsync_interval_ms,
    quality,
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
}

/** Notes the end, closes the writers and seals the bundle with the status the run ended in. */
async function sealRun(
  c: RunContext,
  o: {
    writer: BundleWriter;
    draft: Omit<Manifest, "files">;
    anchors: Manifest["clockAnchors"];
    dir: string;
    quality: boolean;
  }
): Promise<CollectOutcome> {
  const {fx} = c;
  const {writer, anchors, dir} = o;
  const endWall = fx.clock.wallMs();
  anchors.push({wall: isoOf(endWall), tNs: c.rel()});
  const stopped = c.control.stopped as RunControl["stopped"]; // set asynchronously by signals or write errors
  if (stopped)
    writer.note(c.rel(), stopped.kind === "interrupt" ? "interrupt" : "write_error", {reason: stopped.reason});
  writer.note(c.rel(), "run_end", {wall: isoOf(endWall)});
  await writer.close();
  const attached = await attachFiles(c, dir);

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
    draft: {...o.draft, status, statusReason, finishedAt: isoOf(endWall), clockAnchors: anchors},
    files: [
      FILE_NAMES.config,
      ...BUNDLE_JSONL.map((r) => FILE_NAMES[r]),
      ...(o.quality ? [FILE_NAMES.quality] : []),
      ...attached
    ],
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

/** Writes the run's attachments (redacted) into the bundle; a failure is noted in the log, never fatal. */
async function attachFiles(c: RunContext, dir: string): Promise<string[]> {
  if (c.attachments === undefined) return [];
  const names: string[] = [];
  try {
    for (const a of await c.attachments()) {
      if (!/^[a-z0-9][a-z0-9._-]*$/.test(a.name) || ROLE_BY_NAME.has(a.name)) continue;
      await c.fx.files.writeAtomic(join(dir, a.name), c.redact(a.text));
      names.push(a.name);
    }
  } catch (e) {
    c.fx.log.warn(`attachment not written: ${(e as Error).message}`);
  }
  return names;
}

/** What the case runner needs from this run: transport, clock, redaction, writers, stop switch. */
function suiteContext(c: RunContext, writer: BundleWriter, probe: ServerProbe, id: BundleIdentity) {
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
    answers: writer.quality!,
    note: (event: string, detail: Record<string, unknown>) => writer.note(c.rel(), event, detail),
    progress: c.progress ?? silentProgress,
    pacer: c.pacer(() => c.fx.clock.nowNs()),
    runId: id.runId,
    bundleId: id.bundleId,
    apiKey: c.apiKey,
    continuousUsage: probe.continuousUsage
  };
}
