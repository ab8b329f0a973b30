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

const none = (reason: string, samples = 0): Energy => ({
  joules: unknown(reason),
  joulesPerOutputToken: unknown(reason),
  tokensPerKWh: unknown(reason),
  samples,
  sparse: false,
  reason
});

/**
 * Energy of a window [t0, t1] (ns) from the raw power samples of the serving GPUs: the trapezoid integral of
 * their summed power.draw, cut at the window's edges by linear interpolation. Unknown — never lower — when a
 * sample in reach lacks a GPU's power, when no sample precedes the window's start or follows its end, or when
 * two consecutive samples are further apart than `maxGapNs` (the integral would bridge a hole in the evidence).
 */
export function windowEnergy(
  samples: readonly GpuSample[],
  span: [number, number] | null,
  gpuIndexes: readonly number[],
  outputTokens: number,
  maxGapNs: number
): Energy {
  if (span === null) return none("measurement window unknown");
  if (gpuIndexes.length === 0) return none("no GPU power telemetry (no GPU listed)");
  const [t0, t1] = span;
  const power = (s: GpuSample): number | null => {
    let w = 0;
    for (const i of gpuIndexes) {
      const p = s.gpus.find((g) => g.index === i)?.powerW ?? null;
      if (p === null) return null;
      w += p;
    }
    return w;
  };
  const ok = samples.filter((s) => s.ok).toSorted((a, b) => a.tNs - b.tNs);
  const before = ok.findLastIndex((s) => s.tNs <= t0);
  const after = ok.findIndex((s) => s.tNs >= t1);
  const inside = ok.filter((s) => s.tNs > t0 && s.tNs < t1).length;
  if (before === -1 || after === -1)
    return none(
      `power samples do not cover the window (${before === -1 ? "none before its start" : "none after its end"})`,
      inside
    );
  const used = ok.slice(before, after + 1);
  const watts = used.map(power);
  const missing = watts.findIndex((w) => w === null);
  if (missing !== -1) return none(`sample ${used[missing]!.seq} has no power.draw for a serving GPU`, inside);
  let joules = 0;
  for (let i = 1; i < used.length; i++) {
    const [a, b] = [used[i - 1]!, used[i]!];
    if (b.tNs - a.tNs > maxGapNs)
      return none(`a ${((b.tNs - a.tNs) / 1e9).toFixed(1)} s gap between power samples ${a.seq} and ${b.seq}`, inside);
    const [wa, wb] = [watts[i - 1]!, watts[i]!];
    const lo = Math.max(a.tNs, t0);
    const hi = Math.min(b.tNs, t1);
    if (hi <= lo) continue;
    const at = (t: number) => (b.tNs === a.tNs ? wa : wa + ((wb - wa) * (t - a.tNs)) / (b.tNs - a.tNs));
    joules += ((at(lo) + at(hi)) / 2) * ((hi - lo) / 1e9);
  }
  const from = `∫ power.draw of ${gpuIndexes.length} GPU(s) over the window, ${used.length} samples`;
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
