import {caseMeta, headlineTier, sortTiers, type CaseMeta} from "../schema/cases.ts";
import type {QualityRecord} from "../schema/records.ts";
import {QUALITY_VERSION} from "../schema/versions.ts";
import {appendAll} from "../util/append.ts";

/**
 * The quality summary of a bundle, from quality.jsonl alone. Rules (reading discipline):
 * - "not evaluated" is never a fail: it is counted apart and left out of every denominator;
 * - every rate carries its sample count;
 * - records of different quality versions are never combined or compared: one group per version;
 * - verdicts scored by this analyzer from raw answers and verdicts frozen in the bundle at capture are
 *   never combined either: one group per version and origin, the frozen one labelled `frozen`;
 * - idle and under-load records (point null vs a load point id) are separate conditions;
 * - a tiered case is read at its stated tier, with every tier beside it.
 */
export interface Rate {
  pass: number;
  fail: number;
  not_evaluated: number;
  /** pass + fail: the denominator. */
  n: number;
  /** pass / n; null when nothing was scored (all not evaluated). */
  rate: number | null;
}

export interface TierRate {
  tier: string;
  rate: Rate;
}

/** One scorer of one case under one condition (idle, or under load at a point). */
export interface ScorerCondition {
  scorer: string;
  /** null = idle (sent one at a time); a load point id = scored under that load. */
  point: string | null;
  /** Over every item of the condition. */
  rate: Rate;
  tiers: TierRate[];
  /** The stated tier of a tiered case (heaviest tier, last round), null when the case reads all items. */
  headlineTier: string | null;
  /** The rate at the stated tier (equals `rate` when headlineTier is null). */
  headline: Rate;
}

export interface ConstraintRate {
  kind: string;
  point: string | null;
  strict: Rate;
  loose: Rate;
}

export interface PromptRate {
  itemId: string;
  point: string | null;
  strict: Rate;
  loose: Rate;
}

export interface NeedleCell {
  length: string;
  depth: number;
  rate: Rate;
}

export interface NeedleTable {
  point: string | null;
  lengths: string[];
  depths: number[];
  cells: NeedleCell[];
  byDepth: {depth: number; rate: Rate}[];
  byLength: TierRate[];
  overall: Rate;
}

/** One GSM8K reading over the items of one condition. */
export interface Gsm8kReadingTotals {
  correct: number;
  /** correct over every item (truncated, failed and unextractable answers are wrong); null when none. */
  accuracy: number | null;
  /** Share of items with a complete response from which this reading extracted an answer; null when the records do not say. */
  coverage: number | null;
}

export interface Gsm8kTotals {
  point: string | null;
  n: number;
  /**
   * What strict and flexible mean. "lm-eval": lm-evaluation-harness's strict-match and flexible-extract
   * (records written with gsm8k_lenient records beside them). "v1": the readings of QUALITY_VERSION 1
   * records (strict = the number after the last `####`, else the last `\boxed{}`; flexible = the last
   * number), which live on as the two halves of the lenient reading.
   */
  definition: "lm-eval" | "v1";
  strict: Gsm8kReadingTotals;
  flexible: Gsm8kReadingTotals;
  /** null under definition "v1": no lenient record was written then. */
  lenient: Gsm8kReadingTotals | null;
}

export interface ToolTotals {
  point: string | null;
  /** Tool calls returned, valid against their declared schema, invalid. */
  calls: number;
  valid: number;
  invalid: number;
}

export interface CaseQuality {
  caseId: string;
  meta: CaseMeta | null;
  scorers: ScorerCondition[];
  constraints: ConstraintRate[];
  prompts: PromptRate[];
  needle: NeedleTable[];
  gsm8k: Gsm8kTotals[];
  tools: ToolTotals[];
}

export interface QualityGroup {
  qualityVersion: string;
  /** False for records scored under an older (or newer) definition than this analyzer's QUALITY_VERSION. */
  current: boolean;
  /**
   * True: verdicts frozen in quality.jsonl at capture by an older collector, read as recorded (their
   * qualityVersion says which scorers wrote them). False: scored by this analyzer from the raw answers.
   */
  frozen: boolean;
  records: number;
  cases: CaseQuality[];
}

export interface QualitySummary {
  versions: string[];
  groups: QualityGroup[];
}

export function emptyRate(): Rate {
  return {pass: 0, fail: 0, not_evaluated: 0, n: 0, rate: null};
}

function add(rate: Rate, verdict: QualityRecord["verdict"] | boolean): void {
  if (verdict === "pass" || verdict === true) rate.pass++;
  else if (verdict === "fail" || verdict === false) rate.fail++;
  else rate.not_evaluated++;
  rate.n = rate.pass + rate.fail;
  rate.rate = rate.n > 0 ? rate.pass / rate.n : null;
}

/** Groups by a string key, keeping first-seen order. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/** Idle first, then load points in order of appearance. */
const points = (records: readonly QualityRecord[]): (string | null)[] => {
  const seen = [...new Set(records.map((r) => r.point))];
  return [...seen.filter((p) => p === null), ...seen.filter((p) => p !== null)];
};

function rateOf(records: readonly QualityRecord[]): Rate {
  const r = emptyRate();
  for (const q of records) add(r, q.verdict);
  return r;
}

function scorerConditions(caseId: string, records: readonly QualityRecord[]): ScorerCondition[] {
  const out: ScorerCondition[] = [];
  for (const [scorer, list] of groupBy(records, (r) => r.scorer)) {
    for (const point of points(list)) {
      const mine = list.filter((r) => r.point === point);
      const tierMap = groupBy(
        mine.filter((r) => r.tier !== null),
        (r) => r.tier!
      );
      const tiers = sortTiers(caseId, [...tierMap.keys()]).map((tier) => ({tier, rate: rateOf(tierMap.get(tier)!)}));
      const head = headlineTier(caseId, [...tierMap.keys()]);
      const rate = rateOf(mine);
      out.push({
        scorer,
        point,
        rate,
        tiers,
        headlineTier: head,
        headline: head === null ? rate : tiers.find((t) => t.tier === head)!.rate
      });
    }
  }
  return out;
}

interface ConstraintDetail {
  index: number;
  kind: string;
  pass: boolean;
}

function constraintsOf(r: QualityRecord): ConstraintDetail[] {
  const c = r.details.constraints;
  return Array.isArray(c)
    ? c.filter(
        (x): x is ConstraintDetail =>
          x !== null && typeof x === "object" && typeof x.kind === "string" && typeof x.pass === "boolean"
      )
    : [];
}

function instructionTables(records: readonly QualityRecord[]): {constraints: ConstraintRate[]; prompts: PromptRate[]} {
  const constraints: ConstraintRate[] = [];
  const prompts: PromptRate[] = [];
  const relevant = records.filter((r) => r.scorer === "instructions_strict" || r.scorer === "instructions_loose");
  for (const point of points(relevant)) {
    const mine = relevant.filter((r) => r.point === point);
    const byKind = new Map<string, ConstraintRate>();
    const byPrompt = new Map<string, PromptRate>();
    for (const r of mine) {
      const mode = r.scorer === "instructions_strict" ? "strict" : "loose";
      const p =
        byPrompt.get(r.itemId) ??
        byPrompt.set(r.itemId, {itemId: r.itemId, point, strict: emptyRate(), loose: emptyRate()}).get(r.itemId)!;
      add(p[mode], r.verdict);
      for (const c of constraintsOf(r)) {
        const k =
          byKind.get(c.kind) ??
          byKind.set(c.kind, {kind: c.kind, point, strict: emptyRate(), loose: emptyRate()}).get(c.kind)!;
        add(k[mode], r.verdict === "not_evaluated" ? "not_evaluated" : c.pass);
      }
    }
    appendAll(
      constraints,
      [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind))
    );
    appendAll(prompts, byPrompt.values());
  }
  return {constraints, prompts};
}

function needleTables(caseId: string, records: readonly QualityRecord[]): NeedleTable[] {
  const relevant = records.filter((r) => r.scorer === "needle" && typeof r.details.depth === "number");
  return points(relevant).map((point) => {
    const mine = relevant.filter((r) => r.point === point);
    const lengths = sortTiers(caseId, [...new Set(mine.map((r) => r.tier ?? "?"))]);
    const depths = [...new Set(mine.map((r) => r.details.depth as number))].sort((a, b) => a - b);
    const cells: NeedleCell[] = [];
    for (const length of lengths)
      for (const depth of depths) {
        const cell = mine.filter((r) => (r.tier ?? "?") === length && r.details.depth === depth);
        if (cell.length > 0) cells.push({length, depth, rate: rateOf(cell)});
      }
    return {
      point,
      lengths,
      depths,
      cells,
      byDepth: depths.map((depth) => ({depth, rate: rateOf(mine.filter((r) => r.details.depth === depth))})),
      byLength: lengths.map((tier) => ({tier, rate: rateOf(mine.filter((r) => (r.tier ?? "?") === tier))})),
      overall: rateOf(mine)
    };
  });
}

/**
 * Whether a GSM8K record counts in its reading's coverage; undefined when it does not say. QUALITY_VERSION 1
 * records carry one `scorable` flag, the same on both records: whether the flexible reading found a number
 * in a complete response, so it is the flexible reading's coverage and no one else's.
 */
function extractable(r: QualityRecord): boolean | undefined {
  if (typeof r.details.extractable === "boolean") return r.details.extractable;
  if (r.scorer === "gsm8k_flexible" && typeof r.details.scorable === "boolean") return r.details.scorable;
  return undefined;
}

function readingTotals(records: readonly QualityRecord[]): Gsm8kReadingTotals {
  const n = records.length;
  const correct = records.filter((r) => r.verdict === "pass").length;
  const flags = records.map(extractable);
  const known = n > 0 && flags.every((f) => f !== undefined);
  return {
    correct,
    accuracy: n > 0 ? correct / n : null,
    coverage: known ? flags.filter((f) => f === true).length / n : null
  };
}

function gsm8kTotals(records: readonly QualityRecord[]): Gsm8kTotals[] {
  const scored = records.filter((r) => r.verdict !== "not_evaluated");
  const of = (mode: string, point: string | null) =>
    scored.filter((r) => r.scorer === `gsm8k_${mode}` && r.point === point);
  const gsm = records.filter((r) => /^gsm8k_(strict|flexible|lenient)$/.test(r.scorer));
  return points(gsm).map((point) => {
    // QUALITY_VERSION 1 scored the old readings under the names strict and flexible (and no lenient)
    const v1 = gsm.some((r) => r.point === point && r.qualityVersion === "1");
    return {
      point,
      n: of("strict", point).length,
      definition: v1 ? "v1" : "lm-eval",
      strict: readingTotals(of("strict", point)),
      flexible: readingTotals(of("flexible", point)),
      lenient: v1 ? null : readingTotals(of("lenient", point))
    };
  });
}

function toolTotals(records: readonly QualityRecord[]): ToolTotals[] {
  const relevant = records.filter((r) => r.scorer === "tool_schema");
  return points(relevant).map((point) => {
    let valid = 0;
    let invalid = 0;
    for (const r of relevant.filter((x) => x.point === point)) {
      if (typeof r.details.valid === "number") valid += r.details.valid;
      if (typeof r.details.invalid === "number") invalid += r.details.invalid;
    }
    return {point, calls: valid + invalid, valid, invalid};
  });
}

/**
 * Summarises quality records per quality version and origin (`frozen` says which verdicts were read as
 * frozen in the bundle), case, scorer, condition, tier, constraint and needle cell.
 */
export function qualitySummary(
  records: readonly QualityRecord[],
  frozen: (r: QualityRecord) => boolean = () => false
): QualitySummary {
  const byGroup = groupBy(records, (r) => `${r.qualityVersion}\u0000${frozen(r) ? 1 : 0}`);
  const versions = [...new Set(records.map((r) => r.qualityVersion))].sort();
  // each version's analysis-scored group before its frozen one
  const keys = [...byGroup.keys()].sort();
  const groups = keys.map((key): QualityGroup => {
    const list = byGroup.get(key)!;
    const v = list[0]!.qualityVersion;
    const cases = [...groupBy(list, (r) => r.caseId)].map(([caseId, mine]): CaseQuality => {
      const {constraints, prompts} = instructionTables(mine);
      return {
        caseId,
        meta: caseMeta(caseId) ?? null,
        scorers: scorerConditions(caseId, mine),
        constraints,
        prompts,
        needle: needleTables(caseId, mine),
        gsm8k: gsm8kTotals(mine),
        tools: toolTotals(mine)
      };
    });
    cases.sort((a, b) => a.caseId.localeCompare(b.caseId));
    return {qualityVersion: v, current: v === QUALITY_VERSION, frozen: key.endsWith("1"), records: list.length, cases};
  });
  return {versions, groups};
}
