/**
 * `gate NEW --baseline OLD [--metric ttft_ms:p95 --max-regression 5%]…` (issue 18): a candidate against a
 * baseline of the same workload, the rule of src/analysis/compare/regression.ts (fail only when the lower
 * bound of the bootstrap interval of the regression exceeds the allowed regression). Exit 0 every rule holds;
 * 4 a rule fails, or none could be judged (too few samples must not pass a pipeline); 7 the candidate or the
 * baseline is not VALID; 2 the runs are not comparable (the reasons are printed) or bad usage.
 */
import {
  analyzeBundle,
  DEFAULT_RULES,
  parseRule,
  regressionGate,
  type RegressionResult,
  type RegressionRule,
  type Report
} from "../../src/analysis/index.ts";
import {max} from "d3-array";

import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {hardwareData} from "./analyze.ts";
import type {Io} from "./io.ts";

export interface BaselineOptions {
  baseline: string;
  metric?: string[];
  maxRegression?: string[];
  json?: boolean;
}

/**
 * A percentage option: "5", "5%" or "2.5%" → its number; anything else (empty, hex, exponent, a sign, above
 * `max`) is a CliError (exit 2) naming the flag and the value. `Number("")` is 0 and `Number("0x32")` 50: an unset
 * CI variable must not turn a check off.
 */
export function percentOption(flag: string, text: string, max: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const v = m === null ? NaN : Number(m[1]);
  if (!(v <= max))
    throw new CliError(`${flag} expects a percentage 0..${max} (e.g. 5 or 5%), got ${JSON.stringify(text)}`, {
      exitCode: EXIT.usage
    });
  return v;
}

const percent = (text: string): number => percentOption("--max-regression", text, 1000);

/** The rules: --metric i with --max-regression i (one --max-regression applies to every metric), or the defaults. */
export function baselineRules(o: Pick<BaselineOptions, "metric" | "maxRegression">): RegressionRule[] {
  const maxes = (o.maxRegression ?? []).map(percent);
  const metrics = o.metric ?? [];
  if (metrics.length === 0) {
    if (maxes.length > 1)
      throw new CliError(
        `${maxes.length} --max-regression values but no --metric: one applies to every default rule, or give one per --metric`,
        {exitCode: EXIT.usage}
      );
    return DEFAULT_RULES.map((r) => ({...r, maxPct: maxes[0] ?? r.maxPct}));
  }
  if (maxes.length > 1 && maxes.length !== metrics.length)
    throw new CliError(
      `give one --max-regression for all metrics or one per --metric (${metrics.length} metrics, ${maxes.length} limits)`,
      {exitCode: EXIT.usage}
    );
  return metrics.map((m, i) => {
    const rule = parseRule(m, maxes[maxes.length === 1 ? 0 : i] ?? 5);
    if (typeof rule === "string") throw new CliError(rule, {exitCode: EXIT.usage});
    return rule;
  });
}

const fmt = (x: number | null, d = 2) => (x === null ? "—" : x.toFixed(d));

/** The comparison as a small table. */
export function baselineTable(r: RegressionResult): string[] {
  const head = ["point", "metric", "baseline", "candidate", "regression [interval]", "allowed", "result"];
  const rows = r.checks.map((c) => [
    c.point,
    `${c.metric} ${c.stat}`,
    `${fmt(c.baseline)} (n=${c.nBaseline})`,
    `${fmt(c.candidate)} (n=${c.nCandidate})`,
    c.regressionPct === null ? "—" : `${fmt(c.regressionPct, 1)} % [${fmt(c.lo, 1)}, ${fmt(c.hi, 1)}]`,
    `${c.maxPct} %`,
    c.status === "not_evaluable" ? `not evaluable: ${c.reason}` : c.status.toUpperCase()
  ]);
  const widths = head.map((h, i) => Math.max(h.length, max(rows, (row) => row[i]!.length) ?? 0));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

async function analyzed(dir: string): Promise<Report> {
  try {
    return await analyzeBundle(fsBundle(dir), {keepRows: true, hardware: hardwareData()});
  } catch (e) {
    throw new CliError(`cannot analyse ${dir}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
}

export async function gateBaseline(candidateDir: string, o: BaselineOptions, io: Io): Promise<void> {
  const rules = baselineRules(o);
  const [baseline, candidate] = [await analyzed(o.baseline), await analyzed(candidateDir)];
  const notValid = [
    ["baseline", baseline],
    ["candidate", candidate]
  ].filter(([, r]) => (r as Report).verdict !== "VALID") as [string, Report][];
  if (notValid.length > 0)
    throw new CliError(
      notValid
        .map(
          ([role, r]) =>
            `the ${role} ${r.bundle} is ${r.verdict}${r.verdict_reasons[0] ? ` (${r.verdict_reasons[0]})` : ""}`
        )
        .join("; ") + ": no regression is judged on a run that is not VALID",
      {exitCode: EXIT.baselineNotValid}
    );
  const result = regressionGate(baseline, candidate, rules);
  if (o.json) io.out(JSON.stringify({baseline: baseline.bundle, candidate: candidate.bundle, ...result}, null, 2));
  if (result.status === "not_comparable")
    throw new CliError(
      `${candidate.bundle} is not comparable with the baseline ${baseline.bundle}: ${result.comparability.reasons.map((x) => x.en).join("; ")}`,
      {exitCode: EXIT.usage}
    );
  if (!o.json) {
    io.out(`candidate ${candidate.bundle} vs baseline ${baseline.bundle}`);
    for (const l of baselineTable(result)) io.out(l);
    io.out(
      `rule: fail when the lower bound of the ${result.method.level * 100} % bootstrap interval of the regression (${result.method.resamples} resamples, seed ${result.method.seed}) exceeds the allowed regression`
    );
  }
  if (result.status === "fail")
    throw new CliError(
      `regression beyond the allowed: ${result.checks.filter((c) => c.status === "fail").length} rule(s)`,
      {
        exitCode: EXIT.notValid
      }
    );
  if (result.status === "not_evaluable") {
    const open = result.checks.filter((c) => c.status === "not_evaluable");
    throw new CliError(
      `${open.length === 0 ? "no rule to judge" : `${open.length} of ${result.checks.length} rule(s) could not be judged (${open[0]!.point} ${open[0]!.metric} ${open[0]!.stat}: ${open[0]!.reason})`}: not a pass`,
      {exitCode: EXIT.notValid}
    );
  }
}
