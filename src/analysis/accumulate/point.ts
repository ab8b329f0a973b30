import type {Samples} from "../stats/column.ts";
import type {DerivedRequest} from "../derive/request.ts";
import type {FailureClass} from "../derive/outcome.ts";
import {judgeSlo} from "../metrics/goodput.ts";
import {e2eMs, ttftMs} from "../metrics/latency.ts";
import {itlMs} from "../metrics/speed.ts";
import {REQUEST_METRICS, SAMPLE_METRICS} from "../metrics/registry.ts";
import type {PointTotals} from "../metrics/types.ts";
import {isOpenLoop, type RunConfig} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {Column} from "../stats/column.ts";
import {median} from "../stats/quantile.ts";
import {inFlightProfile} from "./inflight.ts";

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

interface RepeatAccum {
  totals: PointTotals;
  tStartMin: number;
  tEndMax: number;
  dispMin: number;
  dispMax: number;
  dispatched: number;
  starts: Column;
  ends: Column;
  scheds: Column;
  calls: Column;
  warmupEndMax: number;
  warmups: number;
  timeBaseRequest: number;
  /** Per request metric: the values of this repeat (for the across-repeat stability of its median). */
  columns: Map<string, Column>;
}

export interface RepeatFacts {
  repeat: number;
  totals: PointTotals;
  peakInFlight: number;
  /** Mean in flight between the first and last dispatch (the load the client sustained while sending). */
  sustainedInFlight: number | null;
  /** Seconds between consecutive scheduled sends (open loop), in order. */
  interArrivalsS: number[];
  /** Seconds between consecutive actual starts of the measured requests (t_call, else t_disp), in order. */
  dispatchGapsS: number[];
  warmupOverlapsMeasure: boolean;
  /** Warmup requests recorded in this repeat. */
  warmups: number;
  /** Per request metric id: the median of this repeat (null when it has fewer than 5 values). */
  medians: Map<string, number | null>;
}

/** The stream's own token count against the server's (G8). */
export interface TokenCheck {
  /** Successful requests with a server count. */
  checked: number;
  /** Server count below the non-empty token events (each carries ≥ 1 token) beyond the tolerance. */
  undercount: number;
  /** Server count that the exact per-event deltas contradict beyond the tolerance. */
  contradicted: number;
  /**
   * Without per-event counts: requests with more tokens than the stream showed events, beyond the tolerance
   * and 2 tokens (a server may send no chunk for a token whose text it holds back: llama.cpp streams 30
   * chunks for 32 tokens) — several tokens per chunk, held-back tokens, or an overcount.
   */
  unverified: number;
  /** Σ server count and Σ stream count over the requests without per-event counts (the pooled surplus check). */
  sumOutNoDeltas: number;
  sumStreamNoDeltas: number;
  /** Requests whose tokens arrived only as empty text (counted by the server). */
  emptyText: number;
  /** Requests whose end-of-sequence token rode on the finish chunk. */
  eosOnFinish: number;
  sumOut: number;
  sumStream: number;
  /** A few examples: [request id, server count, stream count]. */
  examples: [string, number, number][];
}

export interface FailureExample {
  outcome: FailureClass;
  count: number;
  message: string | null;
  httpStatus: number | null;
  requestId: string;
}

export interface PointFacts {
  point: LoadPoint;
  /** [first start, last end] of the measured requests across repeats, ns (null when unknown). */
  spanNs: [number, number] | null;
  openLoop: boolean;
  phases: {warmup: number; measure: number; cooldown: number};
  totals: PointTotals;
  repeats: RepeatFacts[];
  outcomes: Partial<Record<FailureClass | "success", number>>;
  failureExamples: FailureExample[];
  columns: Map<string, Samples>;
  usageSources: Record<string, number>;
  finishReasons: Record<string, number>;
  outputLength: {checked: number; outside: number; expected: number | null; examples: number[]};
  inputLength: {checked: number; outside: number; intendedMean: number | null; actualMean: number | null};
  /** Requests that reused more cached prompt tokens than a chat template's prefix explains. */
  cachedRequests: number;
  cachedTokens: number;
  /** Requests whose cached tokens fit a template prefix (≤ max(32, 10 % of the prompt)). */
  cachedPrefixOnly: number;
  /** Successful requests whose server reported a cached-token count (0 included). */
  cachedKnown: number;
  tokens: TokenCheck;
  /** Successful streams the server kept open after their terminal marker until the client closed them. */
  hung: {count: number; maxS: number | null; example: string | null};
  /** Measured requests that sent, unsalted, a prompt a warmup request had already sent (G14). */
  replayedWarmupPrompts: number;
  missingSchedule: number;
  /** Measured requests without a scheduled time, any mode (imports record dispatch times only). */
  unscheduled: number;
  timeBaseRequest: number;
  deltasKnown: number;
  reasoningRequests: number;
  inlineThink: number;
  fakeStreaming: number;
  /** Buffered responses (up to 1,000): request id and when the burst arrived (the last token event), ns. */
  bufferedBursts: {id: string; tNs: number}[];
  unsalted: number;
  rows: RequestRow[];
}

const emptyTotals = (point: LoadPoint): PointTotals => ({
  mode: point.mode,
  target: point.value,
  measured: 0,
  successes: 0,
  good: 0,
  unjudged: 0,
  shortOutputs: 0,
  outputTokens: 0,
  inputTokens: 0,
  successesMissingOut: 0,
  successesMissingIn: 0,
  tokenEvents: 0,
  multiTokenEvents: 0,
  chunksUnknown: 0,
  windowS: null,
  meanInFlight: null,
  dispatchRate: null
});

/** Cached prompt tokens a chat template's shared prefix can explain: max(32, 10 % of the prompt). */
export const templatePrefixAllowance = (promptTokens: number | null): number => Math.max(32, 0.1 * (promptTokens ?? 0));

/**
 * Buffered ("fake") streaming: ≥ 10 output tokens that arrived in at most 2 events, or whose events all
 * arrived within 50 µs per token (> 20,000 tok/s for one request: a flush of held-back output, not decoding).
 */
export function isBuffered(d: DerivedRequest): boolean {
  if (d.out === null || d.out < 10) return false;
  if (d.tokenEvents <= 2) return true;
  return d.tTok1 !== null && d.tTokN !== null && (d.tTokN - d.tTok1) / (d.out - 1) < 50_000;
}

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

/** Seconds between consecutive times (ns), after sorting them. */
function gapsS(times: Samples): number[] {
  const sorted = times.slice().sort();
  const out: number[] = [];
  for (let i = 1; i < sorted.length; i++) out.push((sorted[i]! - sorted[i - 1]!) / 1e9);
  return out;
}

/** Streams the requests of one load point into counts and metric columns; nothing per request is kept unless rows are asked for. */
export class PointAccumulator {
  readonly point: LoadPoint;
  #config: RunConfig;
  #keepRows: boolean;
  #repeats = new Map<number, RepeatAccum>();
  #columns = new Map<string, Column>();
  #phases = {warmup: 0, measure: 0, cooldown: 0};
  #outcomes: Partial<Record<FailureClass | "success", number>> = {};
  #examples = new Map<FailureClass, FailureExample>();
  #usage: Record<string, number> = {};
  #finish: Record<string, number> = {};
  #out = {checked: 0, outside: 0, expected: null as number | null, examples: [] as number[]};
  #in = {checked: 0, outside: 0, intended: 0, actual: 0};
  #cached = 0;
  #cachedTokens = 0;
  #cachedPrefix = 0;
  #missingSchedule = 0;
  #unscheduled = 0;
  #deltasKnown = 0;
  #reasoning = 0;
  #inlineThink = 0;
  #fake = 0;
  #bursts: {id: string; tNs: number}[] = [];
  #unsalted = 0;
  #cachedKnown = 0;
  #tokens: TokenCheck = {
    checked: 0,
    undercount: 0,
    contradicted: 0,
    unverified: 0,
    sumOutNoDeltas: 0,
    sumStreamNoDeltas: 0,
    emptyText: 0,
    eosOnFinish: 0,
    sumOut: 0,
    sumStream: 0,
    examples: []
  };
  #hung = {count: 0, maxS: null as number | null, example: null as string | null};
  /** Digests of unsalted warmup prompts, and how many measured requests sent one of them unsalted (G14). */
  #warmupPrompts = new Set<string>();
  #replayedWarmups = 0;
  #rows: RequestRow[] = [];

  constructor(point: LoadPoint, config: RunConfig, keepRows: boolean) {
    this.point = point;
    this.#config = config;
    this.#keepRows = keepRows;
    for (const m of REQUEST_METRICS) this.#columns.set(m.id, new Column());
    for (const m of SAMPLE_METRICS) this.#columns.set(m.id, new Column({precision: "f32", firstChunk: 1024}));
  }

  add(d: DerivedRequest): void {
    const r = d.record;
    this.#phases[r.phase]++;
    const rep = this.#repeat(r.repeat);
    if (r.phase === "warmup") {
      rep.warmups++;
      if (r.salt === null && r.promptDigest !== null && this.#warmupPrompts.size < 100_000)
        this.#warmupPrompts.add(r.promptDigest);
      if (d.tEnd !== null) rep.warmupEndMax = Math.max(rep.warmupEndMax, d.tEnd);
      this.#row(d, false);
      return;
    }
    if (r.phase !== "measure") {
      this.#row(d, false);
      return;
    }
    const t = rep.totals;
    t.measured++;
    this.#outcomes[d.outcome] = (this.#outcomes[d.outcome] ?? 0) + 1;
    if (d.timeBase === "request") rep.timeBaseRequest++;
    else this.#window(rep, d);
    if (isOpenLoop(this.point.mode) && d.tSched === null) this.#missingSchedule++;
    if (d.tSched === null) this.#unscheduled++;
    if (r.salt === null && this.#config.workload.salt) this.#unsalted++;
    if (r.salt === null && r.promptDigest !== null && this.#warmupPrompts.has(r.promptDigest)) this.#replayedWarmups++;
    for (const m of REQUEST_METRICS) {
      if (!m.allMeasured) continue;
      const v = m.value(d);
      if (v !== null && Number.isFinite(v)) this.#column(rep, m.id).push(v);
    }
    if (!d.success) {
      this.#example(d);
      this.#row(d, false);
      return;
    }
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
    if (d.deltasKnown) this.#deltasKnown++;
    if (d.hasReasoning) this.#reasoning++;
    if (r.responseText !== undefined && /<think>/i.test(r.responseText)) this.#inlineThink++;
    if (d.cached !== null) this.#cachedKnown++;
    if (d.hung) {
      this.#hung.count++;
      const s = d.hangNs === null ? null : d.hangNs / 1e9;
      if (s !== null && (this.#hung.maxS === null || s > this.#hung.maxS)) this.#hung.maxS = s;
      this.#hung.example ??= r.id;
    }
    this.#tokenCheck(d);
    if (d.cached !== null && d.cached > 0) {
      // A chat template's fixed prefix (BOS, role markers, a default system header) is shared by every
      // request and legitimately cached; only reuse beyond that means the prompts were not unique.
      if (d.cached > templatePrefixAllowance(d.in)) {
        this.#cached++;
        this.#cachedTokens += d.cached;
      } else this.#cachedPrefix++;
    }
    if (d.chunksKnown && isBuffered(d)) {
      this.#fake++;
      if (this.#bursts.length < 1000 && d.tTokN !== null) this.#bursts.push({id: r.id, tNs: d.tTokN});
    }
    this.#lengths(d);
    for (const m of REQUEST_METRICS) {
      if (m.allMeasured) continue;
      const v = m.value(d);
      if (v !== null && Number.isFinite(v)) this.#column(rep, m.id).push(v);
    }
    for (const m of SAMPLE_METRICS) {
      const col = this.#columns.get(m.id)!;
      m.samples(d, (v) => col.push(v));
    }
    this.#row(d, judged.good === true);
  }

  finish(): PointFacts {
    const repeats: RepeatFacts[] = [];
    const pooled = emptyTotals(this.point);
    let windowSum = 0;
    let windowKnown = true;
    let inFlightArea = 0;
    let dispatchSpanS = 0;
    let dispatchIntervals = 0;
    let timeBaseRequest = 0;
    const parts = new Map<string, Samples[]>(REQUEST_METRICS.map((m) => [m.id, []]));
    for (const [repeat, rep] of [...this.#repeats].sort((a, b) => a[0] - b[0])) {
      const t = rep.totals;
      timeBaseRequest += rep.timeBaseRequest;
      if (t.measured === 0) continue;
      if (rep.timeBaseRequest > 0 || !(rep.tEndMax > rep.tStartMin)) {
        t.windowS = null;
        t.windowReason =
          rep.timeBaseRequest > 0
            ? "request start times are not on a shared clock (imported data)"
            : "no measured request has start and end times";
        windowKnown = false;
      } else t.windowS = (rep.tEndMax - rep.tStartMin) / 1e9;
      const starts = rep.starts.values();
      const ends = rep.ends.values();
      const profile = inFlightProfile(starts, ends, rep.tStartMin, rep.tEndMax);
      t.meanInFlight = t.windowS === null ? null : profile.mean;
      const sustained = rep.dispatched >= 2 ? inFlightProfile(starts, ends, rep.dispMin, rep.dispMax).mean : null;
      t.dispatchRate =
        rep.dispatched >= 2 && rep.dispMax > rep.dispMin
          ? ((rep.dispatched - 1) * 1e9) / (rep.dispMax - rep.dispMin)
          : null;
      const medians = new Map<string, number | null>();
      for (const [id, col] of rep.columns) {
        const values = col.values();
        // only several repeats have a spread; the median reorders, so it works on a copy
        if (this.#repeats.size >= 2) medians.set(id, values.length >= 5 ? (median(values.slice()) ?? null) : null);
        parts.get(id)!.push(values);
      }
      repeats.push({
        repeat,
        totals: t,
        peakInFlight: profile.peak,
        sustainedInFlight: sustained,
        interArrivalsS: gapsS(rep.scheds.values()),
        dispatchGapsS: gapsS(rep.calls.values()),
        warmupOverlapsMeasure: rep.warmupEndMax > rep.tStartMin && rep.warmupEndMax !== -Infinity,
        warmups: rep.warmups,
        medians
      });
      for (const k of [
        "measured",
        "successes",
        "good",
        "unjudged",
        "shortOutputs",
        "outputTokens",
        "inputTokens",
        "successesMissingOut",
        "successesMissingIn",
        "tokenEvents",
        "multiTokenEvents",
        "chunksUnknown"
      ] as const)
        pooled[k] += t[k];
      if (t.windowS !== null) {
        windowSum += t.windowS;
        if (t.meanInFlight !== null) inFlightArea += t.meanInFlight * t.windowS;
      }
      if (t.dispatchRate !== null) {
        dispatchSpanS += (rep.dispMax - rep.dispMin) / 1e9;
        dispatchIntervals += rep.dispatched - 1;
      }
    }
    if (windowKnown && windowSum > 0) {
      pooled.windowS = windowSum;
      pooled.meanInFlight = inFlightArea / windowSum;
    } else {
      pooled.windowReason =
        timeBaseRequest > 0
          ? "request start times are not on a shared clock (imported data)"
          : "measurement window unknown";
    }
    pooled.dispatchRate = dispatchSpanS > 0 ? dispatchIntervals / dispatchSpanS : null;
    const columns = new Map<string, Samples>();
    for (const [id, col] of this.#columns) {
      const own = parts.get(id);
      if (own === undefined)
        columns.set(id, col.values()); // sample metrics: pooled as they come
      else columns.set(id, own.length === 1 ? own[0]! : concat(own));
    }
    const known = [...this.#repeats.values()].filter((r) => r.tEndMax > r.tStartMin);
    const spanNs: [number, number] | null =
      known.length > 0
        ? [
            known.reduce((m, r) => Math.min(m, r.tStartMin), Infinity),
            known.reduce((m, r) => Math.max(m, r.tEndMax), -Infinity)
          ]
        : null;
    return {
      point: this.point,
      spanNs,
      openLoop: isOpenLoop(this.point.mode),
      phases: this.#phases,
      totals: pooled,
      repeats,
      outcomes: this.#outcomes,
      failureExamples: [...this.#examples.values()],
      columns,
      usageSources: this.#usage,
      finishReasons: this.#finish,
      outputLength: this.#out,
      inputLength: {
        checked: this.#in.checked,
        outside: this.#in.outside,
        intendedMean: this.#in.checked ? this.#in.intended / this.#in.checked : null,
        actualMean: this.#in.checked ? this.#in.actual / this.#in.checked : null
      },
      cachedRequests: this.#cached,
      cachedTokens: this.#cachedTokens,
      cachedPrefixOnly: this.#cachedPrefix,
      cachedKnown: this.#cachedKnown,
      tokens: this.#tokens,
      hung: this.#hung,
      replayedWarmupPrompts: this.#replayedWarmups,
      missingSchedule: this.#missingSchedule,
      unscheduled: this.#unscheduled,
      timeBaseRequest,
      deltasKnown: this.#deltasKnown,
      reasoningRequests: this.#reasoning,
      inlineThink: this.#inlineThink,
      fakeStreaming: this.#fake,
      bufferedBursts: this.#bursts,
      unsalted: this.#unsalted,
      rows: this.#rows
    };
  }

  #repeat(repeat: number): RepeatAccum {
    let rep = this.#repeats.get(repeat);
    if (!rep) {
      rep = {
        totals: emptyTotals(this.point),
        tStartMin: Infinity,
        tEndMax: -Infinity,
        dispMin: Infinity,
        dispMax: -Infinity,
        dispatched: 0,
        starts: new Column(),
        ends: new Column(),
        scheds: new Column(),
        warmupEndMax: -Infinity,
        warmups: 0,
        calls: new Column(),
        columns: new Map(),
        timeBaseRequest: 0
      };
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

  /** The server's output count against the stream's own (G8), per successful request with a server count. */
  #tokenCheck(d: DerivedRequest): void {
    const c = this.#tokens;
    if (d.out === null || !d.chunksKnown) return;
    const tol = this.#config.gates.token_tolerance;
    c.checked++;
    c.sumOut += d.out;
    c.sumStream += d.streamTokens;
    if (d.emptyText) c.emptyText++;
    if (d.eosOnFinish) c.eosOnFinish++;
    let flagged = false;
    if (d.out < d.nonEmptyEvents * (1 - tol)) {
      c.undercount++;
      flagged = true;
    } else if (d.deltasKnown) {
      if (Math.abs(d.out - d.streamTokens) > tol * d.out) {
        c.contradicted++;
        flagged = true;
      }
    } else if (!d.emptyText) {
      c.sumOutNoDeltas += d.out;
      c.sumStreamNoDeltas += d.streamTokens;
      if (d.out - d.streamTokens > Math.max(tol * d.out, 2)) {
        c.unverified++;
        flagged = true;
      }
    }
    if (flagged && c.examples.length < 3) c.examples.push([d.record.id, d.out, d.streamTokens]);
  }

  #window(rep: RepeatAccum, d: DerivedRequest): void {
    const start = d.tStart;
    const end = d.tEnd ?? d.tTokN ?? d.tDisp ?? start;
    if (start !== null) rep.tStartMin = Math.min(rep.tStartMin, start);
    if (end !== null) rep.tEndMax = Math.max(rep.tEndMax, end);
    if (d.tSched !== null) rep.scheds.push(d.tSched);
    const call = d.tCall ?? d.tDisp;
    if (call !== null) rep.calls.push(call);
    if (d.tDisp !== null) {
      rep.dispatched++;
      rep.dispMin = Math.min(rep.dispMin, d.tDisp);
      rep.dispMax = Math.max(rep.dispMax, d.tDisp);
      rep.starts.push(d.tDisp);
      rep.ends.push(Math.max(d.tDisp, end ?? d.tDisp));
    }
  }

  #lengths(d: DerivedRequest): void {
    const r = d.record;
    const w = this.#config.workload;
    if (w.ignore_eos && r.maxTokens !== null && d.out !== null) {
      this.#out.checked++;
      this.#out.expected = r.maxTokens;
      if (Math.abs(d.out - r.maxTokens) > this.#config.gates.output_tolerance * r.maxTokens) {
        this.#out.outside++;
        if (this.#out.examples.length < 5) this.#out.examples.push(d.out);
      }
    }
    if (r.promptTokensIntended !== null && d.in !== null) {
      this.#in.checked++;
      this.#in.intended += r.promptTokensIntended;
      this.#in.actual += d.in;
      if (Math.abs(d.in - r.promptTokensIntended) > this.#config.gates.input_tolerance * r.promptTokensIntended)
        this.#in.outside++;
    }
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
