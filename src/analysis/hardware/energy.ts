import type {GpuSample} from "../schema/records.ts";
import {known, unknown} from "./fact.ts";
import type {PointHardware} from "./schema.ts";

type Energy = PointHardware["energy"];

/** Fewer power samples than this inside a window: the integral is shown but flagged as too sparse to trust. */
export const MIN_POWER_SAMPLES = 10;
/** Two consecutive power samples further apart than this many sampling intervals (and than MIN_GAP_S) are a hole. */
export const GAP_INTERVALS = 3;
export const MIN_GAP_S = 2;

/** The largest gap between power samples the integral bridges, ns, for a sampling interval in ms. */
export const maxPowerGapNs = (intervalMs: number): number =>
  Math.max(GAP_INTERVALS * intervalMs, MIN_GAP_S * 1000) * 1e6;

/** Energy unknown, with the reason (every figure of it). */
export const noEnergy = (reason: string, samples = 0): Energy => ({
  joules: unknown(reason),
  joulesPerOutputToken: unknown(reason),
  tokensPerKWh: unknown(reason),
  samples,
  sparse: false,
  reason
});

/**
 * Energy of a measurement window from the raw power samples of the serving GPUs: the trapezoid integral of
 * their summed power.draw over each of its spans [t0, t1] (ns; a point's repeats are one span each, the idle time
 * between them is not in the window), each cut at its edges by linear interpolation. Unknown — never lower — when
 * a sample in reach lacks a GPU's power or reports a negative one, when no sample precedes a span's start or
 * follows its end, or when two consecutive samples are further apart than `maxGapNs` (the integral would bridge a
 * hole in the evidence).
 */
export function windowEnergy(
  samples: readonly GpuSample[],
  spans: readonly (readonly [number, number])[] | null,
  gpuIndexes: readonly number[],
  outputTokens: number,
  maxGapNs: number
): Energy {
  if (spans === null || spans.length === 0) return noEnergy("measurement window unknown");
  if (gpuIndexes.length === 0) return noEnergy("no GPU power telemetry (no GPU listed)");
  const ok = samples.filter((s) => s.ok).toSorted((a, b) => a.tNs - b.tNs);
  let joules = 0;
  let inside = 0;
  let used = 0;
  for (const span of spans) {
    const part = spanEnergy(ok, span, gpuIndexes, maxGapNs);
    inside += part.inside;
    if ("reason" in part) return noEnergy(part.reason, inside);
    joules += part.joules;
    used += part.used;
  }
  const over = spans.length === 1 ? "the window" : `the window's ${spans.length} repeats`;
  const from = `∫ power.draw of ${gpuIndexes.length} GPU(s) over ${over}, ${used} samples`;
  const sparse = inside < MIN_POWER_SAMPLES;
  return {
    joules: known(joules, from),
    joulesPerOutputToken:
      outputTokens > 0 ? known(joules / outputTokens, "energy ÷ output tokens") : unknown("no output tokens"),
    tokensPerKWh:
      joules > 0
        ? known(outputTokens / (joules / 3.6e6), "output tokens ÷ (energy in kWh)")
        : unknown("no energy measured"),
    samples: inside,
    sparse,
    reason: sparse ? `only ${inside} power samples inside the window (the rule asks for ${MIN_POWER_SAMPLES})` : null
  };
}

/** The integral over one span of samples sorted by time, or why it is unknown; `inside`: samples strictly inside. */
function spanEnergy(
  ok: readonly GpuSample[],
  [t0, t1]: readonly [number, number],
  gpuIndexes: readonly number[],
  maxGapNs: number
): {joules: number; inside: number; used: number} | {reason: string; inside: number} {
  const power = (s: GpuSample): number | string => {
    let w = 0;
    for (const i of gpuIndexes) {
      const p = s.gpus.find((g) => g.index === i)?.powerW ?? null;
      if (p === null) return `sample ${s.seq} has no power.draw for a serving GPU`;
      if (!(p >= 0)) return `sample ${s.seq} reports power.draw ${p} W for GPU ${i}: not a measurement`;
      w += p;
    }
    return w;
  };
  const before = ok.findLastIndex((s) => s.tNs <= t0);
  const after = ok.findIndex((s) => s.tNs >= t1);
  const inside = ok.filter((s) => s.tNs > t0 && s.tNs < t1).length;
  if (before === -1 || after === -1)
    return {
      reason: `power samples do not cover the window (${before === -1 ? "none before its start" : "none after its end"})`,
      inside
    };
  const used = ok.slice(before, after + 1);
  const watts: number[] = [];
  for (const s of used) {
    const w = power(s);
    if (typeof w === "string") return {reason: w, inside};
    watts.push(w);
  }
  let joules = 0;
  for (let i = 1; i < used.length; i++) {
    const [a, b] = [used[i - 1]!, used[i]!];
    if (b.tNs - a.tNs > maxGapNs)
      return {
        reason: `a ${((b.tNs - a.tNs) / 1e9).toFixed(1)} s gap between power samples ${a.seq} and ${b.seq}`,
        inside
      };
    const [wa, wb] = [watts[i - 1]!, watts[i]!];
    const lo = Math.max(a.tNs, t0);
    const hi = Math.min(b.tNs, t1);
    if (hi <= lo) continue;
    const at = (t: number) => (b.tNs === a.tNs ? wa : wa + ((wb - wa) * (t - a.tNs)) / (b.tNs - a.tNs));
    joules += ((at(lo) + at(hi)) / 2) * ((hi - lo) / 1e9);
  }
  return {joules, inside, used: used.length};
}
