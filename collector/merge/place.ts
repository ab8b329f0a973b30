/**
 * Where each shard lies on the merged timeline. A shard's clock anchors pair its wall clock (ms) with its
 * monotonic clock (ns): wall − monotonic is the shard's origin in wall-clock ns, the median over its anchors;
 * the earliest shard's origin is the merged timeline's 0. The placement is as good as the wall clocks: their
 * resolution (1 ms), the drift between the anchors, and the hosts' offsets from true time where they report them.
 */
import type {Manifest} from "../../src/analysis/schema/manifest.ts";
import type {TimeSync} from "../../src/analysis/schema/shard.ts";

export interface Placement {
  /** ns added to every run-relative time of the shard. */
  offsetNs: number;
  /** ms; null when a host's offset from true time is not reported. */
  uncertaintyMs: number | null;
}

/** A shard's origin in wall-clock ns (median over its anchors) and the anchors' spread (ns). */
export function wallOrigin(anchors: Manifest["clockAnchors"]): {originNs: bigint; spreadNs: bigint} {
  if (anchors.length === 0) throw new Error("no clock anchors: the shard cannot be placed on a shared timeline");
  const origins = anchors
    .map((a) => BigInt(Date.parse(a.wall)) * 1_000_000n - BigInt(a.tNs))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {originNs: origins[Math.floor((origins.length - 1) / 2)]!, spreadNs: origins.at(-1)! - origins[0]!};
}

/** The host's own offset from true time, ms, when it reported one (chronyc); null otherwise. */
const syncErrorMs = (s: TimeSync): number | null =>
  s.synchronized === true && s.offsetMs !== null ? Math.abs(s.offsetMs) : null;

/** Each shard's placement, in the order given. */
export function placeShards(
  shards: readonly {anchors: Manifest["clockAnchors"]; timeSync: TimeSync; host: string | null}[]
): Placement[] {
  const origins = shards.map((s) => wallOrigin(s.anchors));
  let zero = origins[0]!.originNs;
  for (const o of origins) if (o.originNs < zero) zero = o.originNs;
  const zeroShard = origins.findIndex((o) => o.originNs === zero);
  const zeroError = syncErrorMs(shards[zeroShard]!.timeSync);
  return origins.map((o, k) => {
    const own = syncErrorMs(shards[k]!.timeSync);
    // both ends of the offset carry a wall clock's error, this shard's and the zero shard's — unless both
    // ran on one host, whose one clock cancels out
    const sameHost = shards[k]!.host !== null && shards[k]!.host === shards[zeroShard]!.host;
    const sync = k === zeroShard || sameHost ? 0 : own === null || zeroError === null ? null : own + zeroError;
    const resolution = k === zeroShard ? 0 : 1;
    return {
      offsetNs: Number(o.originNs - zero),
      uncertaintyMs: sync === null ? null : resolution + Number(o.spreadNs) / 1e6 + sync
    };
  });
}
