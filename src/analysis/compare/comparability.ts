import type {Bilingual} from "../metrics/types.ts";
import type {Report} from "../report/types.ts";

/** What a comparison needs to know about each bundle (a Report satisfies it). */
export type ComparableRun = Pick<Report, "bundle" | "measure_version" | "verdict" | "gates"> & {
  meta: Pick<Report["meta"], "model" | "workloadKey">;
};

export type CheckId = "measure_version" | "model" | "workload" | "client_health" | "verdict";

export interface ComparabilityCheck {
  id: CheckId;
  ok: boolean;
  /** The value each bundle has for this check, in input order. */
  values: {bundle: string; value: string}[];
  /** Why the check fails (null when it holds). */
  reason: Bilingual | null;
}

export interface Comparability {
  comparable: boolean;
  checks: ComparabilityCheck[];
  reasons: Bilingual[];
}

/** Client health (G6) must have been judged and passed: otherwise a client bottleneck cannot be ruled out. */
function clientHealth(run: ComparableRun): string {
  return run.gates.find((g) => g.id === "G6")?.status ?? "missing";
}

const CLIENT_OK = new Set(["pass", "info", "warn"]);

function sameCheck(
  id: CheckId,
  runs: readonly ComparableRun[],
  valueOf: (r: ComparableRun) => string | null,
  what: Bilingual
): ComparabilityCheck {
  const values = runs.map((r) => ({bundle: r.bundle, value: valueOf(r) ?? "unknown"}));
  const unknown = values.filter((v) => v.value === "unknown");
  const distinct = new Set(values.map((v) => v.value));
  if (unknown.length > 0)
    return {
      id,
      ok: false,
      values,
      reason: {
        en: `${what.en} unknown for ${unknown.map((u) => u.bundle).join(", ")}: sameness cannot be shown`,
        zh: `${unknown.map((u) => u.bundle).join("、")} 的${what.zh}未知，无法证明相同`
      }
    };
  if (distinct.size > 1)
    return {
      id,
      ok: false,
      values,
      reason: {
        en: `${what.en} differs: ${[...distinct].join(" vs ")}`,
        zh: `${what.zh}不同：${[...distinct].join(" 对 ")}`
      }
    };
  return {id, ok: true, values, reason: null};
}

/**
 * Whether runs may be put side by side: the same measure version (metric definitions), the same model,
 * the same workload fingerprint, a client that was demonstrably not the bottleneck, and no INVALID verdict.
 * Every failing rule is reported, not only the first.
 */
export function comparability(runs: readonly ComparableRun[]): Comparability {
  const checks: ComparabilityCheck[] = [
    sameCheck("measure_version", runs, (r) => r.measure_version, {en: "measure version", zh: "测量口径版本"}),
    sameCheck("model", runs, (r) => r.meta.model, {en: "model", zh: "模型"}),
    sameCheck("workload", runs, (r) => r.meta.workloadKey, {en: "workload fingerprint", zh: "负载指纹"})
  ];
  const health = runs.map((r) => ({bundle: r.bundle, value: clientHealth(r)}));
  const unhealthy = health.filter((h) => !CLIENT_OK.has(h.value));
  checks.push({
    id: "client_health",
    ok: unhealthy.length === 0,
    values: health,
    reason:
      unhealthy.length === 0
        ? null
        : {
            en: `client health (G6) not shown for ${unhealthy.map((h) => `${h.bundle} (${h.value})`).join(", ")}: a client bottleneck cannot be ruled out`,
            zh: `${unhealthy.map((h) => `${h.bundle}（${h.value}）`).join("、")} 的客户端健康（G6）未通过或无法评估：不能排除客户端瓶颈`
          }
  });
  const verdicts = runs.map((r) => ({bundle: r.bundle, value: r.verdict}));
  const invalid = verdicts.filter((v) => v.value === "INVALID");
  checks.push({
    id: "verdict",
    ok: invalid.length === 0,
    values: verdicts,
    reason:
      invalid.length === 0
        ? null
        : {
            en: `INVALID verdict: ${invalid.map((v) => v.bundle).join(", ")}`,
            zh: `结论为无效：${invalid.map((v) => v.bundle).join("、")}`
          }
  });
  if (runs.length < 1)
    return {comparable: false, checks, reasons: [{en: "no bundles to compare", zh: "没有可比较的证据包"}]};
  const reasons = checks.flatMap((c) => (c.reason ? [c.reason] : []));
  return {comparable: reasons.length === 0, checks, reasons};
}

/**
 * The key under which runs are comparable with each other (same measure version, model and workload); printable
 * (it is written into pages' data attributes) and unambiguous (a JSON array of the three).
 */
export function comparabilityKey(run: Pick<ComparableRun, "measure_version" | "meta">): string | null {
  if (run.measure_version === null || run.meta.model === null) return null;
  return JSON.stringify([run.measure_version, run.meta.model, run.meta.workloadKey]);
}

/** The parts of a comparabilityKey: measure version, model, workload. */
export function comparableSet(key: string): {measureVersion: string; model: string; workload: string} {
  const [measureVersion, model, workload] = JSON.parse(key) as [string, string, string];
  return {measureVersion, model, workload};
}
