import {group as d3Group, sort} from "d3-array";

import type {Bilingual} from "../metrics/types.ts";
import {isSummary, type PointReport, type Report} from "../report/types.ts";
import {comparabilityKey} from "../compare/comparability.ts";
import {paretoFrontier} from "./frontier.ts";

export type ParetoRun = Pick<Report, "bundle" | "measure_version" | "verdict" | "gates" | "load_points"> & {
  meta: Pick<Report["meta"], "model" | "workloadKey" | "hardware" | "engine" | "gpus">;
  /** Imported runs carry the source tool (their measure version keeps them in a class of their own). */
  provenance?: Report["provenance"];
};

/** The interactivity definition used on the x axis (a metric id and the statistic taken of it). */
export const PARETO_X = {metric: "interactivity_tok_s", stat: "p50"} as const;
export const PARETO_Y = {metric: "output_throughput_tok_s"} as const;

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
  /** output tokens/s divided by the GPU count (or per host when the run used no GPU). */
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
  classes: ParetoClass[];
  excluded: ParetoExcluded[];
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

/**
 * Throughput per GPU against interactivity, one chart per comparability class (never mixing models,
 * workloads or measure versions), the frontier computed per hardware · engine. INVALID points, runs
 * whose client health is not shown, and points without either number are excluded with the reason.
 */
export function paretoOf(runs: readonly ParetoRun[]): Pareto {
  const excluded: ParetoExcluded[] = [];
  const classes = new Map<string, ParetoClass>();
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
    const cls =
      classes.get(key) ??
      classes
        .set(key, {
          key,
          model: run.meta.model!,
          workloadKey: run.meta.workloadKey,
          measureVersion: run.measure_version!,
          points: [],
          frontiers: []
        })
        .get(key)!;
    for (const p of run.load_points) {
      if (p.verdict === "INVALID") {
        excluded.push({bundle: run.bundle, point: p.id, reason: {en: "INVALID load point", zh: "负载点无效"}});
        continue;
      }
      const xm = p.metrics[PARETO_X.metric];
      const ym = p.metrics[PARETO_Y.metric];
      const x = xm && isSummary(xm) ? xm[PARETO_X.stat] : null;
      const y = ym && !isSummary(ym) ? ym.value : null;
      if (x === null || y === null) {
        const why = x === null ? `${PARETO_X.metric} ${PARETO_X.stat}` : PARETO_Y.metric;
        excluded.push({bundle: run.bundle, point: p.id, reason: {en: `${why} missing`, zh: `${why} 缺失`}});
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
        y: y / divisor,
        divisor,
        divisorKind,
        verdict: p.verdict,
        onFrontier: false
      });
    }
  }
  for (const cls of classes.values()) {
    const byGroup = sort(
      d3Group(cls.points, (p) => p.group),
      ([g]) => g
    );
    for (const [group, members] of byGroup) {
      const front = paretoFrontier(
        members,
        (p) => p.x,
        (p) => p.y
      );
      for (const p of front) p.onFrontier = true;
      cls.frontiers.push({group, points: front});
    }
    cls.points.sort((a, b) => a.group.localeCompare(b.group) || a.x - b.x);
  }
  return {
    classes: [...classes.values()].filter((c) => c.points.length > 0).sort((a, b) => a.key.localeCompare(b.key)),
    excluded
  };
}
