import type {DerivedRequest} from "../derive/request.ts";
import {judgeSlo} from "../metrics/goodput.ts";
import {metricById, requestSample} from "../metrics/registry.ts";
import type {RequestMetric} from "../metrics/types.ts";
import {caseMeta, headlineTier, sortTiers, type CaseMeta} from "../schema/cases.ts";
import type {SloConfig} from "../schema/config.ts";
import {summarize, type Summary} from "../stats/summarize.ts";
import {workloadBlock, type WorkloadBlock} from "../workload/block.ts";
import {caseGroup, type PrefixCacheFacts} from "../workload/log.ts";

/**
 * Performance of the case suite, from the request records that carry a caseId. These requests are kept
 * out of the load points (their prompts, lengths and dispatch differ), and summarised per case and tier:
 * success rate, SLO pass rate (failures stay in the denominator) and the request metrics of the registry.
 */
export const CASE_METRICS = [
  "ttft_ms",
  "e2e_ms",
  "decode_tok_s",
  "itl_ms",
  "prefill_tok_s",
  "output_tokens",
  "input_tokens"
] as const;

export interface CaseTierReport {
  /** null for an untiered case. */
  tier: string | null;
  /** How the requests were dispatched: suite-c1 (one at a time), suite-cN (N in flight), or the load point id they ran under. */
  point: string;
  n: number;
  n_success: number;
  success_rate: number | null;
  /** Requests meeting every per-request SLO (goodput); failures count as misses. */
  slo_pass: number;
  /** Requests whose SLO verdict is unknown (output tokens missing): they stay in the denominator as misses. */
  slo_unknown: number;
  /** slo_pass / n (null when no request was measured, or none of the successes could be judged). */
  slo_rate: number | null;
  finish_reasons: Record<string, number>;
  metrics: Record<string, Summary>;
  /**
   * The prefix-cache ceiling of the tier's requests against what the server served (docs/workloads.md): a
   * document shared by several items (needle depths of one length) can be served from the cache, and then
   * TTFT is not the whole prefill. null: its requests record no prompt segments (older bundles).
   */
  prefix_cache: WorkloadBlock["prefix_cache"];
}

/** Requests in flight of a suite-own dispatch label (`suite-c4` → 4), null for a load point id (under load). */
export function suiteConcurrency(point: string): number | null {
  const m = /^suite-c(\d+)$/.exec(point);
  return m ? Number(m[1]) : null;
}

export interface CaseReport {
  caseId: string;
  meta: CaseMeta | null;
  tiers: CaseTierReport[];
  /** The stated tier (heaviest tier, last round); null when the case is read over all items. */
  headlineTier: string | null;
}

const prefixOf = (f: PrefixCacheFacts | undefined): WorkloadBlock["prefix_cache"] =>
  f === undefined ? null : (workloadBlock(null, f)?.prefix_cache ?? null);

export class CaseAccumulator {
  readonly #by = new Map<string, Map<string, DerivedRequest[]>>();
  size = 0;
  /** The prefix-cache facts of the run by group (workload/log.ts), set once every request was read. */
  prefixCache: ReadonlyMap<string, PrefixCacheFacts> = new Map();

  add(d: DerivedRequest): void {
    const r = d.record;
    if (r.caseId === undefined || r.phase !== "measure") return;
    const byCase = this.#by.get(r.caseId) ?? this.#by.set(r.caseId, new Map()).get(r.caseId)!;
    const key = `${r.tier ?? ""}\u0000${r.point}`;
    const list = byCase.get(key) ?? byCase.set(key, []).get(key)!;
    list.push(d);
    this.size++;
  }

  finish(slo: SloConfig): CaseReport[] {
    const defs = CASE_METRICS.map((id) => metricById(id) as RequestMetric);
    const out: CaseReport[] = [];
    for (const [caseId, groups] of this.#by) {
      const tiers: CaseTierReport[] = [];
      for (const list of groups.values()) {
        const first = list[0]!.record;
        const success = list.filter((d) => d.success);
        let pass = 0;
        let unknown = 0;
        const finish: Record<string, number> = {};
        for (const d of list) {
          const j = judgeSlo(d, slo);
          if (j.good === true) pass++;
          else if (j.good === null) unknown++;
          const f = d.record.finishReason ?? "none";
          finish[f] = (finish[f] ?? 0) + 1;
        }
        const metrics: Record<string, Summary> = {};
        for (const m of defs) {
          const values = list.map((d) => requestSample(m, d)).filter((v): v is number => v !== null);
          metrics[m.id] = summarize(Float64Array.from(values), m.method);
        }
        tiers.push({
          tier: first.tier ?? null,
          point: first.point,
          n: list.length,
          n_success: success.length,
          success_rate: list.length > 0 ? success.length / list.length : null,
          slo_pass: pass,
          slo_unknown: unknown,
          // failed and unjudgeable requests stay in the denominator (ModelRun: only "not evaluated" stays out)
          slo_rate:
            list.length === 0 || (unknown === success.length && success.length > 0 && pass === 0)
              ? null
              : pass / list.length,
          finish_reasons: finish,
          metrics,
          prefix_cache: prefixOf(this.prefixCache.get(caseGroup(caseId, first.tier, first.point)))
        });
      }
      const labels = [...new Set(tiers.map((t) => t.tier).filter((t): t is string => t !== null))];
      const order = sortTiers(caseId, labels);
      tiers.sort(
        (a, b) =>
          (a.tier === null ? -1 : order.indexOf(a.tier)) - (b.tier === null ? -1 : order.indexOf(b.tier)) ||
          a.point.localeCompare(b.point)
      );
      out.push({caseId, meta: caseMeta(caseId) ?? null, tiers, headlineTier: headlineTier(caseId, labels)});
    }
    return out.sort((a, b) => a.caseId.localeCompare(b.caseId));
  }
}
