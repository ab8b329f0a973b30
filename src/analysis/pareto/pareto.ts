import {group as d3Group, sort} from "d3-array";

import type {Bilingual} from "../metrics/types.ts";
import {isSummary, type PointReport, type Report} from "../report/types.ts";
import {comparabilityKey} from "../compare/comparability.ts";
import {paretoFrontier} from "./frontier.ts";

export type ParetoRun = Pick<Report, "bundle" | "measure_version" | "verdict" | "gates" | "load_points"> & {
  meta: Pick<Report["meta"], "model" | "workloadKey" | "hardware" | "engine" | "gpus">;
  /** Imported runs carry the source tool (their measure version keeps them in a class of their own). */
  provenance?: Report["provenance"];
  /** Cost per load point (the cost view reads `points[i].cost.perMOutput`); absent: cost unknown. */
  hardware?: Report["hardware"];
};

/** The interactivity definition used on the x axis (a metric id and the statistic taken of it). */
export const PARETO_X = {metric: "interactivity_tok_s", stat: "p50"} as const;
export const PARETO_Y = {metric: "output_throughput_tok_s"} as const;

/**
 * The y axes a view can take: output throughput per GPU (higher is better), or USD per million output tokens
 * at the point (lower is better; points whose cost is unknown are left out of that view and counted).
 */
export const PARETO_Y_AXES = ["throughput", "cost"] as const;
export type ParetoYAxis = (typeof PARETO_Y_AXES)[number];

export interface ParetoPoint {
  bundle: string;
  point: string;
  model: string;
  hardware: string;
  engine: string;
  /** hardware · engine: the frontier is drawn per group. */
  group: string;
  /** interactivity_tok_s median, tok/s/user. */
  x: number;
  /**
   * The y axis: output tokens/s divided by the GPU count (or per host when the run used no GPU), or in the cost
   * view USD per million output tokens.
   */
  y: number;
  divisor: number;
  divisorKind: "gpu" | "host";
  verdict: PointReport["verdict"];
  onFrontier: boolean;
}

export interface ParetoExcluded {
  bundle: string;
  point: string | null;
  reason: Bilingual;
}

export interface ParetoClass {
  /** Comparability key: measure version, model and workload fingerprint. */
  key: string;
  model: string;
  workloadKey: string;
  measureVersion: string;
  points: ParetoPoint[];
  /** Frontier points per group, sorted by x. */
  frontiers: {group: string; points: ParetoPoint[]}[];
}

export interface Pareto {
  /** The y axis of this view and which way is better on it (x, interactivity, is always better higher). */
  y: ParetoYAxis;
  better: "higher" | "lower";
  classes: ParetoClass[];
  excluded: ParetoExcluded[];
  /** Load points left out of the cost view because their cost is unknown, each with the reason (not in `excluded`). */
  withoutCost: ParetoExcluded[];
}

function hasGpu(hardware: string): boolean {
  return !hardware.startsWith("CPU:") && hardware !== "unknown hardware";
}

/** Why a whole run stays off the chart (client health not shown, GPU count unknown on GPU hardware), else null. */
function runExclusion(run: ParetoRun): Bilingual | null {
  const g6 = run.gates.find((g) => g.id === "G6")?.status ?? "missing";
  // an imported run's client health is not in its files: shown, in its own class and group, as imported
  const imported = run.provenance?.kind === "imported" && g6 === "not_evaluable";
  if (!["pass", "info", "warn"].includes(g6) && !imported)
    return {en: `client health (G6) ${g6}`, zh: `客户端健康（G6）${g6}`};
  const gpus = run.meta.gpus;
  if (!(gpus !== null && gpus > 0) && hasGpu(run.meta.hardware))
    return {en: "GPU count unknown: no per-GPU throughput", zh: "GPU 数量未知：无法计算每 GPU 吞吐"};
  return null;
}

/** The class a run's points go to, created on first use. */
function classOf(classes: Map<string, ParetoClass>, key: string, run: ParetoRun): ParetoClass {
  const found = classes.get(key);
  if (found !== undefined) return found;
  const cls: ParetoClass = {
    key,
    model: run.meta.model!,
    workloadKey: run.meta.workloadKey,
    measureVersion: run.measure_version!,
    points: [],
    frontiers: []
  };
  classes.set(key, cls);
  return cls;
}

/** The y value of a point on the chosen axis, or why it has none. */
function yOf(
  run: ParetoRun,
  p: PointReport,
  axis: ParetoYAxis,
  divisor: number
): {y: number} | {reason: Bilingual; cost: boolean} {
  const ym = p.metrics[PARETO_Y.metric];
  const throughput = ym && !isSummary(ym) ? ym.value : null;
  if (axis === "throughput")
    return throughput === null
      ? {reason: {en: `${PARETO_Y.metric} missing`, zh: `${PARETO_Y.metric} 缺失`}, cost: false}
      : {y: throughput / divisor};
  const fact = run.hardware?.points.find((h) => h.point === p.id)?.cost.perMOutput;
  if (fact !== undefined && fact.value !== null) return {y: fact.value};
  const why = fact?.reason ?? "the analysis was not given the hardware data";
  return {reason: {en: `cost unknown: ${why}`, zh: `成本未知：${why}`}, cost: true};
}

/** Marks and lists the frontier of each group of a class (lower y is better in the cost view), points by group and x. */
function drawFrontiers(cls: ParetoClass, better: Pareto["better"]): void {
  const byGroup = sort(
    d3Group(cls.points, (p) => p.group),
    ([g]) => g
  );
  for (const [group, members] of byGroup) {
    const front = paretoFrontier(
      members,
      (p) => p.x,
      (p) => (better === "higher" ? p.y : -p.y)
    );
    for (const p of front) p.onFrontier = true;
    cls.frontiers.push({group, points: front});
  }
  cls.points.sort((a, b) => a.group.localeCompare(b.group) || a.x - b.x);
}

/**
 * Throughput per GPU (or, with `{y: "cost"}`, $ per million output tokens) against interactivity, one chart per
 * comparability class (never mixing models, workloads or measure versions), the frontier computed per
 * hardware · engine. INVALID points, runs whose client health is not shown, and points without either number
 * are excluded with the reason; in the cost view a point whose cost is unknown is left out, listed in `withoutCost`.
 */
export function paretoOf(runs: readonly ParetoRun[], opts: {y?: ParetoYAxis} = {}): Pareto {
  const axis = opts.y ?? "throughput";
  const better = axis === "cost" ? "lower" : "higher";
  const excluded: ParetoExcluded[] = [];
  const classes = new Map<string, ParetoClass>();
  const withoutCost: ParetoExcluded[] = [];
  for (const run of runs) {
    const key = comparabilityKey(run);
    const why =
      key === null ? {en: "model or measure version unknown", zh: "模型或测量口径版本未知"} : runExclusion(run);
    if (key === null || why !== null) {
      excluded.push({bundle: run.bundle, point: null, reason: why!});
      continue;
    }
    const gpus = run.meta.gpus;
    const divisorKind: "gpu" | "host" = gpus !== null && gpus > 0 ? "gpu" : "host";
    const divisor = divisorKind === "gpu" ? gpus! : 1;
    const cls = classOf(classes, key, run);
    for (const p of run.load_points) {
      if (p.verdict === "INVALID") {
        excluded.push({bundle: run.bundle, point: p.id, reason: {en: "INVALID load point", zh: "负载点无效"}});
        continue;
      }
      const xm = p.metrics[PARETO_X.metric];
      const x = xm && isSummary(xm) ? xm[PARETO_X.stat] : null;
      if (x === null) {
        const missing = `${PARETO_X.metric} ${PARETO_X.stat}`;
        excluded.push({bundle: run.bundle, point: p.id, reason: {en: `${missing} missing`, zh: `${missing} 缺失`}});
        continue;
      }
      const y = yOf(run, p, axis, divisor);
      if ("reason" in y) {
        (y.cost ? withoutCost : excluded).push({bundle: run.bundle, point: p.id, reason: y.reason});
        continue;
      }
      const engine = run.meta.engine ?? "unknown engine";
      const source = run.provenance?.kind === "imported" ? ` · imported from ${run.provenance.tool}` : "";
      cls.points.push({
        bundle: run.bundle,
        point: p.id,
        model: run.meta.model!,
        hardware: run.meta.hardware,
        engine,
        group: `${run.meta.hardware} · ${engine}${source}`,
        x,
        y: y.y,
        divisor,
        divisorKind,
        verdict: p.verdict,
        onFrontier: false
      });
    }
  }
  for (const cls of classes.values()) drawFrontiers(cls, better);
  return {
    y: axis,
    better,
    classes: [...classes.values()].filter((c) => c.points.length > 0).sort((a, b) => a.key.localeCompare(b.key)),
    excluded,
    withoutCost
  };
}
