import {FAILURE_CLASSES} from "../derive/outcome.ts";
import {PERCENTILE_FLOORS, type PercentileKey} from "../stats/summarize.ts";
import type {PointGate} from "./types.ts";

export const successClassification: PointGate = {
  id: "G2",
  slug: "success_classification",
  scope: "point",
  outcome: "W",
  required: false,
  title: {en: "Success classification", zh: "成功判定"},
  description: {
    en: "A request succeeds only with HTTP 2xx, at least one token, a terminal marker ([DONE] or finish_reason) and no in-band error event. Failures are classified and excluded from latency, but counted in error rate and goodput.",
    zh: "请求仅在 HTTP 2xx、至少一个 token、有结束标记（[DONE] 或 finish_reason）且无流内错误事件时才算成功。失败被分类，不计入时延，但计入错误率和有效产出率。"
  },
  anchor: "vLLM PR #57519, SGLang PR #38868 (in-band errors counted as success elsewhere)",
  threshold: () => null,
  evaluatePoint: (p) => {
    const measured = p.totals.measured;
    if (measured === 0) return {status: "not_evaluable", reason: "no measured requests"};
    const failures = FAILURE_CLASSES.filter((c) => (p.outcomes[c] ?? 0) > 0).map((c) => `${c} ${p.outcomes[c]}`);
    if (failures.length === 0) return {status: "pass", reason: `all ${measured} measured requests succeeded`};
    return {
      status: "info",
      reason: `${p.totals.successes}/${measured} succeeded; ${failures.join(", ")}`,
      evidence: {outcomes: p.outcomes}
    };
  }
};

export const errorRate: PointGate = {
  id: "G3",
  slug: "error_rate",
  scope: "point",
  outcome: "I",
  required: true,
  title: {en: "Error rate", zh: "错误率"},
  description: {
    en: "Failed measured requests divided by all measured requests must not exceed the threshold (default 1 %). Reported per failure class.",
    zh: "失败的被测请求占全部被测请求的比例不得超过阈值（默认 1%），并按失败类别报告。"
  },
  anchor: "GuideLLM error-rate constraints; LLMPerf drops errors silently (counter-example)",
  threshold: (c) => `≤ ${(c.gates.max_error_rate * 100).toFixed(1)} %`,
  evaluatePoint: (p, ctx) => {
    const measured = p.totals.measured;
    if (measured === 0) return {status: "not_evaluable", reason: "no measured requests"};
    const failed = measured - p.totals.successes;
    const rate = failed / measured;
    const text = `${failed}/${measured} failed (${(rate * 100).toFixed(1)} %)`;
    return rate > ctx.config.gates.max_error_rate
      ? {status: "fail", reason: `${text} > ${(ctx.config.gates.max_error_rate * 100).toFixed(1)} %`, evidence: {rate}}
      : {status: "pass", reason: text, evidence: {rate}};
  }
};

/** The sample a VALID point needs: the configured floor, and at least the floor of the SLO percentile. */
export function sampleFloor(c: {gates: {min_samples: number}; slo: {percentile: PercentileKey}}): number {
  return Math.max(c.gates.min_samples, PERCENTILE_FLOORS[c.slo.percentile]);
}

export const sampleSize: PointGate = {
  id: "G4",
  slug: "sample_size",
  scope: "point",
  outcome: "N",
  required: true,
  title: {en: "Sample size", zh: "样本量"},
  description: {
    en: "Enough successful measured requests for the published percentiles: a median needs 5, P90 10, P95 20, P99 100. A point whose SLO percentile (slo.percentile, default P95) would be withheld cannot be VALID, so the point needs at least the larger of gates.min_samples (≥ 5; default 20) and that percentile's floor; below it the point is inconclusive and the withheld percentiles are shown as such.",
    zh: "成功的被测请求数足以发布相应分位数：中位数需 5 个，P90 需 10 个，P95 需 20 个，P99 需 100 个。SLO 分位数（slo.percentile，默认 P95）被扣留的负载点不能判为有效，因此负载点至少需要 gates.min_samples（≥ 5，默认 20）与该分位数下限中的较大者；低于此值时结论不确定，被扣留的分位数会明确标注。"
  },
  anchor: "MLPerf min_query_count; ModelRun N ≥ 5 / N ≥ 20 floors",
  threshold: (c) =>
    `≥ ${sampleFloor(c)} successful requests (min_samples ${c.gates.min_samples}, ${c.slo.percentile.toUpperCase()} floor ${PERCENTILE_FLOORS[c.slo.percentile]})`,
  evaluatePoint: (p, ctx) => {
    const n = p.totals.successes;
    const floor = sampleFloor(ctx.config);
    const withheld = (Object.entries(PERCENTILE_FLOORS) as [string, number][])
      .filter(([, f]) => n < f)
      .map(([k]) => k.toUpperCase());
    const note = withheld.length ? `; withheld: ${withheld.join(", ")}` : "";
    if (n < floor) return {status: "warn", reason: `n=${n} < ${floor}${note}`, evidence: {n}};
    return {status: "pass", reason: `n=${n}${note}`, evidence: {n}};
  }
};
