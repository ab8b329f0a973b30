/** One shard's phase of one load point in the request ledger, and how it is accounted for. */
import {globalOrdinal, type Slice} from "../schema/shard.ts";
import {IndexTable} from "./indexTable.ts";

export type PlanPhase = "warmup" | "measure";
export const EXAMPLES = 5;

/**
 * One phase of one shard. Its tables count the shard's own ordinals 0, 1, … (shard k of n owns the plan's
 * ordinals k, k + n, …), so a slice is accounted for exactly as a whole run is; examples name global ordinals.
 */
export interface Book {
  slice: Slice;
  /** Records of an ordinal another shard owns, as global ordinals (examples) and a count. */
  foreign: number[];
  foreignCount: number;
  recorded: IndexTable;
  /** Records whose id is not the collector's form for their own index (imports, hand-built, lookalikes). */
  otherForm: IndexTable;
  /** Planned offsets (open loop), from schedule.jsonl. */
  scheduled: IndexTable;
  scheduleDuplicates: number;
  /** Schedule entries of ordinals another shard owns. */
  scheduleForeign: number;
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

/** An empty book of one shard's phase. */
export function newBook(slice: Slice): Book {
  return {
    slice,
    foreign: [],
    foreignCount: 0,
    recorded: new IndexTable(false),
    otherForm: new IndexTable(false),
    scheduled: new IndexTable(true),
    scheduleDuplicates: 0,
    scheduleForeign: 0,
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
}

export interface PhaseAccount {
  /** The shard of a sharded bundle (null: the whole run). Counts below are of its own ordinals. */
  shard: number | null;
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

/**
 * One shard's phase accounted for: planned (declared count, schedule, or sends), recorded, noted as never
 * sent, unaccounted for, beyond the plan; `stopReason` accounts a phase a stop kept from starting.
 */
export function phaseAccount(
  b: Book,
  at: {repeat: number; phase: PlanPhase; count: number | null; open: boolean},
  stopReason: string | null,
  sharded: boolean
): PhaseAccount {
  const {repeat, phase, count, open} = at;
  const neverStarted = b.startNs === null && b.recorded.distinct === 0 && stopReason !== null;
  let planned: number | null;
  let plannedFrom: PhaseAccount["plannedFrom"];
  if (count !== null) [planned, plannedFrom] = [count, "count"];
  else if (open && b.scheduled.distinct > 0) [planned, plannedFrom] = [b.scheduled.distinct, "schedule"];
  else if (!open && b.sent !== null) [planned, plannedFrom] = [b.sent + coveredCount(b.notSent, Infinity), "phase_end"];
  else [planned, plannedFrom] = [null, "indexes"];
  const notSent = merged(
    neverStarted && planned !== null ? [{from: 0, to: planned - 1, reason: `never started: ${stopReason}`}] : b.notSent
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
  const global = (js: number[]) => js.map((j) => globalOrdinal(b.slice, j));
  return {
    shard: sharded ? b.slice.index : null,
    repeat,
    phase,
    planned,
    plannedFrom,
    end,
    recorded: b.recorded.distinct,
    notSent: covered,
    notSentReasons: [...new Set(notSent.map((r) => r.reason))],
    unaccounted,
    unaccountedExamples: global(unaccountedExamples),
    unplanned: unplanned + b.foreignCount,
    scheduledBeyondPlan: beyondPlan,
    unplannedExamples: [...global(unplannedExamples), ...b.foreign].slice(0, EXAMPLES),
    contradicted
  };
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
export function coveredCount(ranges: readonly {from: number; to: number}[], end: number): number {
  let n = 0;
  for (const r of merged(ranges.map((x) => ({...x, reason: ""})))) n += Math.max(0, Math.min(r.to + 1, end) - r.from);
  return n;
}
