import type {FailureClass} from "../derive/outcome.ts";
import type {DerivedRequest} from "../derive/request.ts";
import {judgeSlo} from "../metrics/goodput.ts";
import {e2eMs, ttftMs} from "../metrics/latency.ts";
import {REQUEST_METRICS, requestSample, SAMPLE_METRICS, sampleValues} from "../metrics/registry.ts";
import {itlMs} from "../metrics/speed.ts";
import type {SpecServerWindow} from "../metrics/specDecode.ts";
import {measurementWindow} from "../metrics/window.ts";
import type {PointTotals} from "../metrics/types.ts";
import {isOpenLoop, type RunConfig} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {Column, type Samples} from "../stats/column.ts";
import type {LengthFacts, PrefixCacheFacts} from "../workload/log.ts";
import type {AnyPointReducer} from "./reducer.ts";
import {
  finishRepeat,
  newRepeat,
  noteMeasureStart,
  noteWarmupEnd,
  poolTotals,
  type RepeatAccum,
  type RepeatFacts
} from "./repeat.ts";

export type {RepeatFacts};

/** Per-request row kept for charts and audits (only when asked for). */
export interface RequestRow {
  id: string;
  point: string;
  repeat: number;
  phase: string;
  outcome: string;
  tSchedMs: number | null;
  tDispMs: number | null;
  tTok1Ms: number | null;
  tTokNMs: number | null;
  tEndMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  itlMs: number | null;
  out: number | null;
  tokenEvents: number;
  good: boolean;
  error: string | null;
}

export interface FailureExample {
  outcome: FailureClass;
  count: number;
  message: string | null;
  httpStatus: number | null;
  requestId: string;
}

/** What every load point has, whatever gates read: counts, repeats, metric columns, outcomes, rows. */
export interface CoreFacts {
  point: LoadPoint;
  /** [first start, last end] of the measured requests across repeats, ns (null when unknown). */
  spanNs: [number, number] | null;
  /**
   * The measurement window as its spans, ns: one [first start, last end] per measured repeat, in repeat order
   * (their lengths sum to `totals.windowS`); null when a repeat's window is unknown, as `totals.windowS` is.
   */
  windowsNs: [number, number][] | null;
  openLoop: boolean;
  phases: {warmup: number; measure: number; cooldown: number};
  totals: PointTotals;
  repeats: RepeatFacts[];
  outcomes: Partial<Record<FailureClass | "success", number>>;
  failureExamples: FailureExample[];
  columns: Map<string, Samples>;
  usageSources: Record<string, number>;
  finishReasons: Record<string, number>;
  /** Measured requests whose times are relative to their own start (imports): no shared window. */
  timeBaseRequest: number;
  rows: RequestRow[];
  /** Speculative-decoding counters over `spanNs` (metrics/specDecode.ts), when the bundle's scrapes have any. */
  specServer?: SpecServerWindow;
  /** The prefix-cache bound against what the server reported (workload/log.ts), when prompts carry segments. */
  prefixCache?: PrefixCacheFacts | null;
  /** Requested against realised lengths, when requests carry their workload (workload/log.ts). */
  workloadLengths?: LengthFacts | null;
}

/** The facts the given reducers contribute (the intersection of their `finish` results). */
export type FactsOf<R extends readonly AnyPointReducer[]> = UnionToIntersection<ReturnType<R[number]["finish"]>>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

const toMs = (ns: number | null): number | null => (ns === null ? null : ns / 1e6);

function concat(parts: readonly Samples[]): Samples {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Streams the requests of one load point into its core facts (counts, windows, metric columns) and
 * feeds each to the reducers it is given (each gate's own counts); nothing per request is kept unless
 * rows are asked for.
 */
export class PointAccumulator<R extends readonly AnyPointReducer[]> {
  readonly point: LoadPoint;
  readonly #config: RunConfig;
  readonly #keepRows: boolean;
  readonly #reducers: R;
  readonly #states: unknown[];
  readonly #repeats = new Map<number, RepeatAccum>();
  readonly #columns = new Map<string, Column>();
  readonly #phases = {warmup: 0, measure: 0, cooldown: 0};
  readonly #outcomes: Partial<Record<FailureClass | "success", number>> = {};
  readonly #examples = new Map<FailureClass, FailureExample>();
  readonly #usage: Record<string, number> = {};
  readonly #finish: Record<string, number> = {};
  readonly #rows: RequestRow[] = [];

  constructor(point: LoadPoint, config: RunConfig, reducers: R, keepRows: boolean) {
    this.point = point;
    this.#config = config;
    this.#keepRows = keepRows;
    this.#reducers = reducers;
    this.#states = reducers.map((r) => r.init(point, config) as unknown);
    for (const m of REQUEST_METRICS) this.#columns.set(m.id, new Column());
    for (const m of SAMPLE_METRICS) this.#columns.set(m.id, new Column({precision: "f32", firstChunk: 1024}));
  }

  add(d: DerivedRequest): void {
    const r = d.record;
    for (let i = 0; i < this.#reducers.length; i++) this.#reducers[i]!.add(this.#states[i], d);
    this.#phases[r.phase]++;
    const rep = this.#repeat(r.repeat);
    if (r.phase === "warmup") {
      rep.warmups++;
      if (d.tEnd !== null) noteWarmupEnd(rep, r.shard, d.tEnd);
      return this.#row(d, false);
    }
    if (r.phase !== "measure") return this.#row(d, false);
    const t = rep.totals;
    t.measured++;
    if (d.nonStreamed) t.nonStreamed++;
    this.#outcomes[d.outcome] = (this.#outcomes[d.outcome] ?? 0) + 1;
    measurementWindow.add(rep.window, d);
    if (d.timeBase !== "request" && d.tStart !== null) noteMeasureStart(rep, r.shard, d.tStart);
    for (const m of REQUEST_METRICS) {
      const v = requestSample(m, d);
      if (v !== null) this.#column(rep, m.id).push(v);
    }
    if (!d.success) {
      this.#example(d);
      return this.#row(d, false);
    }
    const good = this.#success(t, d);
    for (const m of SAMPLE_METRICS) {
      const col = this.#columns.get(m.id)!;
      sampleValues(m, d, (v) => col.push(v));
    }
    this.#row(d, good);
  }

  /** A successful measured request's counts; whether it met the SLO. */
  #success(t: PointTotals, d: DerivedRequest): boolean {
    const r = d.record;
    t.successes++;
    const judged = judgeSlo(d, this.#config.slo);
    if (judged.good === true) t.good++;
    else if (judged.good === null) t.unjudged++;
    if (judged.shortOutput) t.shortOutputs++;
    if (d.out === null) t.successesMissingOut++;
    else t.outputTokens += d.out;
    if (d.in === null) t.successesMissingIn++;
    else t.inputTokens += d.in;
    if (d.chunksKnown) {
      t.tokenEvents += d.tokenEvents;
      t.multiTokenEvents += d.multiTokenEvents;
    } else t.chunksUnknown++;
    this.#usage[r.usageSource] = (this.#usage[r.usageSource] ?? 0) + 1;
    const fr = r.finishReason ?? "(none)";
    this.#finish[fr] = (this.#finish[fr] ?? 0) + 1;
    return judged.good === true;
  }

  finish(): CoreFacts & FactsOf<R> {
    const done: {facts: RepeatFacts; rep: RepeatAccum}[] = [];
    let timeBaseRequest = 0;
    const parts = new Map<string, Samples[]>(REQUEST_METRICS.map((m) => [m.id, []]));
    for (const [repeat, rep] of [...this.#repeats].sort((a, b) => a[0] - b[0])) {
      timeBaseRequest += rep.window.timeBaseRequest;
      if (rep.totals.measured === 0) continue;
      const {facts, values} = finishRepeat(repeat, rep, this.#repeats.size >= 2);
      for (const [id, v] of values) parts.get(id)!.push(v);
      done.push({facts, rep});
    }
    const columns = new Map<string, Samples>();
    for (const [id, col] of this.#columns) {
      const own = parts.get(id);
      if (own === undefined)
        columns.set(id, col.values()); // sample metrics: pooled as they come
      else columns.set(id, own.length === 1 ? own[0]! : concat(own));
    }
    const known = [...this.#repeats.values()].map((r) => r.window).filter((w) => w.tEndMax > w.tStartMin);
    const spanNs: [number, number] | null =
      known.length > 0
        ? [
            known.reduce((m, r) => Math.min(m, r.tStartMin), Infinity),
            known.reduce((m, r) => Math.max(m, r.tEndMax), -Infinity)
          ]
        : null;
    const windows = done.map(({rep}) => rep.window);
    const windowsNs = windows.every((w) => w.timeBaseRequest === 0 && w.tEndMax > w.tStartMin)
      ? windows.map((w): [number, number] => [w.tStartMin, w.tEndMax])
      : null;
    const core: CoreFacts = {
      point: this.point,
      spanNs,
      windowsNs: windowsNs !== null && windowsNs.length > 0 ? windowsNs : null,
      openLoop: isOpenLoop(this.point.mode),
      phases: this.#phases,
      totals: poolTotals(this.point, done, timeBaseRequest),
      repeats: done.map((x) => x.facts),
      outcomes: this.#outcomes,
      failureExamples: [...this.#examples.values()],
      columns,
      usageSources: this.#usage,
      finishReasons: this.#finish,
      timeBaseRequest,
      rows: this.#rows
    };
    const facts = this.#reducers.map((r, i) => r.finish(this.#states[i]));
    return Object.assign(core, ...facts) as CoreFacts & FactsOf<R>;
  }

  #repeat(repeat: number): RepeatAccum {
    let rep = this.#repeats.get(repeat);
    if (!rep) {
      rep = newRepeat(this.point);
      this.#repeats.set(repeat, rep);
    }
    return rep;
  }

  /** The column a request metric's value goes to: its repeat's (the point's is their union, built at the end). */
  #column(rep: RepeatAccum, id: string): Column {
    let col = rep.columns.get(id);
    if (col === undefined) {
      col = new Column();
      rep.columns.set(id, col);
    }
    return col;
  }

  #example(d: DerivedRequest): void {
    const cls = d.outcome as FailureClass;
    const ex = this.#examples.get(cls);
    if (ex) ex.count++;
    else
      this.#examples.set(cls, {
        outcome: cls,
        count: 1,
        message: d.record.errorMessage,
        httpStatus: d.record.httpStatus,
        requestId: d.record.id
      });
  }

  #row(d: DerivedRequest, good: boolean): void {
    if (!this.#keepRows) return;
    const r = d.record;
    this.#rows.push({
      id: r.id,
      point: r.point,
      repeat: r.repeat,
      phase: r.phase,
      outcome: d.outcome,
      tSchedMs: toMs(d.tSched),
      tDispMs: toMs(d.tDisp),
      tTok1Ms: toMs(d.tTok1),
      tTokNMs: toMs(d.tTokN),
      tEndMs: toMs(d.tEnd),
      ttftMs: ttftMs.value(d),
      e2eMs: e2eMs.value(d),
      itlMs: itlMs.value(d),
      out: d.out,
      tokenEvents: d.tokenEvents,
      good,
      error: d.success ? null : (r.errorMessage ?? d.outcome)
    });
  }
}
