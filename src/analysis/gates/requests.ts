import {FAILURE_CLASSES} from "../derive/outcome.ts";
import {PERCENTILE_FLOORS, type PercentileKey} from "../stats/summarize.ts";
import type {PointSourceCounts} from "./sourceCounts.ts";
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

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;

/** What the source tool counted at a point (imports), as a reason's clause. */
function sourceText(s: PointSourceCounts): string {
  const runs = s.runs > 1 ? ` over ${s.runs} runs` : "";
  return `${s.tool} counted ${s.failed}/${s.counted} failed${runs} (${percent(s.failed / s.counted)})`;
}

export const errorRate: PointGate = {
  id: "G3",
  slug: "error_rate",
  scope: "point",
  outcome: "I",
  required: true,
  title: {en: "Error rate", zh: "错误率"},
  description: {
    en: "Failed measured requests divided by all measured requests must not exceed the threshold (default 1 %). Reported per failure class. An imported file that keeps no per-request results (or a sample of them) is judged by the source tool's own counts where it states them: a request the tool counts as failed fails here too, so a failed share above the threshold fails the gate; a lower one is not a pass, because the tool's definition of success may be looser than ours.",
    zh: "失败的被测请求占全部被测请求的比例不得超过阈值（默认 1%），并按失败类别报告。若导入的文件不含逐请求结果（或只含其抽样），在源工具给出自身计数时按其计数判定：源工具判为失败的请求在此同样失败，故失败比例超过阈值即判不通过；低于阈值不算通过，因为源工具对成功的定义可能比我们宽松。"
  },
  anchor: "GuideLLM error-rate constraints; LLMPerf drops errors silently (counter-example)",
  threshold: (c) => `≤ ${percent(c.gates.max_error_rate)}`,
  evaluatePoint: (p, ctx) => {
    const max = ctx.config.gates.max_error_rate;
    const counts = ctx.sourceCounts.get(p.point.id);
    const source = counts && counts.counted > 0 ? counts : undefined;
    const measured = p.totals.measured;
    if (measured === 0) {
      if (!source) return {status: "not_evaluable", reason: "no measured requests"};
      const sourceRate = source.failed / source.counted;
      const text = `no request records; ${sourceText(source)}`;
      return sourceRate > max
        ? {status: "fail", reason: `${text} > ${percent(max)}`, evidence: {rate: sourceRate, source}}
        : {
            status: "not_evaluable",
            reason: `${text}, by its own definition of success, which cannot be checked without the requests`,
            evidence: {sourceRate, source}
          };
    }
    const failed = measured - p.totals.successes;
    const rate = failed / measured;
    const text = `${failed}/${measured} failed (${percent(rate)})`;
    if (rate > max) return {status: "fail", reason: `${text} > ${percent(max)}`, evidence: {rate}};
    if (source && source.failed / source.counted > max) {
      const part = measured < source.counted ? `, which keep ${measured} of its ${source.counted} requests` : "";
      return {
        status: "fail",
        reason: `${text} in the records${part}; ${sourceText(source)} > ${percent(max)}`,
        evidence: {rate: source.failed / source.counted, recordRate: rate, source}
      };
    }
    return {status: "pass", reason: text, evidence: {rate}};
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
