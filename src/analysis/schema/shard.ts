/**
 * Shards (issue 17): one experiment split across collector processes. Shard k of n sends the ordinals i with
 * i mod n = k of every phase's plan (open loop: the global seeded schedule; closed loop: the request count),
 * the conversations s with s mod n = k (sessions: each whole, on one shard), and a share of the closed-loop
 * concurrency (a sessions run's users). The math of that
 * slice lives here once: the collector plans by it, the analyzer accounts by it.
 */
import {z} from "zod";

import {IsoTime, NonNegInt, Sha256, Slug} from "./primitives.ts";

/**
 * Which slice of an experiment's ordinals a shard owns. Ordinals are dealt in units of `group` consecutive
 * ordinals (default 1): unit u = ⌊i / group⌋ goes to shard u mod count. A sessions run deals whole
 * conversations (group = turns: request s·K + t is turn t + 1 of conversation s), so that no conversation is
 * split between shards.
 */
export interface Slice {
  index: number;
  count: number;
  /** Ordinals per dealt unit (a conversation's turns); absent: 1. */
  group?: number | undefined;
}

/** The whole experiment (an unsharded run). */
export const WHOLE: Slice = {index: 0, count: 1};

/**
 * How far from now a shard's start time (`--start-at`) may lie. Further ahead is a typo (and a wait no timer
 * holds); further back, a shard would start as another experiment than the others.
 */
export const START_AT_WINDOW_MS = 24 * 3600 * 1000;

const groupOf = (s: Slice): number => s.group ?? 1;

/** How many of the units 0 … units − 1 the slice owns (none while units ≤ index: the floor is then −1). */
const ownUnits = (s: Slice, units: number): number => Math.floor((units - 1 - s.index) / s.count) + 1;

/** Does the slice own ordinal i? */
export const owns = (s: Slice, i: number): boolean => Math.floor(i / groupOf(s)) % s.count === s.index;

/** How many of the ordinals 0 … total − 1 the slice owns (a cut unit at the end counts its part). */
export function ownCount(s: Slice, total: number): number {
  const g = groupOf(s);
  const units = Math.floor(total / g);
  const rest = total - units * g;
  return ownUnits(s, units) * g + (units % s.count === s.index ? rest : 0);
}

/** The slice's j-th ordinal (j from 0). */
export function globalOrdinal(s: Slice, j: number): number {
  const g = groupOf(s);
  return (s.index + Math.floor(j / g) * s.count) * g + (j % g);
}

/** The position of ordinal i among the slice's own (i must be owned). */
export function localOrdinal(s: Slice, i: number): number {
  const g = groupOf(s);
  return ((Math.floor(i / g) - s.index) / s.count) * g + (i % g);
}

/** The slice's own ordinals among the global ordinals from … to, as its local ordinals (null: none). */
export function ownRange(s: Slice, from: number, to: number): {from: number; to: number} | null {
  const lo = ownCount(s, from);
  const hi = ownCount(s, to + 1) - 1;
  return hi >= lo ? {from: lo, to: hi} : null;
}

/**
 * The shard's part of a closed-loop concurrency (or a sessions run's users): ⌊c / n⌋, one more for the first
 * c mod n shards, so the parts add up to c.
 */
export const concurrencyShare = (s: Slice, concurrency: number): number =>
  Math.floor(concurrency / s.count) + (s.index < concurrency % s.count ? 1 : 0);

/** "k/n" → a slice (k from 0); a message naming the value when it is not one. */
export function parseSlice(text: string): Slice | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (m === null) return `expected K/N (shard K of N, K from 0), got "${text}"`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 4096) return `the shard count must be 1 … 4096, got ${count}`;
  if (index >= count) return `shard index ${index} is not below the shard count ${count} (K counts from 0)`;
  return {index, count};
}

/** The host's time synchronisation as it reported it (chronyc, timedatectl), or unknown. */
export const TimeSync = z
  .strictObject({
    source: z.enum(["chronyc", "timedatectl"]).nullable().describe("the tool that answered; null: none did"),
    synchronized: z.boolean().nullable().describe("the host says its clock is synchronised; null: unknown"),
    offsetMs: z
      .number()
      .nullable()
      .describe("chronyc: the system clock's offset from NTP time, ms (positive: fast); null: not reported"),
    raw: z.string().nullable().describe("the tool's output, kept raw (bounded)"),
    reason: z.string().nullable().describe("why it is unknown")
  })
  .describe("the host's clock synchronisation, which bounds how well shards' wall clocks agree");
export type TimeSync = z.infer<typeof TimeSync>;

/** How many consecutive ordinals a shard is dealt at a time (Slice.group), as a manifest records it. */
const DealtUnit = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "ordinals dealt to a shard as one unit: a conversation's turns (sessions, so that none is split); absent: 1"
  );

/** What one shard's bundle says about itself. */
export const ShardIdentity = z
  .strictObject({
    index: NonNegInt.describe("k: this shard sends the ordinals i with i mod count = k"),
    count: z.number().int().min(1).describe("n: shards of the experiment"),
    group: DealtUnit,
    planSha256: Sha256.describe(
      "sha256 of the experiment's plan (resolved config, shard count, start time): equal across its shards"
    ),
    startAt: IsoTime.nullable().describe("the absolute start every shard waited for (--start-at)"),
    startLateNs: z
      .number()
      .int()
      .nullable()
      .describe("how late this shard began its load after startAt (monotonic, from the wall clock's mapping)"),
    timeSync: TimeSync
  })
  .describe("issue 17: this bundle is one shard of a sharded experiment");
export type ShardIdentity = z.infer<typeof ShardIdentity>;

/** One shard of a merged bundle. */
export const MergedShard = z.strictObject({
  index: NonNegInt,
  bundleId: Slug,
  manifestSha256: Sha256.describe("sha256 of the shard bundle's manifest.json as merged"),
  host: z.string().nullable(),
  offsetNs: NonNegInt.describe(
    "added to every run-relative time of this shard's records to place them on the merged timeline"
  ),
  offsetUncertaintyMs: z
    .number()
    .nonnegative()
    .nullable()
    .describe(
      "how far the placement may be off: the wall clocks' resolution and anchor spread plus the hosts' reported sync offsets; null when a host's sync is unknown"
    ),
  startLateNs: z.number().int().nullable(),
  timeSync: TimeSync
});
export type MergedShard = z.infer<typeof MergedShard>;

export const MergeFacts = z
  .strictObject({
    planSha256: Sha256,
    count: z.number().int().min(1),
    group: DealtUnit,
    shards: z.array(MergedShard).min(1),
    telemetryFrom: NonNegInt.describe(
      "the shard whose server and GPU telemetry the merged bundle keeps (one scrape series of one server, not n)"
    )
  })
  .describe("issue 17: this bundle merges the shards of one experiment; every record names its shard");
export type MergeFacts = z.infer<typeof MergeFacts>;

/** A slice with its unit size when it deals more than one ordinal at a time. */
const withGroup = (s: Slice, group: number | undefined): Slice =>
  group === undefined || group === 1 ? s : {...s, group};

/**
 * The slices a bundle accounts for: every one of a merged bundle's n (a shard missing from it is then
 * unaccounted for, never silently left out of the plan), a shard's own, or the whole run.
 */
export function slicesOf(m: {shard?: ShardIdentity | undefined; merge?: MergeFacts | undefined} | null): Slice[] {
  if (m?.merge !== undefined) {
    const {count, group} = m.merge;
    return Array.from({length: count}, (_, index) => withGroup({index, count}, group));
  }
  if (m?.shard !== undefined) return [withGroup({index: m.shard.index, count: m.shard.count}, m.shard.group)];
  return [WHOLE];
}
