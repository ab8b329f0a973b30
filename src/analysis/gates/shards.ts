import {max} from "d3-array";

import type {MergeFacts} from "../schema/shard.ts";
import type {BundleGate, GateContext} from "./types.ts";

/** A phase's start on every shard, from the phase_start notes of a merged bundle (merged timeline, ns). */
function phaseStarts(ctx: GateContext): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const n of ctx.client.notes) {
    if (n.event !== "phase_start" || n.detail.phase !== "measure" || n.point === null || n.shard === null) continue;
    const key = `${n.point} repeat ${n.repeat ?? 0}`;
    const byShard = out.get(key) ?? new Map<number, number>();
    if (!byShard.has(n.shard)) byShard.set(n.shard, n.tNs);
    out.set(key, byShard);
  }
  return out;
}

/** The worst start-to-start spread of the measured phases, with where it was. */
function worstSkew(starts: Map<string, Map<number, number>>, count: number) {
  let worst: {where: string; ms: number; early: number; late: number} | null = null;
  const incomplete: string[] = [];
  for (const [where, byShard] of starts) {
    if (byShard.size < count) incomplete.push(`${where} (${byShard.size} of ${count} shards)`);
    const entries = [...byShard.entries()].sort((a, b) => a[1] - b[1]);
    const ms = (entries.at(-1)![1] - entries[0]![1]) / 1e6;
    if (worst === null || ms > worst.ms) worst = {where, ms, early: entries[0]![0], late: entries.at(-1)![0]};
  }
  return {worst, incomplete};
}

/** How far the shards' placement on one timeline may be off, as a sentence. */
function uncertainty(m: MergeFacts): string {
  const hosts = new Set(m.shards.map((s) => s.host));
  const oneHost = hosts.size === 1 && !hosts.has(null);
  const known = m.shards.filter((s) => s.offsetUncertaintyMs !== null);
  const unknownSync = m.shards.filter((s) => s.timeSync.synchronized !== true).map((s) => s.index);
  const bound = max(known, (s) => s.offsetUncertaintyMs!) ?? null;
  const parts = [
    bound === null
      ? "placement on one timeline: uncertainty unknown"
      : `placement on one timeline ±${bound.toFixed(1)} ms`
  ];
  if (oneHost) parts.push("every shard ran on one host (one clock)");
  else if (unknownSync.length > 0)
    parts.push(
      `time sync not confirmed on shard ${unknownSync.join(", ")}: the window and throughput carry that host's unknown clock error`
    );
  return parts.join("; ");
}

export const shardMerge: BundleGate = {
  id: "G32",
  slug: "shard_merge",
  scope: "bundle",
  outcome: "N",
  required: false,
  title: {en: "Shards", zh: "分片"},
  description: {
    en: "A sharded experiment is judged as one: a single shard's bundle carries only its slice of the load and is inconclusive until the shards are merged (`inferscope merge`). In a merged bundle the measured phases must have started together on every shard — the spread of their starts on the merged timeline at most the tolerance, or the load was lower than declared at the edges of the window. Per-request latencies are each measured on one shard's clock; only the shared timeline (window, throughput) depends on how well the hosts' clocks agree, which is stated, and an unconfirmed time sync widens that statement without making the run inconclusive. A client-bound shard is caught by client health (G6), which takes the worst window of any shard.",
    zh: "分片实验作为一个整体判断：单个分片的证据包只承载其负载切片，合并前（`inferscope merge`）结论不确定。合并后的证据包中，各分片的测量阶段必须同时开始：合并时间轴上起始时刻的最大差不超过容差，否则窗口两端的负载低于声明值。每个请求的时延都在单个分片的时钟上测得；只有共享时间轴（窗口、吞吐）取决于各主机时钟的一致程度，这一点会被说明；时间同步未确认只会扩大该说明的不确定度，不会使结果不确定。受客户端限制的分片由客户端健康（G6）捕获，它取所有分片中最差的窗口。"
  },
  anchor: "llm-d-benchmark parallel pods (separate reports); HdrHistogram merging vs exact percentiles",
  threshold: (c) => `measured phases start within ${c.gates.max_shard_start_skew_ms} ms of each other`,
  evaluate: (ctx) => {
    const m = ctx.manifest;
    if (m?.shard !== undefined && m.shard.count > 1)
      return {
        status: "warn",
        reason: `this bundle is shard ${m.shard.index} of ${m.shard.count}: it carries 1/${m.shard.count} of the experiment's load; merge the shards (\`inferscope merge\`) for the experiment's numbers`,
        evidence: {shard: m.shard.index, count: m.shard.count}
      };
    if (m?.merge === undefined) return {status: "not_applicable", reason: "not a sharded run", evidence: {}};
    const tolerance = ctx.config.gates.max_shard_start_skew_ms;
    const {worst, incomplete} = worstSkew(phaseStarts(ctx), m.merge.count);
    // how late each shard began after --start-at is evidence; only the spread between them is judged
    const evidence = {
      shards: m.merge.count,
      worstSkewMs: worst?.ms ?? null,
      startLateMs: m.merge.shards.map((s) => (s.startLateNs === null ? null : s.startLateNs / 1e6))
    };
    const sync = uncertainty(m.merge);
    if (worst === null)
      return {status: "not_evaluable", reason: `no measured phase started on any shard; ${sync}`, evidence};
    const problems: string[] = [];
    if (incomplete.length > 0) problems.push(`measured phases missing on some shards: ${incomplete.join(", ")}`);
    if (worst.ms > tolerance)
      problems.push(
        `the shards started ${worst.where} ${worst.ms.toFixed(1)} ms apart (shard ${worst.early} first, shard ${worst.late} last) > ${tolerance} ms`
      );
    if (problems.length > 0) return {status: "warn", reason: `${problems.join("; ")}; ${sync}`, evidence};
    return {
      status: "pass",
      reason: `${m.merge.count} shards; measured phases started within ${worst.ms.toFixed(1)} ms of each other (worst: ${worst.where}); ${sync}`,
      evidence
    };
  }
};
