import {formatIssue, HEADLINE_METRICS, isSummary, type MetricValue, type Report} from "../../src/analysis/index.ts";

const fmt = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(digits);

function metricText(id: string, v: MetricValue | undefined): string {
  if (!v) return `${id}: — (not computed)`;
  if (isSummary(v)) {
    if (v.n === 0) return `${id}: — (no samples)`;
    const parts = (["p50", "p90", "p95", "p99"] as const).map(
      (k) => `${k} ${fmt(v[k])}${v[k] === null && v.withheld[k] ? "*" : ""}`
    );
    const notes = Object.values(v.withheld);
    return `${id}: mean ${fmt(v.mean)}, ${parts.join(", ")} (n=${v.n})${notes.length ? ` — *withheld: ${notes[notes.length - 1]}` : ""}`;
  }
  return `${id}: ${v.value === null ? `— (${v.reason ?? "unknown"})` : fmt(v.value, 2)}`;
}

/** The human-readable report summary: verdict, gates with reasons, per point n and headline metrics. */
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
  }
  const shown = report.issues.filter((i) => i.severity !== "info").slice(0, 20);
  if (shown.length) {
    lines.push("issues:");
    for (const i of shown) lines.push(`  ${i.severity}: ${formatIssue(i)}`);
    if (report.issues.length > shown.length) lines.push(`  … ${report.issues.length - shown.length} more`);
  }
  return lines;
}
