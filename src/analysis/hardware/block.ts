import {max} from "d3-array";

import type {PointFacts} from "../gates/types.ts";
import type {PointReport} from "../report/types.ts";
import {isSummary} from "../report/types.ts";
import type {RunConfig} from "../schema/config.ts";
import type {Environment, Manifest} from "../schema/manifest.ts";
import type {GpuSample, ServerScrape} from "../schema/records.ts";
import {pointCost} from "./cost.ts";
import type {HardwareData} from "./data.ts";
import {maxPowerGapNs, noEnergy, windowEnergy} from "./energy.ts";
import {combine, known, unknown} from "./fact.ts";
import {capacityOf, fitRow, serverMemory} from "./fit.ts";
import {measuredHost} from "./host.ts";
import {modelFacts} from "./model.ts";
import {chosenPrice, priceKey} from "./price.ts";
import {decodeBound, fractionOf} from "./roofline.ts";
import type {Fact, HardwareReport, MeasuredHost, PointHardware} from "./schema.ts";

export interface HardwareInput {
  manifest: Manifest | null;
  config: RunConfig | null;
  /** The bundle holds a run config that did not parse: its own prices and model facts cannot be read. */
  configUnreadable?: boolean;
  points: readonly PointFacts[];
  reports: readonly PointReport[];
  scrapes: readonly ServerScrape[];
  gpuSamples: readonly GpuSample[];
  data: HardwareData;
}

/**
 * Why the serving GPUs cannot be read as one card, or null: the fingerprint lists different cards among them
 * (their catalogue ids, or a name the catalogue does not know), and the run config names none for them all.
 */
function mixedCards(host: MeasuredHost, config: RunConfig | null): string | null {
  if (host.kind !== "gpu" || config?.hardware?.gpu !== undefined) return null;
  const serving = host.gpus.slice(0, host.gpuCount.value ?? host.gpus.length);
  const cards = new Set(serving.map((g) => g.catalogueId ?? g.name));
  if (cards.size <= 1) return null;
  const names = [...new Set(serving.map((g) => g.name))].join(", ");
  return `the serving GPUs are different cards (${names}): one bound or price for them is not defined (name one card with hardware.gpu to read them as it)`;
}

/** The memory bandwidth the roofline uses: the serving GPUs' (catalogue) or, on a CPU host, the measured host's. */
function bandwidthOf(
  host: MeasuredHost,
  data: HardwareData,
  mixed: string | null
): {bandwidth: Fact; from: string | null} {
  if (host.kind === "cpu") return {bandwidth: host.hostBandwidthGBs, from: host.hostBandwidthGBs.from};
  if (mixed !== null) return {bandwidth: unknown(mixed), from: null};
  const card = data.catalogue.gpus.find((g) => g.id === host.card);
  if (card === undefined)
    return {
      bandwidth: unknown(host.cardName === null ? "no GPU identified" : `${host.cardName} is not in the catalogue`),
      from: null
    };
  if (card.memory_bandwidth_gbs === undefined)
    return {bandwidth: unknown(`${card.name}: memory bandwidth not in a source (—)`), from: null};
  const per = card.memory_bandwidth_gbs.value;
  const bw = combine([host.gpuCount], (n) => n * per, `${per} GB/s × GPUs (catalogue: ${card.name})`);
  return {bandwidth: bw, from: bw.from};
}

const p50 = (r: PointReport | undefined, id: string): Fact => {
  const m = r?.metrics[id];
  if (m === undefined || !isSummary(m)) return unknown(`${id} not computed`);
  return m.p50 === null
    ? unknown(m.withheld.p50 ?? `${id}: no value (n = ${m.n})`)
    : known(m.p50, `${id} median, n = ${m.n}`);
};

/** The largest concurrency the run asked for or reached: closed-loop targets, else the mean in flight rounded up. */
const runConcurrency = (points: readonly PointFacts[]): number =>
  Math.max(
    1,
    max(points, (f) => (f.point.mode === "concurrency" ? f.point.value : Math.ceil(f.totals.meanInFlight ?? 1))) ?? 1
  );

/**
 * How many sequences the server decodes at once at most: llama.cpp's /props total_slots, else its --parallel /
 * -np, else vLLM's --max-num-seqs; null when the fingerprint does not say.
 */
export function serverSlots(env: Environment | null): {n: number; from: string} | null {
  const props = (env?.server.version as Record<string, unknown> | null | undefined)?.["/props"] as
    {total_slots?: unknown} | undefined;
  if (typeof props?.total_slots === "number" && props.total_slots > 0)
    return {n: props.total_slots, from: "/props total_slots"};
  const args = env?.server.launchArgs ?? [];
  for (const flag of ["--parallel", "-np", "--max-num-seqs"]) {
    const i = args.indexOf(flag);
    const n = i >= 0 ? Number(args[i + 1]) : NaN;
    if (Number.isInteger(n) && n > 0) return {n, from: `launch argument ${flag} ${n}`};
  }
  return null;
}

/** The batch a point decodes at: requests in flight (measured), at most the server's slots (queued ones wait). */
function batchOf(meanInFlight: number | null, why: string | undefined, slots: {n: number; from: string} | null): Fact {
  if (meanInFlight === null) return unknown(why ?? "in-flight unknown");
  if (slots !== null && meanInFlight > slots.n)
    return known(
      slots.n,
      `measured mean in flight ${meanInFlight.toFixed(2)}, capped at the server's ${slots.n} slots (${slots.from})`
    );
  return known(meanInFlight, "measured mean in flight");
}

/** A measured speed above the bound is not a speed-up: an assumption of the bound does not hold here. */
export const ABOVE_BOUND =
  "measured above the memory-bandwidth bound: the weights may stay in cache (small models on CPUs), speculative decoding may add tokens per step, or a model fact is wrong";

/** The Report's hardware block: host, model, fit, and per point the roofline fraction, cost and energy. */
export function hardwareBlock(i: HardwareInput): HardwareReport {
  const host = measuredHost(i.manifest, i.config, i.data);
  const model = modelFacts(i.manifest?.environment ?? null, i.config);
  const card = i.data.catalogue.gpus.find((g) => g.id === host.card) ?? null;
  const capacity = capacityOf(host, card);
  const mixed = mixedCards(host, i.config);
  const {bandwidth, from} = bandwidthOf(host, i.data, mixed);
  const chosen =
    i.configUnreadable === true
      ? {price: unknown("the bundle's run config did not parse: its own prices cannot be read"), from: null}
      : chosenPrice(priceKey(host.card, host.kind), i.config, i.data);
  const {price, from: priceFrom} = mixed === null ? chosen : {price: unknown(mixed), from: null};
  const intervalMs = i.config?.telemetry.interval_ms ?? 500;
  const servingCount = host.gpuCount.value ?? host.gpus.length;
  const serving = host.gpus.slice(0, servingCount).map((g) => g.index);
  // power telemetry that covers only some of the serving GPUs (hardware.gpu_count above those listed) is no total
  const partial =
    host.kind === "gpu" && servingCount > serving.length
      ? `power telemetry covers ${serving.length} of the ${servingCount} serving GPUs (hardware.gpu_count)`
      : null;
  const slots = serverSlots(i.manifest?.environment ?? null);
  const context = i.config === null ? null : i.config.workload.prompt_tokens + i.config.workload.max_tokens;
  const points = i.points.map((f): PointHardware => {
    const report = i.reports.find((r) => r.id === f.point.id);
    const batch = batchOf(f.totals.meanInFlight, f.totals.windowReason, slots);
    const ctx =
      f.cost.contextN > 0
        ? known(f.cost.contextSum / f.cost.contextN, "mean of prompt + output ÷ 2")
        : unknown("no request with token counts");
    const bound =
      batch.value !== null && ctx.value !== null
        ? decodeBound(model, bandwidth, Math.max(1, batch.value), ctx.value)
        : unknown(batch.reason ?? ctx.reason ?? "unknown");
    const measured = p50(report, "decode_tok_s");
    const fraction = fractionOf(measured, bound);
    return {
      point: f.point.id,
      batch,
      contextTokens: ctx,
      boundTokS: bound,
      measuredTokS: measured,
      fraction,
      fractionNote: fraction.value !== null && fraction.value > 1 ? ABOVE_BOUND : null,
      cost: pointCost(f.cost, f.totals.windowS, price, priceFrom, host.gpuCount),
      energy:
        partial !== null
          ? noEnergy(partial)
          : windowEnergy(
              i.gpuSamples,
              f.totals.windowS === null ? null : f.windowsNs,
              serving,
              f.cost.outTokens,
              maxPowerGapNs(intervalMs)
            )
    };
  });
  return {
    host,
    model,
    bandwidth,
    bandwidthFrom: from,
    fit: {
      capacity,
      run: context === null ? null : fitRow(model, capacity, context, runConcurrency(i.points)),
      server: serverMemory(i.scrapes)
    },
    points
  };
}
