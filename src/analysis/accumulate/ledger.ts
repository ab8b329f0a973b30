/**
 * Request accounting: every planned request of every load point, repeat and phase is recorded once, or
 * noted as never sent and why — none lost, duplicated or added. Fed record by record (notes, then the
 * schedule, then the requests), so the same ledger can take several shards of one run.
 */
import {isOpenLoop} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {IndexTable} from "./indexTable.ts";
import {appendAll} from "../util/append.ts";

type PlanPhase = "warmup" | "measure";
const EXAMPLES = 5;
/** A record's scheduled time may differ from phase start + planned offset by rounding only. */
const SCHED_TOLERANCE_NS = 1_000;

interface Book {
  recorded: IndexTable;
  /** Records whose id is not the collector's form for their own index (imports, hand-built, lookalikes). */
  otherForm: IndexTable;
  /** Planned offsets (open loop), from schedule.jsonl. */
  scheduled: IndexTable;
  scheduleDuplicates: number;
  /** The phase's start on the run's clock (phase_start note), the origin of the planned offsets. */
  startNs: number | null;
  /** Requests the collector says it planned (plan_end note) and sent (phase_end note). */
  planEnd: number | null;
  sent: number | null;
  notSent: {from: number; to: number; reason: string}[];
  duplicates: string[];
  duplicateCount: number;
  unscheduled: string[];
  unscheduledCount: number;
  offSchedule: string[];
  offScheduleCount: number;
  firstOffset: number | null;
}

export interface PhaseAccount {
  repeat: number;
  phase: PlanPhase;
  /** Planned requests: the declared count, the schedule's entries (duration-bound open loop), the sent count (duration-bound closed loop), or null when not recorded. */
  planned: number | null;
  plannedFrom: "count" | "schedule" | "phase_end" | "indexes";
  /** The indexes checked: 0 … end − 1. */
  end: number;
  recorded: number;
  notSent: number;
  notSentReasons: string[];
  /** Planned requests with neither a record nor a not-sent note. */
  unaccounted: number;
  unaccountedExamples: number[];
  /** Records beyond the plan (an index the plan never had). */
  unplanned: number;
  unplannedExamples: number[];
  /** Records of an index noted as never sent. */
  contradicted: number;
  /** Schedule entries beyond a declared count (open loop). */
  scheduledBeyondPlan: number;
}

export interface PointAccount {
  point: string;
  phases: PhaseAccount[];
  duplicates: number;
  duplicateExamples: string[];
  /** Open loop: records with no schedule entry, or whose scheduled time is not the schedule's. */
  unscheduled: number;
  unscheduledExamples: string[];
  offSchedule: number;
  offScheduleExamples: string[];
  scheduleDuplicates: number;
  /** plan_end said N planned, the schedule holds a different number. */
  planMismatch: string[];
  /** Collected open loop with requests but no schedule entry at all. */
  scheduleMissing: boolean;
}

export interface LedgerFacts {
  points: Map<string, PointAccount>;
  /** Request ids recorded more than once (any point, case suites included). */
  duplicateIds: number;
  duplicateIdExamples: string[];
  /** The hashed log records a stop (an interrupt note): phases never started are accounted as not sent. */
  stopReason: string | null;
  /** The log's phase_end notes count the requests sent (collectors since bundle v2 account for every request). */
  countsSends: boolean;
}

function phaseOf(p: string): PlanPhase | null {
  return p === "warmup" || p === "measure" ? p : null;
}

/** Collector request ids are `<run>-<point>-r<repeat>-<w|m><index>`: unique keys with one run prefix give unique ids without keeping them. */
function canonicalPrefix(id: string, point: string, repeat: number, phase: PlanPhase, index: number): string | null {
  const tail = `-${point}-r${repeat}-${phase === "warmup" ? "w" : "m"}${index}`;
  return id.endsWith(tail) && id.length > tail.length ? id.slice(0, -tail.length) : null;
}

export class RequestLedger {
  readonly #books = new Map<string, Book>();
  readonly #declared: Map<string, LoadPoint>;
  #prefix: string | null = null;
  readonly #otherIds = new Set<string>();
  #duplicateIds = 0;
  readonly #duplicateIdExamples: string[] = [];
  #stopReason: string | null = null;
  #countsSends = false;

  constructor(points: readonly LoadPoint[]) {
    this.#declared = new Map(points.map((p) => [p.id, p]));
  }

  #book(point: string, repeat: number, phase: PlanPhase): Book {
    const key = `${point}\u0000${repeat}\u0000${phase}`;
    let b = this.#books.get(key);
    if (b === undefined) {
      b = {
        recorded: new IndexTable(false),
        otherForm: new IndexTable(false),
        scheduled: new IndexTable(true),
        scheduleDuplicates: 0,
        startNs: null,
        planEnd: null,
        sent: null,
        notSent: [],
        duplicates: [],
        duplicateCount: 0,
        unscheduled: [],
        unscheduledCount: 0,
        offSchedule: [],
        offScheduleCount: 0,
        firstOffset: null
      };
      this.#books.set(key, b);
    }
    return b;
  }

  /** A lifecycle note of the hashed client log (phase_start, plan_end, not_sent, phase_end, interrupt). */
  note(n: {
    event: string;
    point: string | null;
    repeat: number | null;
    tNs: number;
    detail: Record<string, unknown>;
  }): void {
    if (n.event === "interrupt" || n.event === "write_error") {
      const d = n.detail;
      this.#stopReason ??=
        typeof d.reason === "string" ? d.reason : typeof d.signal === "string" ? d.signal : "interrupted";
      return;
    }
    const phase = phaseOf(String(n.detail.phase));
    if (n.point === null || n.repeat === null || phase === null) return;
    const b = this.#book(n.point, n.repeat, phase);
    const num = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null);
    if (n.event === "phase_start") b.startNs ??= n.tNs;
    else if (n.event === "plan_end") b.planEnd = num(n.detail.scheduled);
    else if (n.event === "phase_end") {
      b.sent = num(n.detail.sent);
      if (b.sent !== null) this.#countsSends = true;
    } else if (n.event === "not_sent") {
      const from = num(n.detail.from);
      const to = num(n.detail.to);
      if (from !== null && to !== null && to >= from)
        b.notSent.push({from, to, reason: typeof n.detail.reason === "string" ? n.detail.reason : "not recorded"});
    }
  }

  /** One planned send of schedule.jsonl. */
  schedule(r: {point: string; repeat: number; phase: string; index: number; offsetNs: number}): void {
    const phase = phaseOf(r.phase);
    if (phase === null) return;
    const b = this.#book(r.point, r.repeat, phase);
    if (b.scheduled.add(r.index, r.offsetNs) > 1) b.scheduleDuplicates++;
  }

  /** One request record of a load point (not of a case suite); `where` locates it (file:line). */
  request(
    r: {id: string; point: string; repeat: number; phase: string; index: number; tSchedNs: number | null},
    where: string
  ): void {
    const phase = phaseOf(r.phase);
    if (phase === null) return this.requestId(r.id, where);
    const b = this.#book(r.point, r.repeat, phase);
    const label = `${r.phase} #${r.index} of repeat ${r.repeat} (${where})`;
    if (b.recorded.add(r.index) > 1) {
      b.duplicateCount++;
      if (b.duplicates.length < EXAMPLES) b.duplicates.push(label);
    }
    const prefix = canonicalPrefix(r.id, r.point, r.repeat, phase, r.index);
    if (prefix !== null && (this.#prefix ?? prefix) === prefix) this.#prefix = prefix;
    else {
      b.otherForm.add(r.index);
      this.requestId(r.id, where);
    }
    const declared = this.#declared.get(r.point);
    if (declared === undefined || !isOpenLoop(declared.mode) || b.scheduled.distinct === 0) return;
    const offset = b.scheduled.value(r.index);
    if (Number.isNaN(offset)) {
      b.unscheduledCount++;
      if (b.unscheduled.length < EXAMPLES) b.unscheduled.push(label);
      return;
    }
    if (r.tSchedNs === null) return; // G5 reports open-loop records without a scheduled time
    const start = b.startNs ?? (b.firstOffset ??= r.tSchedNs - offset);
    if (Math.abs(r.tSchedNs - (start + offset)) > SCHED_TOLERANCE_NS) {
      b.offScheduleCount++;
      if (b.offSchedule.length < EXAMPLES)
        b.offSchedule.push(
          `${label}: scheduled at ${(r.tSchedNs / 1e9).toFixed(6)} s, the schedule says ${((start + offset) / 1e9).toFixed(6)} s`
        );
    }
  }

  /** A request id outside the collector's canonical form (imports, case suites): kept to find repeats. */
  requestId(id: string, where: string): void {
    if (!this.#otherIds.has(id)) {
      this.#otherIds.add(id);
      return;
    }
    this.#duplicateIds++;
    if (this.#duplicateIdExamples.length < EXAMPLES) this.#duplicateIdExamples.push(`${id} (${where})`);
  }

  finish(): LedgerFacts {
    this.#lookalikes();
    const points = new Map<string, PointAccount>();
    for (const p of this.#declared.values()) points.set(p.id, this.#pointAccount(p));
    return {
      points,
      duplicateIds: this.#duplicateIds,
      duplicateIdExamples: this.#duplicateIdExamples,
      stopReason: this.#stopReason,
      countsSends: this.#countsSends
    };
  }

  /** An id outside the canonical form of its own record may still be another record's canonical id. */
  #lookalikes(): void {
    if (this.#prefix === null) return;
    const head = `${this.#prefix}-`;
    for (const id of this.#otherIds) {
      if (!id.startsWith(head)) continue;
      const m = /^(.+)-r(\d+)-([wm])(\d+)$/.exec(id.slice(head.length));
      if (m === null) continue;
      const b = this.#books.get(`${m[1]}\u0000${Number(m[2])}\u0000${m[3] === "w" ? "warmup" : "measure"}`);
      const index = Number(m[4]);
      // a collision only when that index has a record with the collector's form of id
      if (b !== undefined && b.recorded.count(index) > b.otherForm.count(index)) {
        this.#duplicateIds++;
        if (this.#duplicateIdExamples.length < EXAMPLES)
          this.#duplicateIdExamples.push(
            `${id} (also the id of ${m[1]} ${m[3] === "w" ? "warmup" : "measure"} #${m[4]})`
          );
      }
    }
  }

  #pointAccount(p: LoadPoint): PointAccount {
    const acc: PointAccount = {
      point: p.id,
      phases: [],
      duplicates: 0,
      duplicateExamples: [],
      unscheduled: 0,
      unscheduledExamples: [],
      offSchedule: 0,
      offScheduleExamples: [],
      scheduleDuplicates: 0,
      planMismatch: [],
      scheduleMissing: false
    };
    const open = isOpenLoop(p.mode);
    let scheduled = 0;
    let recordedAll = 0;
    for (let repeat = 0; repeat < p.repeats; repeat++)
      for (const phase of ["warmup", "measure"] as const) {
        const count = phase === "warmup" ? p.warmup : p.requests;
        const key = `${p.id}\u0000${repeat}\u0000${phase}`;
        const b = this.#books.get(key);
        if (count === 0 && (b === undefined || b.recorded.distinct === 0)) continue;
        const book = b ?? this.#book(p.id, repeat, phase);
        scheduled += book.scheduled.distinct;
        recordedAll += book.recorded.distinct;
        acc.duplicates += book.duplicateCount;
        appendAll(acc.duplicateExamples, book.duplicates);
        acc.unscheduled += book.unscheduledCount;
        appendAll(acc.unscheduledExamples, book.unscheduled);
        acc.offSchedule += book.offScheduleCount;
        appendAll(acc.offScheduleExamples, book.offSchedule);
        acc.scheduleDuplicates += book.scheduleDuplicates;
        if (open && book.planEnd !== null && book.planEnd !== book.scheduled.distinct)
          acc.planMismatch.push(
            `repeat ${repeat} ${phase}: the plan_end note says ${book.planEnd} planned, schedule.jsonl holds ${book.scheduled.distinct}`
          );
        acc.phases.push(this.#phaseAccount(book, repeat, phase, count, open));
      }
    acc.scheduleMissing = open && scheduled === 0 && recordedAll > 0;
    acc.duplicateExamples.splice(EXAMPLES);
    acc.unscheduledExamples.splice(EXAMPLES);
    acc.offScheduleExamples.splice(EXAMPLES);
    return acc;
  }

  #phaseAccount(b: Book, repeat: number, phase: PlanPhase, count: number | null, open: boolean): PhaseAccount {
    const neverStarted = b.startNs === null && b.recorded.distinct === 0 && this.#stopReason !== null;
    let planned: number | null;
    let plannedFrom: PhaseAccount["plannedFrom"];
    if (count !== null) [planned, plannedFrom] = [count, "count"];
    else if (open && b.scheduled.distinct > 0) [planned, plannedFrom] = [b.scheduled.distinct, "schedule"];
    else if (!open && b.sent !== null)
      [planned, plannedFrom] = [b.sent + coveredCount(b.notSent, Infinity), "phase_end"];
    else [planned, plannedFrom] = [null, "indexes"];
    const notSent = merged(
      neverStarted && planned !== null
        ? [{from: 0, to: planned - 1, reason: `never started: ${this.#stopReason}`}]
        : b.notSent
    );
    // duration-bound open loop: the planned indexes are the schedule's (dense from 0 when intact)
    const end = planned ?? maxIndex(b.recorded) + 1;
    const cover = (i: number): number => {
      for (const r of notSent) if (i >= r.from && i <= r.to) return r.to + 1;
      return i;
    };
    let recordedIn = 0;
    let contradicted = 0;
    let unplanned = 0;
    const unplannedExamples: number[] = [];
    for (const i of b.recorded.indexes()) {
      if (i >= end || (plannedFrom === "schedule" && b.scheduled.count(i) === 0)) {
        unplanned++;
        if (unplannedExamples.length < EXAMPLES) unplannedExamples.push(i);
      } else if (cover(i) > i) contradicted++;
      else recordedIn++;
    }
    const covered = coveredCount(notSent, end);
    let unaccounted = Math.max(0, end - covered - recordedIn);
    let unaccountedExamples: number[] = [];
    if (plannedFrom === "schedule") {
      unaccounted = 0;
      for (const i of b.scheduled.indexes())
        if (b.recorded.count(i) === 0 && cover(i) === i && unaccounted++ < EXAMPLES) unaccountedExamples.push(i);
    } else unaccountedExamples = b.recorded.firstAbsent(end, cover, EXAMPLES);
    let beyondPlan = 0;
    if (open && plannedFrom === "count") for (const i of b.scheduled.indexes()) if (i >= end) beyondPlan++;
    return {
      repeat,
      phase,
      planned,
      plannedFrom,
      end,
      recorded: b.recorded.distinct,
      notSent: covered,
      notSentReasons: [...new Set(notSent.map((r) => r.reason))],
      unaccounted,
      unaccountedExamples,
      unplanned,
      scheduledBeyondPlan: beyondPlan,
      unplannedExamples,
      contradicted
    };
  }
}

function maxIndex(t: IndexTable): number {
  let m = -1;
  for (const i of t.indexes()) m = i;
  return m;
}

/** Not-sent ranges sorted and merged (overlaps counted once). */
function merged(ranges: readonly {from: number; to: number; reason: string}[]) {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: {from: number; to: number; reason: string}[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last !== undefined && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({...r});
  }
  return out;
}

/** Indexes below `end` that the (merged) ranges cover. */
function coveredCount(ranges: readonly {from: number; to: number}[], end: number): number {
  let n = 0;
  for (const r of merged(ranges.map((x) => ({...x, reason: ""})))) n += Math.max(0, Math.min(r.to + 1, end) - r.from);
  return n;
}
