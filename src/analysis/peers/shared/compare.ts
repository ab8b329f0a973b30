import type {DerivedRequest} from "../../derive/request.ts";
import {metricById} from "../../metrics/registry.ts";
import type {SourceRecord} from "../../schema/records.ts";
import {isObject} from "./parse.ts";
import {canonicalStat, relDiff, statLabel, type Stat} from "./stats.ts";

/** Why a peer's number differs from ours (peer-formats.md §9). */
export const REASON_CODES = [
  "definition",
  "percentile_method",
  "weighting",
  "token_source",
  "end_of_request",
  "window",
  "missing_data",
  "sampled_requests"
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** ms per unit of the time units peer tools write. */
const MS_PER: Readonly<Record<string, number>> = {ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, sec: 1000};

/** Relative difference above which two numbers are said to differ (0.01 %). */
export const TOLERANCE = 1e-4;

/**
 * The absolute difference below which two numbers agree whatever their relative difference, in a row's
 * unit: near zero a relative difference means nothing (GuideLLM's numpy std of 1000 equal token counts is
 * 5.7e-14, ours 0: "100 %"). Times: 1 ns, the resolution of the records (integer ns), converted to the
 * row's time unit (1e-6 ms, 1e-9 s; the time part of `ms/token`). Anything else (tokens, requests, rates,
 * shares): 1e-9 of the unit, floating-point noise far below any count or rate a tool prints.
 */
export function absoluteTolerance(unit: string): number {
  const ms = MS_PER[unit.split("/")[0]!];
  return ms === undefined ? 1e-9 : 1 / (ms * 1e6); // one over the ns in a unit: 1e-9 s exactly, not 1e-6 / 1000
}

/** Whether two numbers differ: beyond TOLERANCE relative and beyond the unit's absolute tolerance. */
export const differs = (a: number, b: number, unit: string): boolean =>
  relDiff(a, b) > TOLERANCE && Math.abs(a - b) > absoluteTolerance(unit);

/** How our recomputation of the peer's own number was obtained. */
export type RecomputeStatus = "exact" | "derived" | "bounded" | "approximate" | "not_recomputable";

export interface Recomputed {
  value: number | null;
  status: RecomputeStatus;
  /** For "bounded": the interval the peer's number must lie in. */
  bound?: {lower: number | null; upper: number | null};
  /** Why it is derived, approximate, bounded or missing. */
  note?: string;
  /** For "approximate": the relative difference beyond which the reported number is still contradicted. */
  tolerance?: number;
}

/** One line of the three-column view: the tool's number, our recomputation of it, and our canonical metric. */
export interface SourceComparisonRow {
  point: string | null;
  /** The source's own name for the number, e.g. `p99_itl_ms` or `ttft.p99`. */
  metric: string;
  /** The source tool's definition of that number, one line. */
  definition: string;
  /** Unit of reported, recomputed and canonical (the source's unit). */
  unit: string;
  reported: number | null;
  recomputed: number | null;
  recomputed_status: RecomputeStatus;
  bound: {lower: number | null; upper: number | null} | null;
  canonical: number | null;
  /** Our metric and statistic shown as canonical, e.g. `inter_chunk_ms p99 (nearest rank)`. */
  canonical_metric: string | null;
  /** Reason codes for every difference beyond 0.01 % (empty when all agree). */
  codes: ReasonCode[];
  note: string | null;
  /** True when our recomputation contradicts the reported number (outside tolerance or outside the bound). */
  finding: boolean;
  /** The run of a point the source ran more than once (its source record's repeat); absent otherwise. */
  repeat?: number;
}

/** Our canonical values for the point an import row belongs to, in our units. */
export interface CanonicalView {
  /** Per-request or per-sample values of a metric (successful measured requests). */
  values(metricId: string): readonly number[];
  /** A run-level metric's value, with the reason when null. */
  run(metricId: string): {value: number | null; reason?: string};
}

/** A source record's verbatim aggregates as an object ({} when the source kept none). */
export const aggregatesOf = (source: SourceRecord): Record<string, unknown> =>
  (isObject(source.aggregates) ? source.aggregates : {}) as Record<string, unknown>;

export interface ComparisonInput {
  source: SourceRecord;
  /** The point's measured requests (all outcomes). */
  requests: readonly DerivedRequest[];
  /** The point's warmup requests, for sources that report warmup statistics apart (AIPerf's warmup_metrics). */
  warmup?: readonly DerivedRequest[];
  canonical: CanonicalView | null;
}

export interface CanonicalRef {
  metric: string;
  value: number | null;
  note?: string;
}

export interface RowSpec {
  point: string | null;
  metric: string;
  definition: string;
  unit: string;
  reported: number | null;
  recomputed: Recomputed;
  canonical: CanonicalRef | null;
  /** Reason codes that explain a canonical ≠ reported difference. */
  codes: ReasonCode[];
  /** One line: why canonical differs from reported when it does. */
  why?: string;
  /**
   * A definition difference the numbers cannot show (ours is recomputed from the same per-request values):
   * always stated, with the code `definition`.
   */
  caveat?: string;
  /**
   * What the reader of this number must know whatever the columns show (the tool's own counts contradict each
   * other…): each adds its code and `code: note`, like a caveat, under the code that names the doubt.
   */
  qualifiers?: readonly {code: ReasonCode; note: string}[];
}

const pct = (d: number): string => `${(d * 100).toPrecision(3)} %`;

/** The note of two numbers that agree only by the absolute tolerance (what it is, in the row's unit). */
const noise = (a: number, b: number, unit: string): string =>
  `equal within floating-point noise: |reported − recomputed| = ${Math.abs(a - b).toPrecision(2)} ${unit} ≤ ${absoluteTolerance(unit)} ${unit}, the absolute tolerance of ${unit}`;

/** Turns a row spec into a row: compares the three columns and writes the one-line note. */
export function finishRow(s: RowSpec): SourceComparisonRow {
  const notes: string[] = [];
  const codes = new Set<ReasonCode>();
  let finding = false;
  const r = s.recomputed;
  if (s.reported === null) notes.push("not reported by the source");
  if (r.status === "not_recomputable" || r.value === null) {
    if (r.status === "bounded" && r.bound && s.reported !== null) {
      const {lower, upper} = r.bound;
      const abs = absoluteTolerance(s.unit);
      const inside =
        (lower === null || s.reported >= Math.min(lower * (1 - TOLERANCE), lower - abs)) &&
        (upper === null || s.reported <= Math.max(upper * (1 + TOLERANCE), upper + abs));
      if (!inside) {
        finding = true;
        notes.push(`FINDING: reported value lies outside the bound [${lower ?? "−∞"}, ${upper ?? "∞"}]`);
      }
      notes.push(`bounded: ${r.note ?? ""}`.trim());
    } else if (r.status !== "bounded") {
      codes.add("missing_data");
      notes.push(`missing_data: ${r.note ?? "the source lacks the data"}`);
    }
  } else if (s.reported !== null) {
    const d = relDiff(s.reported, r.value);
    const apart = differs(s.reported, r.value, s.unit);
    const approx = r.status === "approximate" && (r.tolerance === undefined || d <= r.tolerance);
    if (apart && approx) notes.push(`approximate (differs by ${pct(d)}): ${r.note ?? ""}`);
    else if (apart) {
      finding = true;
      notes.push(`FINDING: recomputed differs from reported by ${pct(d)}${r.note ? ` (${r.note})` : ""}`);
    } else {
      if (d > TOLERANCE) notes.push(noise(s.reported, r.value, s.unit));
      if (r.status !== "exact" && r.note) notes.push(`${r.status}: ${r.note}`);
    }
  }
  const c = s.canonical;
  if (c && c.value === null && c.note) notes.push(`canonical: ${c.note}`);
  const qualifiers = [
    ...(s.caveat === undefined ? [] : [{code: "definition" as const, note: s.caveat}]),
    ...(s.qualifiers ?? [])
  ];
  for (const q of qualifiers) {
    codes.add(q.code);
    notes.push(`${q.code}: ${q.note}`);
  }
  const ref = s.reported ?? r.value;
  if (c && c.value !== null && ref !== null && differs(ref, c.value, s.unit)) {
    const own = s.codes.length ? s.codes : (["definition"] as ReasonCode[]);
    for (const code of own) codes.add(code);
    notes.push(`${own.join(", ")}: ${s.why ?? "our definition differs"}`);
  }
  return {
    point: s.point,
    metric: s.metric,
    definition: s.definition,
    unit: s.unit,
    reported: s.reported,
    recomputed: r.value,
    recomputed_status: r.status,
    bound: r.bound ?? null,
    canonical: c?.value ?? null,
    canonical_metric: c?.metric ?? null,
    codes: [...codes],
    note: notes.length ? notes.join("; ") : null,
    finding
  };
}

/**
 * How the registry says a distribution metric's percentiles are taken, as the row names it. canonicalStat
 * computes nearest ranks, so a canonical reference to any other kind of metric is a programming error.
 */
function distributionMethod(metricId: string): string {
  const def = metricById(metricId);
  if (def.kind === "run" || def.method !== "nearest-rank")
    throw new Error(`canonical metric ${metricId}: expected a nearest-rank distribution metric, got ${def.kind}`);
  return "nearest rank";
}

/**
 * The factor from a registry unit to a source's unit: time units (`ms`, `s`, the time part of `ms/token`)
 * convert; anything else (tokens, rates the tool spells its own way) is taken as the same unit.
 */
export function unitScale(registryUnit: string, sourceUnit: string | undefined): number {
  const from = MS_PER[registryUnit.split("/")[0]!];
  const to = sourceUnit === undefined ? undefined : MS_PER[sourceUnit.split("/")[0]!];
  return from === undefined || to === undefined ? 1 : from / to;
}

/** Our canonical statistic of a metric, in the source's unit when it is a time unit (see unitScale). */
export function canonicalRef(
  view: CanonicalView | null,
  metricId: string,
  stat: Stat,
  sourceUnit?: string
): CanonicalRef | null {
  if (!view) return null;
  const values = view.values(metricId);
  const def = metricById(metricId);
  const method = distributionMethod(metricId);
  const scale = unitScale(def.unit, sourceUnit);
  const label = typeof stat === "string" ? stat : stat.p === 50 ? "p50 (median)" : `p${stat.p} (${method})`;
  const metric = `${metricId} ${label}`;
  if (values.length === 0) return {metric, value: null, note: `${metricId}: no values in the imported data`};
  const c = canonicalStat(values, stat);
  if (c.value === undefined) return {metric, value: null, note: c.withheld ?? "not defined"};
  return {metric, value: stat === "count" ? c.value : c.value * scale};
}

/** A run-level canonical metric (the source's rows show it in our unit). */
export function canonicalRun(view: CanonicalView | null, metricId: string): CanonicalRef | null {
  if (!view) return null;
  if (metricById(metricId).kind !== "run") throw new Error(`canonical metric ${metricId}: expected a run metric`);
  const v = view.run(metricId);
  return v.value === null
    ? {metric: metricId, value: null, note: v.reason ?? "unknown"}
    : {metric: metricId, value: v.value};
}

export const exact = (value: number | undefined | null, note?: string): Recomputed =>
  value == null || !Number.isFinite(value)
    ? {value: null, status: "not_recomputable", note: note ?? "no values"}
    : {value, status: "exact", ...(note ? {note} : {})};

export const derived = (value: number | undefined | null, note: string): Recomputed =>
  value == null || !Number.isFinite(value)
    ? {value: null, status: "not_recomputable", note}
    : {value, status: "derived", note};

export const missing = (note: string): Recomputed => ({value: null, status: "not_recomputable", note});

/** An approximation of the source's number; beyond `tolerance` (relative), if given, it is still a finding. */
export const approximate = (value: number | undefined | null, note: string, tolerance?: number): Recomputed =>
  value == null || !Number.isFinite(value)
    ? {value: null, status: "not_recomputable", note}
    : {value, status: "approximate", note, ...(tolerance === undefined ? {} : {tolerance})};

export const bounded = (lower: number | null, upper: number | null, note: string): Recomputed => ({
  value: null,
  status: "bounded",
  bound: {lower, upper},
  note
});

/** The statistic label a peer uses in its key, e.g. `p99.9` or `median`. */
export const labelOf = statLabel;
