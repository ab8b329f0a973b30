import {isOpenLoop} from "../../src/analysis/schema/config.ts";
import type {RequestRecord} from "../../src/analysis/schema/index.ts";
import {concurrencyShare, globalOrdinal, ownCount} from "../../src/analysis/schema/shard.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import type {ServerProbe} from "../env/probe.ts";
import {runClosedLoop, runOpenLoop, type PhaseContext} from "../load/dispatch.ts";
import type {RunControl} from "../load/control.ts";
import type {Pacer} from "../load/pacer.ts";
import {planSearches, type PlannedPoint} from "../load/plan.ts";
import {planStream} from "../load/planStream.ts";
import {silentProgress, type Progress} from "../load/progress.ts";
import {arrivalOffsets} from "../load/schedule.ts";
import {runSessions} from "../load/sessions.ts";
import {loadRequestId} from "../request/id.ts";
import {redactRecord, toRecord} from "../request/record.ts";
import {sendRequest} from "../request/sendRequest.ts";
import type {StreamResult} from "../request/types.ts";
import type {Workload} from "../workload/build.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {RunContext} from "./context.ts";
import {runSearch} from "./search.ts";
import type {SearchExchange} from "./searchExchange.ts";
import {runSlice} from "./shard.ts";

/** Warmup schedules use a seed this far from the measured one, so the two never coincide. */
export const WARMUP_SEED_OFFSET = 1_000_003;

type LoadPhase = "warmup" | "measure";

/** What every phase of the load points shares. */
interface PointsRun {
  c: RunContext;
  writer: BundleWriter;
  workload: Workload;
  probe: ServerProbe;
  bundleId: string;
  runId: string;
  progress: Progress;
  pacer: Pacer;
  /** Records still being written (each after its caller could dispatch the next request). */
  recording: Set<Promise<void>>;
  /** A search probe's measured records, kept while it runs (bounded by the probe's request count). */
  capture: {point: string; records: Omit<RequestRecord, "seq">[]} | null;
  /**
   * Awaited before each phase (a shard waits before its first measured phase at the shards' barrier, where
   * one is given, and for the experiment's start time; before every phase after it at the barrier).
   */
  beforePhase: BeforePhase | null;
}

/** Called with the load point, repeat and phase that is about to start. */
export type BeforePhase = (point: string, repeat: number, phase: LoadPhase) => Promise<void>;

/**
 * Runs every load point and repeat: warmup (drained), measured requests, cooldown between repeats; then each
 * load search, whose probes are added to `c.points` (and passed to `onPointAdded`, which keeps the draft
 * manifest in step) before each runs.
 */
export async function runPoints(
  c: RunContext,
  writer: BundleWriter,
  workload: Workload,
  probe: ServerProbe,
  bundleId: string,
  runId: string,
  onPointAdded: (p: PlannedPoint) => Promise<void> = async () => undefined,
  beforePhase: BeforePhase | null = null,
  /** A shard's: its searches are judged by shard 0 over every shard's records. */
  exchange: SearchExchange | null = null
): Promise<void> {
  const pacer = c.pacer(() => c.fx.clock.nowNs());
  const progress = c.progress ?? silentProgress;
  const run: PointsRun = {
    c,
    writer,
    workload,
    probe,
    bundleId,
    runId,
    progress,
    pacer,
    recording: new Set(),
    capture: null,
    beforePhase
  };
  const fixed = [...c.points];
  const searches = planSearches(c.config);
  for (const [pi, planned] of fixed.entries()) {
    if (c.control.stopped) break;
    await runPoint(run, planned, pi < fixed.length - 1 || searches.length > 0);
  }
  for (const s of searches) {
    if (c.control.stopped) break;
    await runSearch(
      c,
      writer,
      s,
      async (planned) => {
        c.points.push(planned);
        await onPointAdded(planned);
        run.capture = {point: planned.point.id, records: []};
        try {
          await runPoint(run, planned, false);
          return run.capture.records;
        } finally {
          run.capture = null;
        }
      },
      exchange
    );
  }
}

/** One load point: each repeat's warmup and measured phase, a cooldown after each repeat unless it is the run's last. */
async function runPoint(run: PointsRun, planned: PlannedPoint, cooldownAfter: boolean): Promise<void> {
  const {c, writer} = run;
  const {control} = c;
  const {point, block} = planned;
  writer.note(c.rel(), "point_start", {mode: point.mode, value: point.value}, point.id);
  for (let repeat = 0; repeat < point.repeats && !control.stopped; repeat++) {
    writer.note(c.rel(), "repeat_start", {}, point.id, repeat);
    for (const phase of ["warmup", "measure"] as const) {
      if (control.stopped) break;
      if (phase === "warmup" && point.warmup === 0) continue;
      if (run.beforePhase !== null) {
        await run.beforePhase(point.id, repeat, phase);
        if (control.stopped) break;
      }
      await runPhase(run, planned, repeat, phase);
    }
    writer.note(c.rel(), "repeat_end", {}, point.id, repeat);
    const lastRepeat = repeat === point.repeats - 1 && !cooldownAfter;
    if (!lastRepeat && block.cooldown_s > 0 && !control.stopped) {
      writer.note(c.rel(), "cooldown", {seconds: block.cooldown_s}, point.id, repeat);
      await control.sleep(block.cooldown_s * 1000);
    }
  }
  writer.note(c.rel(), "point_end", {}, point.id);
}

/** One phase of one repeat: closed loop (concurrency) or open loop (a streamed arrival plan). */
async function runPhase(run: PointsRun, planned: PlannedPoint, repeat: number, phase: LoadPhase): Promise<void> {
  const {c, writer, progress} = run;
  const {point} = planned;
  const count = phase === "warmup" ? point.warmup : point.requests;
  const durationS = phase === "warmup" ? null : point.durationS;
  const label = `${point.id} r${repeat} ${phase}`;
  const phaseCtx: PhaseContext = {
    control: c.control,
    clock: c.fx.clock,
    origin: c.origin,
    send: sender(run, planned, repeat, phase)
  };
  let sent: number;
  const slice = runSlice(c.config, c.shard);
  const sessions = c.config.workload.source?.kind === "sessions" ? c.config.workload.source : null;
  if (sessions !== null && count !== null) {
    progress.start(label, count, null);
    writer.note(c.rel(), "phase_start", {phase}, point.id, repeat);
    const r = await runSessions(phaseCtx, {
      users: concurrencyShare(slice, point.value),
      turns: sessions.turns,
      count,
      thinkMs: sessions.think_time_s * 1000,
      sleep: (ms) => c.control.sleep(ms),
      slice
    });
    sent = r.sent;
    for (const [from, to] of r.unsent)
      writer.note(c.rel(), "not_sent", notSent(phase, from, to, c.control), point.id, repeat);
  } else if (!isOpenLoop(point.mode)) {
    progress.start(label, count, durationS);
    writer.note(c.rel(), "phase_start", {phase}, point.id, repeat);
    sent = await runClosedLoop(phaseCtx, {
      concurrency: concurrencyShare(slice, point.value),
      count,
      durationNs: durationS === null ? null : durationS * 1e9,
      slice
    });
    // every planned request is accounted for: those a stop kept from being sent are noted as such (a
    // shard's unsent are its own ordinals from the next one on)
    if (count !== null && sent < ownCount(slice, count))
      writer.note(
        c.rel(),
        "not_sent",
        notSent(phase, globalOrdinal(slice, sent), count - 1, c.control),
        point.id,
        repeat
      );
  } else sent = await runOpenPhase(run, planned, repeat, phase, phaseCtx, label);
  await Promise.all(run.recording);
  progress.end();
  writer.note(c.rel(), "phase_end", {phase, sent}, point.id, repeat);
}

/** An open-loop phase: the schedule is written as it is planned, a little ahead of dispatch. */
async function runOpenPhase(
  run: PointsRun,
  planned: PlannedPoint,
  repeat: number,
  phase: LoadPhase,
  phaseCtx: PhaseContext,
  label: string
): Promise<number> {
  const {c, writer} = run;
  const {point, block} = planned;
  const count = phase === "warmup" ? point.warmup : point.requests;
  const durationS = phase === "warmup" ? null : point.durationS;
  const offsets =
    point.mode === "trace"
      ? run.workload.offsets!({phase, warmup: point.warmup, count, durationS, speed: point.value})
      : arrivalOffsets({
          mode: point.mode as "rate" | "poisson" | "gamma",
          rate: point.value,
          burstiness: block.burstiness,
          seed: block.seed + repeat + (phase === "warmup" ? WARMUP_SEED_OFFSET : 0),
          ...(count === null ? {durationS: durationS!} : {count})
        });
  const slice = runSlice(c.config, c.shard);
  const plan = planStream({
    offsets,
    slice,
    append: (offsetNs, index) =>
      writer.schedule.append({
        point: point.id,
        repeat,
        index,
        phase,
        offsetNs,
        requestId: loadRequestId(run.runId, point.id, repeat, phase, index)
      }),
    flush: () => writer.schedule.flush()
  });
  await plan.prime(); // the first planned requests are on disk before the first dispatch
  run.progress.start(label, count, count === null ? durationS : null);
  const sent = await runOpenLoop(phaseCtx, {
    offsetsNs: () => plan.next(),
    maxConcurrency: point.maxConcurrency === null ? null : concurrencyShare(slice, point.maxConcurrency),
    pacer: run.pacer,
    onStart: (t0) => writer.note(c.rel(t0), "phase_start", {phase, scheduled: count ?? null}, point.id, repeat)
  });
  writer.note(c.rel(), "plan_end", {phase, scheduled: plan.written}, point.id, repeat);
  // a declared count is the plan even where a stop kept the schedule from being written to its end (a
  // shard's plan: its own ordinals of it)
  const plannedCount = count === null ? plan.written : ownCount(slice, count);
  if (sent < plannedCount)
    writer.note(
      c.rel(),
      "not_sent",
      notSent(phase, globalOrdinal(slice, sent), globalOrdinal(slice, plannedCount - 1), c.control),
      point.id,
      repeat
    );
  return sent;
}

/** The send function of one phase: plans, sends and records request `index`; resolves with its end time. */
function sender(run: PointsRun, planned: PlannedPoint, repeat: number, phase: LoadPhase) {
  const {c, workload} = run;
  const w = c.config.workload;
  const {point, block} = planned;
  return async (index: number, tSchedNs: number): Promise<number> => {
    const id = loadRequestId(run.runId, point.id, repeat, phase, index);
    const at = {point: point.id, repeat, phase, index, id, seed: block.seed, warmup: point.warmup};
    const plan = workload.request(at);
    const spec = {
      id,
      endpoint: c.config.target.endpoint,
      prompt: plan.prompt,
      maxTokens: plan.maxTokens,
      ignoreEos: w.ignore_eos,
      continuousUsage: run.probe.continuousUsage,
      keepText: w.save_text || plan.needsAnswer === true
    };
    const res = await sendRequest(c.target, c.config, spec, c.control);
    // the next turn of a conversation is built from this answer: learned before the send resolves
    const answer =
      plan.needsAnswer === true
        ? (workload.answered?.(at, res.responseText, res.usage?.completionTokens ?? null) ?? null)
        : null;
    // record after the caller had the chance to dispatch the next request (closed loop)
    const done = Promise.resolve().then(() => {
      const who = {id, point: point.id, repeat, index, phase, tSchedNs, promptDigest: sha256Hex(plan.text)};
      const built = {
        promptTokensIntended: plan.intendedTokens,
        maxTokens: spec.endpoint === "embeddings" ? null : plan.maxTokens,
        salt: plan.salt,
        promptText: plan.text,
        ...(plan.tag === undefined ? {} : {workload: plan.tag}),
        ...(plan.segments === undefined
          ? {}
          : {promptSegments: answer === null ? plan.segments : {...plan.segments, answer}})
      };
      const rec = redactRecord(toRecord({...who, ...built}, res, w.save_text), c.redact);
      run.writer.requests.append(rec);
      if (phase === "measure" && run.capture?.point === point.id) run.capture.records.push(rec);
      run.progress.tick(!looksFailed(res));
    });
    run.recording.add(done);
    void done.finally(() => run.recording.delete(done));
    return res.tEndNs ?? c.rel();
  };
}

/** The note of planned requests that were never sent (indexes `from`…`to` of a phase) and why. */
function notSent(phase: LoadPhase, from: number, to: number, control: RunControl): Record<string, unknown> {
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
