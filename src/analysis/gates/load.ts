import {isMeasured, type PointReducer} from "../accumulate/reducer.ts";
import {isOpenLoop, type RunConfig} from "../schema/config.ts";
import {gammaCdf, gammaTwoSidedP} from "../stats/gamma.ts";
import {exponentialCdf, ksTest} from "../stats/ks.ts";
import {concurrencyShare, ownCount, slicesOf, type Slice} from "../schema/shard.ts";
import type {BundleGate, GateContext, PointGate} from "./types.ts";

/** What the load gates read of a point's requests: schedule coverage, salting, warmup prompts sent again. */
export interface LoadFacts {
  /** Open-loop measured requests without a scheduled time. */
  missingSchedule: number;
  /** Measured requests without a scheduled time, any mode (imports record dispatch times only). */
  unscheduled: number;
  /** Measured requests sent without a salt although the workload salts prompts. */
  unsalted: number;
  /** Measured requests that sent, unsalted, a prompt a warmup request had already sent (G14). */
  replayedWarmupPrompts: number;
}

interface LoadState {
  facts: LoadFacts;
  openLoop: boolean;
  salted: boolean;
  /** Digests of unsalted warmup prompts (up to 100,000). */
  warmupPrompts: Set<string>;
}

export const loadFacts: PointReducer<LoadState, LoadFacts> = {
  init: (point, config) => ({
    facts: {missingSchedule: 0, unscheduled: 0, unsalted: 0, replayedWarmupPrompts: 0},
    openLoop: isOpenLoop(point.mode),
    salted: config.workload.salt,
    warmupPrompts: new Set()
  }),
  add: (s, d) => {
    const r = d.record;
    if (r.phase === "warmup") {
      if (r.salt === null && r.promptDigest !== null && s.warmupPrompts.size < 100_000)
        s.warmupPrompts.add(r.promptDigest);
      return;
    }
    if (!isMeasured(d)) return;
    const f = s.facts;
    if (s.openLoop && d.tSched === null) f.missingSchedule++;
    if (d.tSched === null) f.unscheduled++;
    if (r.salt === null && s.salted) f.unsalted++;
    if (r.salt === null && r.promptDigest !== null && s.warmupPrompts.has(r.promptDigest)) f.replayedWarmupPrompts++;
  },
  finish: (s) => s.facts
};

/** Users of a sessions workload with think time are not in flight while they think. */
const thinks = (c: RunConfig): boolean => c.workload.source?.kind === "sessions" && c.workload.source.think_time_s > 0;

/** Arrival processes' names in reasons. */
const shapeName = (mode: string, shape: number): string =>
  mode === "rate" ? "constant-rate" : mode === "gamma" && shape !== 1 ? `gamma(shape ${shape})` : "Poisson";

/**
 * Whether a repeat's schedule runs at the declared rate: a constant rate exactly (spacing within 1 %); a
 * random process within its sampling spread — the sum of n gaps of a gamma(k) process at rate λ is
 * Gamma(n·k, k·λ), so a schedule is off when that sum is outside its central 99.9 %.
 */
export function scheduleMatchesTarget(
  gapsS: readonly number[],
  mode: string,
  rate: number,
  shape: number
): {ok: boolean; scheduledRate: number; text: string} | null {
  const n = gapsS.length;
  if (n === 0) return null;
  let sum = 0;
  for (const g of gapsS) sum += g;
  const scheduledRate = n / sum;
  if (mode === "rate") {
    const off = Math.abs(scheduledRate / rate - 1);
    return {
      ok: off <= 0.01,
      scheduledRate,
      text: `scheduled ${scheduledRate.toFixed(2)} req/s for a target of ${rate} (${(off * 100).toFixed(2)} % off; ≤ 1 % allowed)`
    };
  }
  const p = gammaTwoSidedP(sum, n * shape, shape * rate);
  return {
    ok: p >= 0.001,
    scheduledRate,
    text: `scheduled ${scheduledRate.toFixed(2)} req/s for a target of ${rate} over ${n} ${shapeName(mode, shape)} gaps (two-sided p = ${p.toFixed(3)}${p >= 0.001 ? ", within sampling spread" : " < 0.001: not this target"})`
  };
}

/** A trace's schedule has no target rate to match: its rate is what the trace's timestamps give at this speed. */
function traceSchedule(
  gapsS: readonly number[],
  speed: number
): {ok: boolean; scheduledRate: number; text: string} | null {
  let sum = 0;
  for (const g of gapsS) sum += g;
  if (gapsS.length === 0 || sum <= 0) return null;
  const scheduledRate = gapsS.length / sum;
  return {ok: true, scheduledRate, text: `trace at ${speed}× speed: scheduled ${scheduledRate.toFixed(2)} req/s`};
}

/** The slice of a bundle that is one shard of several (judged alone), or null. */
function loneShard(ctx: GateContext): Slice | null {
  const s = ctx.manifest?.shard;
  return s !== undefined && s.count > 1 ? {index: s.index, count: s.count} : null;
}

const SHARD_SHAPE = (s: Slice) =>
  `shard ${s.index} of ${s.count}: every ${s.count}th arrival of the experiment's schedule, whose shape is judged on the merged bundle`;

/** A lone shard's schedule: its rate is stated, its shape left to the merged bundle (every n-th arrival of a Poisson plan is not Poisson). */
function shardSchedule(gapsS: readonly number[], s: Slice) {
  let sum = 0;
  for (const g of gapsS) sum += g;
  if (gapsS.length === 0 || sum <= 0) return null;
  const scheduledRate = gapsS.length / sum;
  return {ok: true, scheduledRate, text: `${SHARD_SHAPE(s)}: scheduled ${scheduledRate.toFixed(2)} req/s`};
}

export const achievedLoad: PointGate = {
  id: "G5",
  slug: "achieved_load",
  scope: "point",
  outcome: "I",
  required: true,
  title: {en: "Achieved load", zh: "实际负载达标"},
  description: {
    en: "The client delivered the load the point declares: in closed loop the target number of requests was in flight while dispatching (time-weighted mean ≥ 95 % of target, peak = target); in open loop the schedule runs at the declared target rate (a constant rate within 1 %; a Poisson or gamma schedule within its sampling spread, the central 99.9 % of the gamma law of its gap sum) and the client dispatched at ≥ 95 % of the scheduled rate.",
    zh: "客户端确实施加了负载点声明的负载：闭环模式下发送期间在途请求数达到目标（时间加权平均 ≥ 目标的 95%，峰值 = 目标）；开环模式下计划以声明的目标速率运行（恒定速率偏差 ≤ 1%；泊松或伽马计划在其抽样波动范围内，即间隔之和伽马分布的中央 99.9%），且客户端实际发送速率 ≥ 计划速率的 95%。"
  },
  anchor: "GuideLLM issue #487, vLLM issue #14513 (client pools silently capped)",
  threshold: (c) => `≥ ${(c.gates.min_achieved_load * 100).toFixed(0)} % of target; schedule at the declared rate`,
  evaluatePoint: (p, ctx) => {
    const min = ctx.config.gates.min_achieved_load;
    if (p.totals.measured === 0) return {status: "not_evaluable", reason: "no measured requests"};
    if (p.timeBaseRequest > 0) return {status: "not_evaluable", reason: "request times are not on a shared clock"};
    // importers name a point `<mode>-unknown` when the source does not record its target load
    if (ctx.imported && p.point.id.endsWith("-unknown"))
      return {status: "not_evaluable", reason: "imported: the source does not record the target load"};
    const parts: string[] = [];
    let failed = false;
    let measured = 0;
    const shard = loneShard(ctx);
    for (const rep of p.repeats) {
      if (!p.openLoop) {
        // a shard alone holds its share of the concurrency (schema/shard.ts)
        const target = shard === null ? p.point.value : concurrencyShare(shard, p.point.value);
        const expected = Math.min(target, rep.totals.measured);
        const mean = rep.sustainedInFlight;
        // One wave (no more requests than slots): every request is dispatched in the ramp-up, so the
        // mean while dispatching says nothing about the load; the peak alone shows it.
        const oneWave = rep.totals.measured <= target;
        // users of a conversation workload think between turns: only the peak shows they were all there
        const thinking = thinks(ctx.config);
        const ok = rep.peakInFlight >= expected && (oneWave || thinking || mean === null || mean >= min * expected);
        if (!ok) failed = true;
        measured++;
        parts.push(
          `r${rep.repeat}: peak ${rep.peakInFlight}/${target}${oneWave ? " (one wave)" : mean === null ? "" : `, mean ${mean.toFixed(2)} while dispatching`}${thinking && !oneWave ? " (users think between turns: judged on the peak)" : ""}`
        );
        continue;
      }
      const shape = p.point.mode === "gamma" ? (p.point.burstiness ?? 1) : 1;
      const schedule =
        shard !== null
          ? shardSchedule(rep.interArrivalsS, shard)
          : p.point.mode === "trace"
            ? traceSchedule(rep.interArrivalsS, p.point.value)
            : scheduleMatchesTarget(rep.interArrivalsS, p.point.mode, p.point.value, shape);
      const achieved = rep.totals.dispatchRate;
      if (schedule === null || achieved === null) {
        parts.push(`r${rep.repeat}: too few requests to measure a rate`);
        continue;
      }
      measured++;
      const ratio = achieved / schedule.scheduledRate;
      if (!schedule.ok || ratio < min) failed = true;
      parts.push(
        `r${rep.repeat}: ${schedule.text}; dispatched ${achieved.toFixed(2)} req/s (${(ratio * 100).toFixed(1)} % of scheduled)`
      );
    }
    if (measured === 0) return {status: "not_evaluable", reason: parts.join("; ")};
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

/** Largest share of open-loop dispatches that may start later than the lag threshold: 1 %, or 5 % below 100 requests (a p99 needs 100). */
export const lateShareAllowed = (n: number): number => (n >= 100 ? 0.01 : 0.05);

export const arrivalFidelity: PointGate = {
  id: "G21",
  slug: "arrival_fidelity",
  scope: "point",
  outcome: "N",
  required: false,
  title: {en: "Arrival fidelity", zh: "到达过程保真度"},
  description: {
    en: "The requests arrived as planned, judged on the actual dispatches, for every open-loop shape: at most 1 % of them (5 % below 100 requests) started later than the dispatch-lag threshold after their scheduled time; where a distribution is declared (Poisson, gamma) the actual inter-arrival times follow it (Kolmogorov–Smirnov p ≥ 0.01 against the target rate, from 20 gaps), and so do the planned ones (the generator); a constant-rate plan keeps its spacing within 1 %.",
    zh: "请求按计划到达，依据实际发送判断，适用于所有开环形态：最多 1%（请求少于 100 个时 5%）的请求晚于计划时间超过发送滞后阈值才开始；声明了分布（泊松、伽马）时，实际到达间隔服从该分布（对目标速率做 Kolmogorov–Smirnov 检验，p ≥ 0.01，至少 20 个间隔），计划间隔（生成器）亦然；恒定速率计划的间隔偏差在 1% 以内。"
  },
  anchor:
    "vLLM get_request rescales delays to N/rate (undisclosed renormalisation); wrk2 README (coordinated omission)",
  threshold: (c) => `≤ 1 % of dispatches > ${c.gates.max_dispatch_lag_p99_ms} ms late; KS p ≥ 0.01`,
  evaluatePoint: (p, ctx) => {
    if (!p.openLoop) return {status: "not_applicable", reason: "closed loop"};
    const lags = p.columns.get("dispatch_lag_ms");
    if (!lags || lags.length === 0) return {status: "not_evaluable", reason: "no dispatch times with a schedule"};
    const rate = p.point.value;
    const tol = ctx.config.gates.max_dispatch_lag_p99_ms;
    const parts: string[] = [];
    let bad = false;
    let late = 0;
    let worst = 0;
    for (const l of lags) {
      if (l > tol) late++;
      if (l > worst) worst = l;
    }
    const allowed = lateShareAllowed(lags.length);
    const lateText = `${late}/${lags.length} dispatches more than ${tol} ms behind schedule (worst ${worst.toFixed(1)} ms; ≤ ${allowed * 100} % allowed)`;
    if (late > allowed * lags.length) bad = true;
    parts.push(lateText);
    const shape = p.point.mode === "gamma" ? (p.point.burstiness ?? 1) : 1;
    const planned = p.repeats.flatMap((r) => r.interArrivalsS);
    const shard = loneShard(ctx);
    // a trace declares no distribution: its plan is the trace's own timestamps (over the replay speed)
    if (shard !== null) parts.push(SHARD_SHAPE(shard));
    else if (p.point.mode === "trace")
      parts.push("trace replay: the plan is the trace's timestamps, no distribution to test");
    else if (p.point.mode === "rate") {
      if (planned.length > 0) {
        let off = 0;
        for (const g of planned) off = Math.max(off, Math.abs(g * rate - 1));
        if (off > 0.01) bad = true;
        parts.push(`planned spacing within ${(off * 100).toFixed(2)} % of 1/rate`);
      }
    } else {
      const cdf = shape === 1 ? exponentialCdf(rate) : (x: number) => gammaCdf(x, shape, shape * rate);
      const name = `${p.point.mode}(${rate}/s${shape === 1 ? "" : `, shape ${shape}`})`;
      const actual = p.repeats.flatMap((r) => r.dispatchGapsS);
      for (const [what, gaps] of [
        ["actual", actual],
        ["planned", planned]
      ] as const) {
        if (gaps.length < 20) {
          parts.push(`${what} gaps: only ${gaps.length} (< 20) for a KS test`);
          continue;
        }
        const ks = ksTest(gaps, cdf)!;
        if (ks.p < 0.01) bad = true;
        parts.push(`${what} gaps KS D=${ks.d.toFixed(3)}, p=${ks.p.toFixed(3)} over ${ks.n} vs ${name}`);
      }
    }
    return {status: bad ? "warn" : "pass", reason: parts.join("; ")};
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
    en: "Warmup requests are flagged, excluded from every metric, and finished before the measured requests of the same repeat start; every repeat recorded the warmup requests it planned (a planned warmup that left no record means the measured requests may have met a cold server); and no measured request sends, unsalted, a prompt a warmup sent (the warmup would have filled a prefix cache with exactly what is measured).",
    zh: "预热请求被标记并排除在所有指标之外，且在同一轮被测请求开始前结束；每一轮都记录了计划的预热请求（计划了却没有记录，意味着被测请求可能遇到的是冷启动的服务器）；被测请求不得在未加盐的情况下发送预热已发送过的提示（否则预热会把被测的内容预先放进前缀缓存）。"
  },
  anchor: "MLCommons Endpoints rules; SGLang issue #28706",
  threshold: () => "no overlap",
  evaluate: (ctx) => {
    const warmups = ctx.points.reduce((s, p) => s + p.phases.warmup, 0);
    const overlaps = ctx.points.flatMap((p) =>
      p.repeats.filter((r) => r.warmupOverlapsMeasure).map((r) => `${p.point.id} r${r.repeat}`)
    );
    // Every repeat that measured something was planned to warm up first with point.warmup requests (a
    // shard alone: its own of them).
    let planned = 0;
    const short: string[] = [];
    const slices = slicesOf(ctx.manifest);
    for (const p of ctx.points)
      for (const r of p.repeats) {
        const warmup = slices.reduce((n, s) => n + ownCount(s, p.point.warmup), 0);
        planned += warmup;
        if (r.warmups < warmup) short.push(`${p.point.id} r${r.repeat}: ${r.warmups}/${warmup}`);
      }
    const evidence = {warmups, planned, overlaps, short};
    if (overlaps.length > 0)
      return {status: "fail", reason: `warmup still running when measurement began: ${overlaps.join(", ")}`, evidence};
    if (warmups === 0 && ctx.imported)
      return {status: "not_evaluable", reason: "imported: the source does not record warmup requests", evidence};
    const replayed = ctx.points.map((p) => [p.point.id, p.replayedWarmupPrompts] as const).filter(([, n]) => n > 0);
    if (replayed.length > 0)
      return {
        status: "warn",
        reason: `measured requests sent, unsalted, prompts the warmup had already sent (${replayed.map(([id, n]) => `${id}: ${n}`).join(", ")}): a prefix cache was warmed with exactly what was then measured`,
        evidence
      };
    if (short.length > 0)
      return {
        status: "warn",
        reason: `fewer warmup requests recorded than planned (${short.join(", ")}): the measured requests may have met a cold server`,
        evidence
      };
    if (planned === 0)
      return {
        status: "pass",
        reason:
          warmups === 0
            ? "no warmup planned"
            : `${warmups} warmup requests recorded and excluded; nothing measured after them`,
        evidence
      };
    return {
      status: "pass",
      reason: `${warmups} warmup requests (${planned} planned) excluded and finished before measuring`,
      evidence
    };
  }
};
