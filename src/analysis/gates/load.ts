import {exponentialCdf, ksTest} from "../stats/ks.ts";
import {gammaCdf} from "../stats/gamma.ts";
import type {BundleGate, PointGate} from "./types.ts";

export const achievedLoad: PointGate = {
  id: "G5",
  slug: "achieved_load",
  scope: "point",
  outcome: "I",
  required: true,
  title: {en: "Achieved load", zh: "实际负载达标"},
  description: {
    en: "The client delivered the load it claims: in closed loop the target number of requests was in flight while dispatching (time-weighted mean ≥ 95 % of target, peak = target); in open loop the achieved dispatch rate is ≥ 95 % of the scheduled rate.",
    zh: "客户端确实施加了所声称的负载：闭环模式下发送期间在途请求数达到目标（时间加权平均 ≥ 目标的 95%，峰值 = 目标）；开环模式下实际发送速率 ≥ 计划速率的 95%。"
  },
  anchor: "GuideLLM issue #487, vLLM issue #14513 (client pools silently capped)",
  threshold: (c) => `≥ ${(c.gates.min_achieved_load * 100).toFixed(0)} % of target`,
  evaluatePoint: (p, ctx) => {
    const min = ctx.config.gates.min_achieved_load;
    if (p.totals.measured === 0) return {status: "not_evaluable", reason: "no measured requests"};
    if (p.timeBaseRequest > 0) return {status: "not_evaluable", reason: "request times are not on a shared clock"};
    // importers name a point `<mode>-unknown` when the source does not record its target load
    if (ctx.imported && p.point.id.endsWith("-unknown"))
      return {status: "not_evaluable", reason: "imported: the source does not record the target load"};
    const parts: string[] = [];
    let failed = false;
    for (const rep of p.repeats) {
      if (!p.openLoop) {
        const target = p.point.value;
        const expected = Math.min(target, rep.totals.measured);
        const mean = rep.sustainedInFlight;
        // One wave (no more requests than slots): every request is dispatched in the ramp-up, so the
        // mean while dispatching says nothing about the load; the peak alone shows it.
        const oneWave = rep.totals.measured <= target;
        const ok = rep.peakInFlight >= expected && (oneWave || mean === null || mean >= min * expected);
        if (!ok) failed = true;
        parts.push(
          `r${rep.repeat}: peak ${rep.peakInFlight}/${target}${oneWave ? " (one wave)" : mean === null ? "" : `, mean ${mean.toFixed(2)} while dispatching`}`
        );
      } else {
        const scheduled =
          rep.interArrivalsS.length > 0
            ? rep.interArrivalsS.length / rep.interArrivalsS.reduce((a, b) => a + b, 0)
            : null;
        const achieved = rep.totals.dispatchRate;
        if (scheduled === null || achieved === null) {
          parts.push(`r${rep.repeat}: too few requests to measure a rate`);
          continue;
        }
        const ratio = achieved / scheduled;
        if (ratio < min) failed = true;
        parts.push(
          `r${rep.repeat}: dispatched ${achieved.toFixed(2)} req/s vs scheduled ${scheduled.toFixed(2)} (${(ratio * 100).toFixed(1)} %; target ${p.point.value})`
        );
      }
    }
    return {status: failed ? "fail" : "pass", reason: parts.join("; ")};
  }
};

export const scheduleView: PointGate = {
  id: "G7",
  slug: "schedule_view",
  scope: "point",
  outcome: "I",
  required: true,
  title: {en: "Latency from the schedule", zh: "从计划时间计时"},
  description: {
    en: "In open-loop modes latency counts from each request's scheduled send time, so client backlog shows up (no coordinated omission); the dispatch-based view is kept alongside. Closed loop schedules a request when its slot frees.",
    zh: "开环模式下时延从每个请求的计划发送时间算起，客户端积压因此可见（无协调遗漏）；同时保留基于实际发送时间的视图。闭环模式下请求在槽位空出时被计划。"
  },
  anchor: "wrk2 README (coordinated omission); MLPerf measures from scheduled time; vLLM issue #54101",
  threshold: () => "every open-loop request has a scheduled time",
  evaluatePoint: (p, ctx) => {
    if (p.totals.measured === 0) return {status: "not_evaluable", reason: "no measured requests"};
    if (ctx.imported && p.unscheduled > 0)
      return {
        status: "not_evaluable",
        reason: `imported: ${p.unscheduled} requests carry no scheduled send time (the source records dispatch times only)`
      };
    if (!p.openLoop) return {status: "pass", reason: "closed loop: scheduled = slot freed; both views kept"};
    if (p.missingSchedule > 0)
      return {status: "fail", reason: `${p.missingSchedule} open-loop requests lack a scheduled time`};
    return {status: "pass", reason: "open loop: latency measured from the schedule; dispatch view kept"};
  }
};

export const arrivalFidelity: PointGate = {
  id: "G21",
  slug: "arrival_fidelity",
  scope: "point",
  outcome: "N",
  required: false,
  title: {en: "Arrival fidelity", zh: "到达过程保真度"},
  description: {
    en: "Scheduled inter-arrival times follow the declared process: a Kolmogorov–Smirnov test against the exponential (Poisson) or gamma distribution at the target rate (p ≥ 0.01); a constant rate keeps its spacing within 1 %.",
    zh: "计划的到达间隔符合声明的过程：对目标速率下的指数（泊松）或伽马分布做 Kolmogorov–Smirnov 检验（p ≥ 0.01）；恒定速率的间隔偏差在 1% 以内。"
  },
  anchor: "vLLM get_request rescales delays to N/rate (undisclosed renormalisation)",
  threshold: () => "KS p ≥ 0.01",
  evaluatePoint: (p) => {
    if (!p.openLoop) return {status: "not_applicable", reason: "closed loop"};
    const rate = p.point.value;
    const gaps = p.repeats.flatMap((r) => r.interArrivalsS);
    if (gaps.length < 20) return {status: "not_evaluable", reason: `only ${gaps.length} inter-arrivals (< 20)`};
    if (p.point.mode === "rate") {
      const worst = Math.max(...gaps.map((g) => Math.abs(g * rate - 1)));
      return worst <= 0.01
        ? {status: "pass", reason: `constant spacing within ${(worst * 100).toFixed(2)} %`}
        : {status: "warn", reason: `spacing deviates up to ${(worst * 100).toFixed(1)} % from 1/rate`};
    }
    const shape = p.point.mode === "gamma" ? (p.point.burstiness ?? 1) : 1;
    const cdf = shape === 1 ? exponentialCdf(rate) : (x: number) => gammaCdf(x, shape, shape * rate);
    const ks = ksTest(gaps, cdf)!;
    const text = `KS D=${ks.d.toFixed(3)}, p=${ks.p.toFixed(3)} over ${ks.n} gaps vs ${p.point.mode}(${rate}/s${shape === 1 ? "" : `, shape ${shape}`})`;
    return ks.p >= 0.01 ? {status: "pass", reason: text} : {status: "warn", reason: text};
  }
};

export const warmupExcluded: BundleGate = {
  id: "G14",
  slug: "warmup_excluded",
  scope: "bundle",
  outcome: "I",
  required: false,
  title: {en: "Warmup excluded", zh: "预热已排除"},
  description: {
    en: "Warmup requests are flagged, excluded from every metric, and finished before the measured requests of the same repeat start.",
    zh: "预热请求被标记并排除在所有指标之外，且在同一轮被测请求开始前结束。"
  },
  anchor: "MLCommons Endpoints rules; SGLang issue #28706",
  threshold: () => "no overlap",
  evaluate: (ctx) => {
    const warmups = ctx.points.reduce((s, p) => s + p.phases.warmup, 0);
    const overlaps = ctx.points.flatMap((p) =>
      p.repeats.filter((r) => r.warmupOverlapsMeasure).map((r) => `${p.point.id} r${r.repeat}`)
    );
    if (overlaps.length > 0)
      return {
        status: "fail",
        reason: `warmup still running when measurement began: ${overlaps.join(", ")}`,
        evidence: {overlaps}
      };
    if (warmups === 0 && ctx.imported)
      return {
        status: "not_evaluable",
        reason: "imported: the source does not record warmup requests",
        evidence: {warmups}
      };
    if (warmups === 0) return {status: "pass", reason: "no warmup requests", evidence: {warmups}};
    return {
      status: "pass",
      reason: `${warmups} warmup requests excluded and finished before measuring`,
      evidence: {warmups}
    };
  }
};
