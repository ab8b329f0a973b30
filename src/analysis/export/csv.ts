import {metricById} from "../metrics/registry.ts";
import type {Report} from "../report/types.ts";

/** A CSV cell: text, a number, a flag, or unknown (an empty cell; the row's note says why). */
export type Cell = string | number | boolean | null;

/**
 * Text that a spreadsheet would run as a formula (OWASP "CSV injection"): a cell beginning with =, +, -, @,
 * tab or carriage return gets a leading apostrophe, which spreadsheets show as text. Numbers are written
 * as numbers, so a negative number stays a number.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

function cell(v: Cell): string {
  if (v === null) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  const raw = String(v);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV (CRLF line ends, quoted where needed), every text cell passed through `redact` first. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly Cell[])[],
  redact = (s: string) => s
): string {
  const line = (r: readonly Cell[]) => r.map((v) => cell(typeof v === "string" ? redact(v) : v)).join(",");
  return [line(header), ...rows.map(line)].join("\r\n") + "\r\n";
}

const REQUEST_COLUMNS = [
  "id",
  "point",
  "repeat",
  "phase",
  "outcome",
  "tSchedMs",
  "tDispMs",
  "tTok1Ms",
  "tTokNMs",
  "tEndMs",
  "ttftMs",
  "e2eMs",
  "itlMs",
  "out",
  "tokenEvents",
  "good",
  "error"
] as const;

/** One row per request record (the report's rows: analyse with keepRows), times in ms since the run's origin. */
export function requestsCsv(report: Report, redact?: (s: string) => string): string {
  if (!report.rows) throw new Error("requestsCsv: the report was analysed without keepRows");
  const rows = report.rows.map((r) => REQUEST_COLUMNS.map((c) => r[c] as Cell));
  return toCsv(
    ["bundle", ...REQUEST_COLUMNS],
    rows.map((r) => [report.bundle, ...r]),
    redact
  );
}

const METRIC_COLUMNS = [
  "bundle",
  "point",
  "mode",
  "target",
  "repeats",
  "n",
  "n_success",
  "verdict",
  "metric",
  "unit",
  "n_values",
  "mean",
  "std",
  "min",
  "max",
  "p50",
  "p90",
  "p95",
  "p99",
  "value",
  "note"
] as const;

/**
 * One row per load point and metric: a distribution's n, mean, std, min, max and percentiles, or a run
 * metric's value. Unknown values are empty cells and `note` says why (a withheld percentile, a null value).
 */
export function metricsCsv(report: Report, redact?: (s: string) => string): string {
  const rows: Cell[][] = [];
  for (const p of report.load_points)
    for (const [id, m] of Object.entries(p.metrics)) {
      const head: Cell[] = [
        report.bundle,
        p.id,
        p.mode,
        p.value,
        p.repeats,
        p.n,
        p.n_success,
        p.verdict,
        id,
        metricById(id).unit
      ];
      if ("n" in m) {
        const withheld = Object.entries(m.withheld).map(([k, why]) => `${k}: ${why}`);
        const note = [...withheld, ...(m.note ? [m.note] : [])].join("; ");
        rows.push([...head, m.n, m.mean, m.std, m.min, m.max, m.p50, m.p90, m.p95, m.p99, null, note || null]);
      } else {
        const note = [m.reason, m.note].filter(Boolean).join("; ");
        rows.push([...head, null, null, null, null, null, null, null, null, null, m.value, note || null]);
      }
    }
  return toCsv(METRIC_COLUMNS, rows, redact);
}
