/**
 * Request accounting: every planned request of every load point, repeat and phase is recorded once, or
 * noted as never sent and why — none lost, duplicated or added. Fed record by record (notes, then the
 * schedule, then the requests), so the same ledger can take several shards of one run.
 */
import {isOpenLoop} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {localOrdinal, ownCount, ownRange, owns, WHOLE, type Slice} from "../schema/shard.ts";
import {EXAMPLES, newBook, phaseAccount, type Book, type PhaseAccount, type PlanPhase} from "./book.ts";
import {appendAll} from "../util/append.ts";

export type {PhaseAccount} from "./book.ts";
/** A record's scheduled time may differ from phase start + planned offset by rounding only. */
const SCHED_TOLERANCE_NS = 1_000;

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
  /** Records (or schedule entries) naming a shard the bundle does not have. */
  unknownShard: number;
}

export interface LedgerFacts {
  points: Map<string, PointAccount>;
  /** Request ids recorded more than once (any point, case suites included). */
  duplicateIds: number;
  duplicateIdExamples: string[];
  /** Load points with a record whose id another record also carries (case-suite records name none). */
  duplicateIdPoints: Set<string>;
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
  /** Ids outside the canonical form, each with where it was first recorded (file:line) and its load point. */
  readonly #otherIds = new Map<string, {where: string; point: string | null}>();
  #duplicateIds = 0;
  readonly #duplicateIdExamples: string[] = [];
  readonly #duplicateIdPoints = new Set<string>();
  #stopReason: string | null = null;
  #countsSends = false;
  readonly #slices: ReadonlyMap<number, Slice>;
  /** The shard of a record that names none: the bundle's only slice (a shard's own bundle, a whole run). */
  readonly #defaultShard: number | null;
  readonly #unknownShard = new Map<string, number>();

  /** `slices`: what the bundle accounts for (schema/shard.ts slicesOf): the whole run unless sharded. */
  constructor(points: readonly LoadPoint[], slices: readonly Slice[] = [WHOLE]) {
    this.#declared = new Map(points.map((p) => [p.id, p]));
    this.#slices = new Map(slices.map((s) => [s.index, s]));
    this.#defaultShard = slices.length === 1 ? slices[0]!.index : null;
  }

  get #sharded(): boolean {
    return this.#slices.size > 1 || (this.#slices.get(this.#defaultShard ?? -1)?.count ?? 1) > 1;
  }

  /** The book of a record's shard, or null (counted against its point) when the bundle has no such shard. */
  #bookOf(shard: number | undefined, point: string, repeat: number, phase: PlanPhase): Book | null {
    const k = shard ?? this.#defaultShard;
    if (k === null || !this.#slices.has(k)) {
      this.#unknownShard.set(point, (this.#unknownShard.get(point) ?? 0) + 1);
      return null;
    }
    return this.#book(k, point, repeat, phase);
  }

  #book(shard: number, point: string, repeat: number, phase: PlanPhase): Book {
    const key = `${shard}\u0000${point}\u0000${repeat}\u0000${phase}`;
    let b = this.#books.get(key);
    if (b === undefined) {
      b = newBook(this.#slices.get(shard)!);
      this.#books.set(key, b);
    }
    return b;
  }

  /** A lifecycle note of the hashed client log (phase_start, plan_end, not_sent, phase_end, interrupt). */
  note(n: {
    shard?: number | undefined;
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
    const b = this.#bookOf(n.shard, n.point, n.repeat, phase);
    if (b === null) return;
    const num = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null);
    if (n.event === "phase_start") b.startNs ??= n.tNs;
    else if (n.event === "plan_end") b.planEnd = num(n.detail.scheduled);
    else if (n.event === "phase_end") {
      b.sent = num(n.detail.sent);
      if (b.sent !== null) this.#countsSends = true;
    } else if (n.event === "not_sent") {
      const from = num(n.detail.from);
      const to = num(n.detail.to);
      // global ordinals from … to; the shard's own among them
      const range = from === null || to === null || to < from ? null : ownRange(b.slice, from, to);
      if (range !== null)
        b.notSent.push({...range, reason: typeof n.detail.reason === "string" ? n.detail.reason : "not recorded"});
    }
  }

  /** One planned send of schedule.jsonl. */
  schedule(r: {
    shard?: number | undefined;
    point: string;
    repeat: number;
    phase: string;
    index: number;
    offsetNs: number;
  }): void {
    const phase = phaseOf(r.phase);
    if (phase === null) return;
    const b = this.#bookOf(r.shard, r.point, r.repeat, phase);
    if (b === null) return;
    // another shard's ordinal in this shard's schedule is planned beyond this shard's plan
    if (!owns(b.slice, r.index)) return void b.scheduleForeign++;
    if (b.scheduled.add(localOrdinal(b.slice, r.index), r.offsetNs) > 1) b.scheduleDuplicates++;
  }

  /** One request record of a load point (not of a case suite); `where` locates it (file:line). */
  request(
    r: {
      shard?: number | undefined;
      id: string;
      point: string;
      repeat: number;
      phase: string;
      index: number;
      tSchedNs: number | null;
    },
    where: string
  ): void {
    const phase = phaseOf(r.phase);
    if (phase === null) return this.requestId(r.id, where, r.point);
    const b = this.#bookOf(r.shard, r.point, r.repeat, phase);
    if (b === null) return this.requestId(r.id, where, r.point);
    if (!owns(b.slice, r.index)) {
      b.foreignCount++;
      if (b.foreign.length < EXAMPLES) b.foreign.push(r.index);
      return this.requestId(r.id, where, r.point);
    }
    const local = localOrdinal(b.slice, r.index);
    const label = `${r.phase} #${r.index} of repeat ${r.repeat}${this.#sharded ? ` (shard ${b.slice.index})` : ""} (${where})`;
    if (b.recorded.add(local) > 1) {
      b.duplicateCount++;
      if (b.duplicates.length < EXAMPLES) b.duplicates.push(label);
    }
    const prefix = canonicalPrefix(r.id, r.point, r.repeat, phase, r.index);
    if (prefix !== null && (this.#prefix ?? prefix) === prefix) this.#prefix = prefix;
    else {
      b.otherForm.add(local);
      this.requestId(r.id, where, r.point);
    }
    const declared = this.#declared.get(r.point);
    if (declared === undefined || !isOpenLoop(declared.mode) || b.scheduled.distinct === 0) return;
    const offset = b.scheduled.value(local);
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

  /**
   * A request id outside the collector's canonical form (imports, case suites): kept to find repeats.
   * `point`: the load point of the record, null for a case-suite record.
   */
  requestId(id: string, where: string, point: string | null): void {
    const first = this.#otherIds.get(id);
    if (first === undefined) {
      this.#otherIds.set(id, {where, point});
      return;
    }
    this.#duplicateId(`${id} (${where})`, [first.point, point]);
  }

  #duplicateId(example: string, points: readonly (string | null)[]): void {
    this.#duplicateIds++;
    if (this.#duplicateIdExamples.length < EXAMPLES) this.#duplicateIdExamples.push(example);
    for (const p of points) if (p !== null) this.#duplicateIdPoints.add(p);
  }

  finish(): LedgerFacts {
    this.#lookalikes();
    const points = new Map<string, PointAccount>();
    for (const p of this.#declared.values()) points.set(p.id, this.#pointAccount(p));
    return {
      points,
      duplicateIds: this.#duplicateIds,
      duplicateIdExamples: this.#duplicateIdExamples,
      duplicateIdPoints: this.#duplicateIdPoints,
      stopReason: this.#stopReason,
      countsSends: this.#countsSends
    };
  }

  /** An id outside the canonical form of its own record may still be another record's canonical id. */
  #lookalikes(): void {
    if (this.#prefix === null) return;
    const head = `${this.#prefix}-`;
    for (const [id, {where, point}] of this.#otherIds) {
      if (!id.startsWith(head)) continue;
      const m = /^(.+)-r(\d+)-([wm])(\d+)$/.exec(id.slice(head.length));
      if (m === null) continue;
      const index = Number(m[4]);
      const slice = [...this.#slices.values()].find((x) => owns(x, index));
      if (slice === undefined) continue;
      const key = `${slice.index}\u0000${m[1]}\u0000${Number(m[2])}\u0000${m[3] === "w" ? "warmup" : "measure"}`;
      const b = this.#books.get(key);
      const local = localOrdinal(slice, index);
      // a collision only when that index has a record with the collector's form of id
      if (b !== undefined && b.recorded.count(local) > b.otherForm.count(local))
        this.#duplicateId(`${id} (${where}; also the id of ${m[1]} ${m[3] === "w" ? "warmup" : "measure"} #${m[4]})`, [
          point,
          m[1]!
        ]);
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
      scheduleMissing: false,
      unknownShard: this.#unknownShard.get(p.id) ?? 0
    };
    const open = isOpenLoop(p.mode);
    let scheduled = 0;
    let recordedAll = 0;
    for (const slice of this.#slices.values())
      for (let repeat = 0; repeat < p.repeats; repeat++)
        for (const phase of ["warmup", "measure"] as const) {
          const declared = phase === "warmup" ? p.warmup : p.requests;
          const count = declared === null ? null : ownCount(slice, declared);
          const b = this.#books.get(`${slice.index}\u0000${p.id}\u0000${repeat}\u0000${phase}`);
          if (count === 0 && (b === undefined || b.recorded.distinct + b.foreignCount === 0)) continue;
          const book = b ?? this.#book(slice.index, p.id, repeat, phase);
          scheduled += book.scheduled.distinct;
          recordedAll += book.recorded.distinct;
          this.#fold(acc, book, repeat, phase, count, open);
        }
    acc.scheduleMissing = open && scheduled === 0 && recordedAll > 0;
    acc.duplicateExamples.splice(EXAMPLES);
    acc.unscheduledExamples.splice(EXAMPLES);
    acc.offScheduleExamples.splice(EXAMPLES);
    return acc;
  }

  /** Adds one shard's phase to its point's account. */
  #fold(acc: PointAccount, book: Book, repeat: number, phase: PlanPhase, count: number | null, open: boolean): void {
    const where = `${this.#sharded ? `shard ${book.slice.index} ` : ""}repeat ${repeat} ${phase}`;
    acc.duplicates += book.duplicateCount;
    appendAll(acc.duplicateExamples, book.duplicates);
    acc.unscheduled += book.unscheduledCount;
    appendAll(acc.unscheduledExamples, book.unscheduled);
    acc.offSchedule += book.offScheduleCount;
    appendAll(acc.offScheduleExamples, book.offSchedule);
    acc.scheduleDuplicates += book.scheduleDuplicates;
    if (book.scheduleForeign > 0)
      acc.planMismatch.push(`${where}: ${book.scheduleForeign} schedule entr(ies) of ordinals another shard owns`);
    if (open && book.planEnd !== null && book.planEnd !== book.scheduled.distinct)
      acc.planMismatch.push(
        `${where}: the plan_end note says ${book.planEnd} planned, schedule.jsonl holds ${book.scheduled.distinct}`
      );
    acc.phases.push(phaseAccount(book, {repeat, phase, count, open}, this.#stopReason, this.#sharded));
  }
}
