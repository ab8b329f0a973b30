import {formatIssue, HEADLINE_METRICS, isSummary, type MetricValue, type Report} from "../../src/analysis/index.ts";
import {appendAll} from "../../src/analysis/util/append.ts";
import {sourceLines} from "./sourceView.ts";

const fmt = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(digits);

function metricText(id: string, v: MetricValue | undefined): string {
  if (!v) return `${id}: — (not computed)`;
  if (isSummary(v)) {
    if (v.n === 0) return `${id}: — (${v.note ?? "no samples"})`;
    const parts = (["p50", "p90", "p95", "p99"] as const).map(
      (k) => `${k} ${fmt(v[k])}${v[k] === null && v.withheld[k] ? "*" : ""}`
    );
    const notes = Object.values(v.withheld);
    return `${id}: mean ${fmt(v.mean)}, ${parts.join(", ")} (n=${v.n})${notes.length ? ` — *withheld: ${notes[notes.length - 1]}` : ""}`;
  }
  return `${id}: ${v.value === null ? `— (${v.reason ?? "unknown"})` : fmt(v.value, 2)}`;
}

const pct = (r: number | null): string => (r === null ? "—" : `${(r * 100).toFixed(1)} %`);

/** The case suite: per case the stated tier's numbers, and every quality rate with its n (not evaluated apart). */
function suiteLines(report: Report): string[] {
  const lines: string[] = [];
  for (const c of report.cases ?? []) {
    const t = c.tiers.find((x) => x.tier === c.headlineTier) ?? c.tiers[0]!;
    const at = c.headlineTier === null ? "" : ` at tier ${c.headlineTier}`;
    lines.push(
      `case ${c.caseId}${at}: ${t.n_success}/${t.n} succeeded, SLO pass ${pct(t.slo_rate)}, ttft p50 ${fmt(t.metrics.ttft_ms?.p50)} ms, decode p50 ${fmt(t.metrics.decode_tok_s?.p50)} tok/s (${c.tiers.length} tier rows)`
    );
  }
  for (const g of report.quality_summary?.groups ?? []) {
    lines.push(`quality (version ${g.qualityVersion}${g.current ? "" : ", not the current definition"}):`);
    for (const c of g.cases)
      for (const s of c.scorers) {
        const cond = s.point === null ? "idle" : `under load at ${s.point}`;
        const r = s.rate;
        const rate = r.n === 0 ? "not evaluated" : `${r.pass}/${r.n} = ${pct(r.rate)}`;
        const ne =
          r.not_evaluated > 0 && r.n > 0
            ? `, ${r.not_evaluated} not evaluated`
            : r.n === 0
              ? ` (${r.not_evaluated})`
              : "";
        const head =
          s.headlineTier === null || r.n === 0 ? "" : `; at tier ${s.headlineTier}: ${s.headline.pass}/${s.headline.n}`;
        lines.push(`  ${c.caseId} ${s.scorer} ${cond}: ${rate}${ne}${head}`);
      }
  }
  return lines;
}

/** The human-readable report summary: verdict, gates with reasons, per point n and headline metrics. */
const fact = (f: {value: number | null; reason: string | null}, unit: string, digits = 3): string =>
  f.value === null ? `— (${f.reason})` : `${Number(f.value.toPrecision(digits))}${unit}`;

/** A point's roofline fraction and cost per million output tokens (the hardware block), or nothing without it. */
function hardwareLines(report: Report, point: string): string[] {
  const h = report.hardware?.points.find((x) => x.point === point);
  if (h === undefined) return [];
  const above = h.fractionNote === null ? "" : ` (${h.fractionNote})`;
  const sparse = h.energy.sparse && h.energy.reason !== null ? ` (flagged: ${h.energy.reason})` : "";
  return [
    `  decode vs roofline: ${fact(h.measuredTokS, " tok/s")} of bound ${fact(h.boundTokS, " tok/s")} = ${h.fraction.value === null ? `— (${h.fraction.reason})` : `${(h.fraction.value * 100).toFixed(1)} %${above}`}`,
    `  cost: ${fact(h.cost.perMOutput, " $/M output tokens")}; energy: ${fact(h.energy.joulesPerOutputToken, " J/output token")}${h.energy.joulesPerOutputToken.value === null ? "" : sparse}`
  ];
}

/** A point's workload block in two lines: the prefix-cache ceiling against what was served, TTFT by turn. */
function workloadLines(p: Report["load_points"][number]): string[] {
  const w = p.workload;
  if (w === undefined) return [];
  const out: string[] = [];
  const c = w.prefix_cache;
  if (c !== null)
    out.push(
      `  prefix cache (${w.kind}): served ${c.cached_known === 0 ? "— (no cached-token counts)" : pct(c.measured_share)} of prompt tokens; ceiling ${pct(c.bound_share)} unbounded, ${pct(c.room_share)} with room for ${c.room_tokens} tokens${c.server_share === null ? "" : `; server counters ${pct(c.server_share)}`}`
    );
  if (w.turns.length > 0)
    out.push(
      `  TTFT median by turn: ${w.turns.map((t) => `${t.turn}: ${t.ttft_ms.p50 === null ? "—" : `${t.ttft_ms.p50.toFixed(1)} ms`}`).join(", ")}`
    );
  return out;
}

export function summaryLines(report: Report): string[] {
  const lines: string[] = [];
  lines.push(`bundle ${report.bundle}  status ${report.status}  verdict ${report.verdict}`);
  for (const r of report.verdict_reasons) lines.push(`  because ${r}`);
  lines.push("gates:");
  for (const g of report.gates)
    lines.push(`  ${g.id.padEnd(4)} ${g.slug.padEnd(24)} ${g.status.padEnd(14)} ${g.reason}`);
  for (const p of report.load_points) {
    lines.push(`load point ${p.id}: n=${p.n} measured, ${p.n_success} succeeded, verdict ${p.verdict}`);
    const failures = Object.entries(p.outcomes).filter(([k, n]) => k !== "success" && n > 0);
    if (failures.length) lines.push(`  failures: ${failures.map(([k, n]) => `${k} ${n}`).join(", ")}`);
    for (const m of HEADLINE_METRICS) lines.push(`  ${metricText(m.id, p.metrics[m.id])}`);
    appendAll(lines, hardwareLines(report, p.id));
    appendAll(lines, workloadLines(p));
  }
  appendAll(lines, suiteLines(report));
  appendAll(lines, sourceLines(report));
  const shown = report.issues.filter((i) => i.severity !== "info").slice(0, 20);
  if (shown.length) {
    lines.push("issues:");
    for (const i of shown) lines.push(`  ${i.severity}: ${formatIssue(i)}`);
    if (report.issues.length > shown.length) lines.push(`  … ${report.issues.length - shown.length} more`);
  }
  return lines;
}
