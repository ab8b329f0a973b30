import type {Report} from "../../src/analysis/index.ts";

type Row = NonNullable<Report["source_comparison"]>[number];

/** A number as the table shows it: six significant digits, "—" for unknown. */
const shown = (x: number | null): string => (x === null ? "—" : String(Number(x.toPrecision(6))));

const STATUSES = ["exact", "derived", "bounded", "approximate", "not_recomputable"] as const;

function findingLine(r: Row): string {
  const where = `${r.point ?? "run"}${r.repeat === undefined ? "" : ` (run ${r.repeat})`}`;
  const bound = r.bound ? ` (bound ${shown(r.bound.lower)} … ${shown(r.bound.upper)})` : "";
  const codes = r.codes.length ? `; ${r.codes.join(", ")}` : "";
  return `    ${where} ${r.metric}: reported ${shown(r.reported)} ${r.unit}, recomputed ${shown(r.recomputed)}${bound}${codes}${r.note ? ` — ${r.note}` : ""}`;
}

/**
 * An imported bundle's source comparison as text: how many of the source's numbers were recomputed and how,
 * every number the recomputation contradicts (reported ≠ recomputed), and why the rest could not be recomputed,
 * one line per reason. `--json` keeps every row (`source_comparison`). Nothing for a collected bundle.
 */
export function sourceLines(report: Report, limit = 20): string[] {
  const all = report.source_comparison ?? [];
  if (all.length === 0) return [];
  // a row the source left empty (a number it does not report, or NaN) shows our value alone: not a comparison
  const rows = all.filter((r) => r.reported !== null);
  const unreported = all.length - rows.length;
  const count = (s: (typeof STATUSES)[number]) => rows.filter((r) => r.recomputed_status === s).length;
  const findings = rows.filter((r) => r.finding);
  const lines = [
    `source comparison: ${rows.length} reported numbers; recomputed ${STATUSES.map((s) => `${s.replace("_", " ")} ${count(s)}`).join(", ")}; ${findings.length} reported ≠ recomputed${unreported ? `; ${unreported} more rows the source left empty (ours alone)` : ""}`
  ];
  if (findings.length) {
    lines.push("  reported ≠ recomputed:");
    for (const r of findings.slice(0, limit)) lines.push(findingLine(r));
    if (findings.length > limit) lines.push(`    … ${findings.length - limit} more (--json)`);
  }
  const why = new Map<string, number>();
  for (const r of rows)
    if (r.recomputed_status === "not_recomputable") {
      const reason = r.note ?? "no reason given";
      why.set(reason, (why.get(reason) ?? 0) + 1);
    }
  if (why.size) {
    lines.push("  not recomputable:");
    for (const [reason, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, limit))
      lines.push(`    ${n} number(s): ${reason}`);
  }
  return lines;
}
