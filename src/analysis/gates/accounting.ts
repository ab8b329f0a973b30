import type {PhaseAccount, PointAccount} from "../accumulate/ledger.ts";
import type {BundleGate, GateContext, GateStatus} from "./types.ts";
import {worst} from "./verdict.ts";
import {appendAll} from "../util/append.ts";

const list = (xs: readonly (string | number)[], n: number): string =>
  `${xs.join(", ")}${n > xs.length ? ` … (${n} in all)` : ""}`;

/** What is wrong with one load point's accounting, each problem a sentence; [] when every request is accounted for. */
function problems(a: PointAccount): string[] {
  const out: string[] = [];
  if (a.scheduleMissing)
    out.push("open-loop requests without schedule.jsonl entries: the plan they were measured against is missing");
  if (a.duplicates > 0)
    out.push(`${a.duplicates} request(s) recorded twice: ${list(a.duplicateExamples, a.duplicates)}`);
  if (a.scheduleDuplicates > 0) out.push(`${a.scheduleDuplicates} schedule entr(ies) planned twice`);
  if (a.unknownShard > 0) out.push(`${a.unknownShard} record(s) of a shard this bundle does not have`);
  appendAll(out, a.planMismatch);
  if (a.unscheduled > 0)
    out.push(`${a.unscheduled} record(s) with no schedule entry: ${list(a.unscheduledExamples, a.unscheduled)}`);
  if (a.offSchedule > 0)
    out.push(
      `${a.offSchedule} scheduled time(s) differ from schedule.jsonl: ${list(a.offScheduleExamples, a.offSchedule)}`
    );
  for (const p of a.phases) {
    const where = phaseName(p);
    if (p.unplanned > 0)
      out.push(
        `${where}: ${p.unplanned} record(s) beyond the plan of ${p.planned ?? "?"} (index ${list(p.unplannedExamples, p.unplanned)})`
      );
    if (p.scheduledBeyondPlan > 0)
      out.push(`${where}: ${p.scheduledBeyondPlan} schedule entr(ies) beyond the declared ${p.planned} requests`);
    if (p.contradicted > 0) out.push(`${where}: ${p.contradicted} record(s) of requests noted as never sent`);
  }
  return out;
}

const phaseName = (p: PhaseAccount): string =>
  `${p.shard === null ? "" : `shard ${p.shard} `}repeat ${p.repeat} ${p.phase}`;

function lost(a: PointAccount): {n: number; text: string} {
  const gaps = a.phases.filter((p) => p.unaccounted > 0);
  const n = gaps.reduce((s, p) => s + p.unaccounted, 0);
  const text = gaps
    .map(
      (p) =>
        `${phaseName(p)}: ${p.unaccounted} ${p.planned === null ? `missing from indexes 0…${p.end - 1}` : `of ${p.planned}`} (index ${list(p.unaccountedExamples, p.unaccounted)})`
    )
    .join("; ");
  return {n, text};
}

function summary(phases: readonly PhaseAccount[]): string {
  const measure = phases.filter((p) => p.phase === "measure");
  const sum = (f: (p: PhaseAccount) => number) => measure.reduce((s, p) => s + f(p), 0);
  const planned = measure.some((p) => p.planned === null) ? null : sum((p) => p.planned ?? 0);
  const notSent = sum((p) => p.notSent);
  const why = [...new Set(measure.flatMap((p) => (p.notSent > 0 ? p.notSentReasons : [])))];
  const base =
    planned === null
      ? `${sum((p) => p.recorded)} measured requests recorded, indexes without gaps (the planned count is not recorded)`
      : `${planned} measured requests planned, ${sum((p) => p.recorded)} recorded`;
  return notSent > 0 ? `${base}, ${notSent} never sent (${why.join("; ")})` : base;
}

function pointOutcome(a: PointAccount, ctx: GateContext): {status: GateStatus; reason: string} {
  const bad = problems(a);
  if (bad.length > 0) return {status: "fail", reason: bad.join("; ")};
  const gone = lost(a);
  if (gone.n > 0) {
    // a complete run, or an interrupted one whose collector counts its sends, accounts for every request
    const status = ctx.manifest?.status ?? "partial";
    const accounts = status === "complete" || (status === "interrupted" && ctx.ledger.countsSends);
    return !accounts
      ? {
          status: "warn",
          reason: `${gone.n} planned request(s) have neither a record nor a not-sent note — ${status === "interrupted" ? "this bundle's collector does not note the requests a stop kept it from sending" : "the collector stopped before it could account for them"} (status ${status}): ${gone.text}`
        }
      : {
          status: "fail",
          reason: `${gone.n} planned request(s) lost — neither recorded nor noted as never sent: ${gone.text}`
        };
  }
  return {status: "pass", reason: summary(a.phases)};
}

export const requestAccounting: BundleGate = {
  id: "G30",
  slug: "request_accounting",
  scope: "bundle",
  outcome: "I",
  required: true,
  title: {en: "Request accounting", zh: "请求清点"},
  description: {
    en: "Every planned request of every load point, repeat and phase — the declared count, or the entries of schedule.jsonl — is recorded exactly once, or noted in the hashed client log as never sent and why. No record is duplicated, none lies beyond the plan, request ids are unique, and an open-loop record's scheduled time is the schedule's. A collected open-loop point needs its schedule. Requests a killed collector could not account for make the run inconclusive; lost, duplicated or added ones make it invalid. Imported bundles are judged by what their source kept: unique ids.",
    zh: "每个负载点、每次重复、每个阶段的每个计划请求（声明的数量，或 schedule.jsonl 中的条目）恰好记录一次，或在带摘要的客户端日志中注明未发送及原因。没有重复记录，没有超出计划的记录，请求 id 唯一，开环请求的计划时间与调度文件一致。采集的开环负载点必须有调度文件。被强制结束的采集器来不及清点的请求使结果不确定；丢失、重复或多出的请求使结果无效。导入的证据包按其来源保留的内容判断：id 唯一。"
  },
  anchor: "MLPerf LoadGen query accounting (every issued query completes); validity-and-faults.md (nothing lost)",
  threshold: () => "0 lost, 0 duplicated, 0 unplanned",
  evaluate: (ctx) => {
    const facts = ctx.ledger;
    const evidence = {duplicateIds: facts.duplicateIds};
    const dupIds =
      facts.duplicateIds > 0
        ? `${facts.duplicateIds} request id(s) recorded more than once: ${list(facts.duplicateIdExamples, facts.duplicateIds)}`
        : null;
    if (ctx.imported) {
      const kept = ctx.points.reduce((s, p) => s + p.phases.measure + p.phases.warmup, 0);
      return dupIds !== null
        ? {status: "fail", reason: dupIds, evidence}
        : {
            status: "pass",
            reason: `${kept} requests kept by the source, ids unique (imported: no schedule, judged by what the source kept)`,
            evidence
          };
    }
    const points = ctx.points.map((p) => {
      const a = facts.points.get(p.point.id);
      const own = a === undefined ? {status: "pass" as const, reason: "no plan"} : pointOutcome(a, ctx);
      // a point holding a record whose id another record carries fails with the bundle
      const shared = dupIds !== null && facts.duplicateIdPoints.has(p.point.id);
      return {
        point: p.point.id,
        ...(shared
          ? {status: "fail" as const, reason: own.status === "fail" ? `${own.reason}; ${dupIds}` : dupIds}
          : own)
      };
    });
    const status = worst([...points.map((p) => p.status), dupIds === null ? "pass" : "fail"]);
    const flagged = points.filter((p) => p.status === status && status !== "pass");
    const reason =
      dupIds !== null
        ? dupIds
        : status === "pass"
          ? points.length === 1
            ? points[0]!.reason
            : `every planned request of all ${points.length} load points accounted for`
          : flagged.map((p) => (points.length === 1 ? p.reason : `${p.point}: ${p.reason}`)).join("; ");
    return {
      status: points.length === 0 && dupIds === null ? "not_applicable" : status,
      reason: points.length === 0 && dupIds === null ? "no load points" : reason,
      evidence,
      points
    };
  }
};
