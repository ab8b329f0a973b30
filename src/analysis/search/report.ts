import type {z} from "zod";

import type {ProbeSamples} from "../accumulate/probeSamples.ts";
import type {GateResult} from "../gates/types.ts";
import {searchBlocks, type RunConfig, type SearchSpec} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {loadBlocks} from "../schema/config.ts";
import {searchAnswer, type JudgedProbe, type SearchAnswer} from "./answer.ts";
import {judgeProbe, objectiveOf} from "./judge.ts";
import {overSaturation, pointSummary, type PointSummary, type Saturation} from "./saturation.ts";
import type {SearchReport} from "./schema.ts";

export type SearchReportValue = z.infer<typeof SearchReport>;

/** What the search analysis needs of a load point. */
export interface SearchPointInput {
  point: LoadPoint;
  samples: ProbeSamples;
}

export interface SearchNote {
  event: string;
  /** The shard that wrote it in a merged bundle (every shard notes the same search), else null. */
  shard?: number | null;
  detail: Record<string, unknown>;
}

/** Whether a point is a probe of the search (its mode, inside its range: the collector refuses overlaps). */
export const isProbeOf = (s: SearchSpec, p: LoadPoint): boolean =>
  p.mode === s.over && p.value >= s.range[0] && p.value <= s.range[1];

/**
 * The probes of one search judged as the collector judged them: in run order, each against the nearest
 * lower probe measured before it (what the collector knew when it chose the next probe).
 */
export function judgeProbes(s: SearchSpec, probes: readonly SearchPointInput[], config: RunConfig): JudgedProbe[] {
  const objective = objectiveOf(s);
  const seen: {value: number; summary: PointSummary}[] = [];
  return probes.map((p) => {
    const lower = seen.filter((x) => x.value < p.point.value).sort((a, b) => b.value - a.value)[0] ?? null;
    const verdict = judgeProbe(p.samples, objective, config, p.point.value, lower?.summary ?? null);
    seen.push({value: p.point.value, summary: verdict.summary});
    return {value: p.point.value, samples: p.samples, verdict};
  });
}

/** Over-saturation of a point that is not a probe: against the next lower point of its mode. */
export function pointSaturation(p: SearchPointInput, all: readonly SearchPointInput[]): Saturation {
  const lower = all
    .filter((q) => q.point.mode === p.point.mode && q.point.value < p.point.value)
    .sort((a, b) => b.point.value - a.point.value)[0];
  const here = pointSummary(p.samples, p.point.value);
  return overSaturation(p.samples, here, lower ? pointSummary(lower.samples, lower.point.value) : null);
}

const fmt = (v: number): string => String(Number(v.toPrecision(4)));

function statement(s: SearchSpec, a: SearchAnswer, clientBound: string | null): string {
  const what = s.objective === "goodput" ? `goodput ≥ ${s.min_goodput}` : "the SLO";
  const iv = a.interval;
  const ivText =
    iv === null
      ? ""
      : ` (fit crossing ${a.estimate === null ? "—" : fmt(a.estimate)}, ${iv.level * 100} % interval ${iv.lo === null ? `< ${fmt(s.range[0])}` : fmt(iv.lo)} – ${iv.hi === null ? "open above" : fmt(iv.hi)})`;
  const client = clientBound === null ? "" : `; ${clientBound}`;
  if (a.highest_pass === null)
    return `${what} does not hold at the range minimum ${s.over} ${fmt(s.range[0])}: the answer is below the range (< ${fmt(s.range[0])})${client}`;
  if (a.lowest_fail === null)
    return `${what} holds at every probe up to ${s.over} ${fmt(a.highest_pass)}: the answer is ≥ ${fmt(a.highest_pass)}, bounded by the search range${client}`;
  return `${what} holds up to ${s.over} ${fmt(a.highest_pass)} and not at ${fmt(a.lowest_fail)}${ivText}${client}`;
}

const g6Of = (gates: readonly GateResult[], id: string): string | null =>
  gates.find((g) => g.id === "G6")?.points?.find((p) => p.point === id)?.status ?? null;

/**
 * The collector's own notes of one search (shown beside the answer, never used in it). Merged from shards,
 * every shard noted the same probes from one verdict: shard 0's notes are the search's.
 */
function collectorSide(notes: readonly SearchNote[], block: number): SearchReportValue["collector"] {
  const mine = notes.filter((n) => n.detail.search === block && (n.shard ?? 0) === 0);
  const end = mine.find((n) => n.event === "search_end");
  if (end === undefined) return null;
  const answer = end.detail.answer;
  return {
    answer: typeof answer === "number" ? answer : null,
    reason: typeof end.detail.reason === "string" ? end.detail.reason : null,
    probes: mine.filter((n) => n.event === "search_probe").length
  };
}

/** Every search of the config, recomputed from its probes (points in run order, gates, the client log's notes). */
export function searchReports(
  config: RunConfig,
  points: readonly SearchPointInput[],
  gates: readonly GateResult[],
  notes: readonly SearchNote[]
): SearchReportValue[] {
  const blocks = loadBlocks(config);
  return searchBlocks(config).map((s) => {
    const block = blocks.indexOf(s);
    const probes = points.filter((p) => isProbeOf(s, p.point));
    const judged = judgeProbes(s, probes, config);
    const answer = searchAnswer(judged, objectiveOf(s), config, s.seed);
    const limiting = probes.find((p) => p.point.value === answer.lowest_fail);
    const g6 = limiting === undefined ? null : g6Of(gates, limiting.point.id);
    const clientBound =
      limiting !== undefined && g6 !== null && g6 !== "pass"
        ? `the client-health gate G6 of ${limiting.point.id} is ${g6}: the failure may be the client's own ceiling, so the answer is a lower bound`
        : null;
    const collector = collectorSide(notes, block);
    return {
      block,
      over: s.over,
      range: s.range,
      objective: s.objective,
      percentile: config.slo.percentile,
      probes: judged.map((j, order) => ({
        id: probes[order]!.point.id,
        value: j.value,
        order,
        status: j.verdict.status,
        margin: j.verdict.margin,
        clauses: j.verdict.clauses,
        over_saturated: j.verdict.saturation.over_saturated,
        client_health: g6Of(gates, probes[order]!.point.id),
        reason: j.verdict.reason
      })),
      answer: {...answer, client_bound: clientBound, statement: statement(s, answer, clientBound)},
      collector,
      agrees: collector === null ? null : collector.answer === answer.highest_pass
    };
  });
}

/** Over-saturation of every point: a probe as its search judged it, any other point against its lower neighbour. */
export function saturations(config: RunConfig, points: readonly SearchPointInput[]): Map<string, Saturation> {
  const out = new Map<string, Saturation>();
  for (const s of searchBlocks(config)) {
    const probes = points.filter((p) => isProbeOf(s, p.point));
    judgeProbes(s, probes, config).forEach((j, i) => out.set(probes[i]!.point.id, j.verdict.saturation));
  }
  for (const p of points) if (!out.has(p.point.id)) out.set(p.point.id, pointSaturation(p, points));
  return out;
}
