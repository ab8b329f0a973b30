import {comparabilityKey} from "../compare/comparability.ts";
import type {Fact, PointHardware} from "../hardware/schema.ts";
import {isSummary, type Report} from "../report/types.ts";
import type {PercentileKey} from "../stats/summarize.ts";
import {qualityRates, type QualityRate} from "./quality.ts";

export const SLO_METRICS = ["ttft_ms", "itl_ms", "e2e_ms"] as const;
export type SloMetric = (typeof SLO_METRICS)[number];

/** One configuration that could be recommended: a load point of a bundle, reduced to what selection reads. */
export interface Candidate {
  bundle: string;
  point: string;
  model: string | null;
  /**
   * Its comparable set (measure version, model, workload: compare/comparability.ts); null when the model or the
   * measure version is unknown. Candidates are ranked only against their own set.
   */
  set: string | null;
  hardware: string;
  engine: string | null;
  /** The configuration it measures: an experiment's variant (bundle labels `experiment` / `variant`), else null. */
  variant: {experiment: string | null; name: string} | null;
  /** Past what the server sustains (queueing grows, or throughput stopped growing): never a capacity to pick. */
  overSaturated: boolean;
  verdict: Report["verdict"];
  clientHealth: string;
  nSuccess: number;
  /** Output tok/s divided by the GPU count (per host when no GPU); null when unknown. */
  throughputPerGpu: number | null;
  divisorKind: "gpu" | "host" | "unknown";
  /** interactivity_tok_s median. */
  interactivity: number | null;
  latency: Record<SloMetric, Record<PercentileKey, number | null>>;
  withheld: Record<SloMetric, Partial<Record<PercentileKey, string>>>;
  quality: QualityRate[];
  /**
   * Cost at this point (the Report's hardware block), each a Fact: null with the reason when unknown, never 0.
   * Absent reads as unknown (a candidate built without the hardware data).
   */
  cost?: {perMOutput: Fact; perRequest: Fact};
  /** Energy per output token; `sparse`: from fewer power samples than the rule needs to trust the integral. */
  energy?: {joulesPerOutputToken: Fact; sparse: boolean; reason: string | null};
}

/** Why cost and energy are unknown when the Report has no hardware block for the point. */
export const NO_HARDWARE_DATA = "the analysis was not given the hardware data";

const unknownFact = (reason: string): Fact => ({value: null, from: null, reason});

/** The cost and energy of one point of the hardware block; unknown, with the reason, when the block lacks it. */
function economicsOf(hw: PointHardware | undefined, why: string): Required<Pick<Candidate, "cost" | "energy">> {
  if (hw === undefined)
    return {
      cost: {perMOutput: unknownFact(why), perRequest: unknownFact(why)},
      energy: {joulesPerOutputToken: unknownFact(why), sparse: false, reason: why}
    };
  return {
    cost: {perMOutput: hw.cost.perMOutput, perRequest: hw.cost.perRequest},
    energy: {joulesPerOutputToken: hw.energy.joulesPerOutputToken, sparse: hw.energy.sparse, reason: hw.energy.reason}
  };
}

type CandidateRun = Pick<Report, "bundle" | "measure_version" | "gates" | "load_points" | "quality"> &
  Partial<Pick<Report, "hardware">> & {
    meta: Pick<Report["meta"], "model" | "workloadKey" | "hardware" | "engine" | "gpus"> &
      Partial<Pick<Report["meta"], "labels">>;
  };

/** Candidates of one bundle, one per load point. */
export function candidatesOf(run: CandidateRun): Candidate[] {
  const clientHealth = run.gates.find((g) => g.id === "G6")?.status ?? "missing";
  const gpus = run.meta.gpus;
  const noGpu = run.meta.hardware.startsWith("CPU:");
  const divisorKind = gpus !== null && gpus > 0 ? "gpu" : noGpu ? "host" : "unknown";
  const labels = run.meta.labels ?? {};
  const variant = labels.variant === undefined ? null : {experiment: labels.experiment ?? null, name: labels.variant};
  return run.load_points.map((p) => {
    const latency = {} as Candidate["latency"];
    const withheld = {} as Candidate["withheld"];
    for (const id of SLO_METRICS) {
      const m = p.metrics[id];
      const s = m && isSummary(m) ? m : null;
      latency[id] = {p50: s?.p50 ?? null, p90: s?.p90 ?? null, p95: s?.p95 ?? null, p99: s?.p99 ?? null};
      withheld[id] = s ? {...s.withheld} : {};
    }
    const out = p.metrics.output_throughput_tok_s;
    const outValue = out && !isSummary(out) ? out.value : null;
    const inter = p.metrics.interactivity_tok_s;
    const quality = qualityRates(run.quality.filter((q) => q.point === null || q.point === p.id));
    const hw = run.hardware?.points.find((h) => h.point === p.id);
    const why = run.hardware === undefined ? NO_HARDWARE_DATA : `load point ${p.id} not in the hardware block`;
    return {
      bundle: run.bundle,
      point: p.id,
      model: run.meta.model,
      set: comparabilityKey(run),
      hardware: run.meta.hardware,
      engine: run.meta.engine,
      variant,
      overSaturated: p.saturation?.over_saturated === true,
      verdict: p.verdict,
      clientHealth,
      nSuccess: p.n_success,
      throughputPerGpu:
        outValue === null || divisorKind === "unknown" ? null : outValue / (divisorKind === "gpu" ? gpus! : 1),
      divisorKind,
      interactivity: inter && isSummary(inter) ? inter.p50 : null,
      latency,
      withheld,
      quality,
      ...economicsOf(hw, why)
    };
  });
}
