import type {Command} from "commander";

import {isSummary} from "../../src/analysis/index.ts";
import {CliError, EXIT} from "../cliError.ts";
import {analyzeDir} from "./analyze.ts";
import {gateBaseline, percentOption} from "./gateBaseline.ts";
import {defaultIo, type Io} from "./io.ts";
import {appendAll} from "../../src/analysis/util/append.ts";

export interface GateOptions {
  minGoodput?: string;
  /** Kept for old pipelines: every verdict other than VALID fails now without it. */
  strict?: boolean;
  /** Let INCONCLUSIVE pass (said on every such line); INVALID always fails. */
  allowInconclusive?: boolean;
  /** Issue 18: judge the one bundle against this baseline (commands/gateBaseline.ts). */
  baseline?: string;
  metric?: string[];
  maxRegression?: string[];
  json?: boolean;
}

/**
 * `gate`: a CI check over bundles. Fails (exit 4) when a bundle is not VALID — INVALID, or INCONCLUSIVE
 * (too few samples, an overloaded client…: such a run must not pass a pipeline silently; the one rule of
 * every command, docs/exit-codes.md) unless --allow-inconclusive says so explicitly — or when a load
 * point's goodput_pct is below --min-goodput (unknown goodput fails too), listing every reason.
 */
export async function gateCommand(dirs: readonly string[], o: GateOptions, io: Io): Promise<void> {
  if (o.baseline !== undefined) {
    if (dirs.length !== 1)
      throw new CliError(`--baseline compares one candidate bundle, got ${dirs.length}`, {exitCode: EXIT.usage});
    if (o.minGoodput !== undefined)
      throw new CliError(
        "--min-goodput judges bundles on their own, --baseline a candidate against a baseline: run gate once for each",
        {exitCode: EXIT.usage}
      );
    return gateBaseline(dirs[0]!, {...o, baseline: o.baseline}, io);
  }
  if (o.metric !== undefined || o.maxRegression !== undefined || o.json === true)
    throw new CliError("--metric, --max-regression and --json need --baseline OLD", {exitCode: EXIT.usage});
  let min: number | null = null;
  if (o.minGoodput !== undefined) {
    min = percentOption("--min-goodput", o.minGoodput, 100);
  }
  const failures: string[] = [];
  for (const dir of dirs) {
    const report = await analyzeDir(dir);
    const allowed = report.verdict === "INCONCLUSIVE" && o.allowInconclusive === true;
    const bad = report.verdict !== "VALID" && !allowed;
    const why: string[] = [];
    if (bad) why.push(`verdict ${report.verdict}${report.verdict_reasons[0] ? `: ${report.verdict_reasons[0]}` : ""}`);
    if (min !== null) {
      for (const p of report.load_points) {
        const g = p.metrics.goodput_pct;
        const value = g && !isSummary(g) ? g.value : null;
        if (value === null)
          why.push(`${p.id}: goodput unknown${g && !isSummary(g) && g.reason ? ` (${g.reason})` : ""}`);
        else if (value < min) why.push(`${p.id}: goodput ${value.toFixed(1)} % < ${min} %`);
      }
    }
    io.out(
      `${why.length ? "FAIL" : "PASS"} ${report.bundle} (verdict ${report.verdict}${allowed ? ", allowed by --allow-inconclusive" : ""}, ${report.load_points.length} load points)`
    );
    for (const w of why) io.out(`  ${w}`);
    appendAll(
      failures,
      why.map((w) => `${report.bundle}: ${w}`)
    );
  }
  if (failures.length > 0) throw new CliError(`gate failed: ${failures.length} reason(s)`, {exitCode: EXIT.notValid});
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

export function register(program: Command): void {
  program
    .command("gate")
    .description("CI gate over bundles: exit 0 only when every bundle is VALID and passes --min-goodput")
    .argument("<bundles...>", "bundle folders")
    .option("--min-goodput <pct>", "every load point's goodput_pct must be at least this percentage")
    .option("--allow-inconclusive", "let INCONCLUSIVE bundles pass (said on their line); INVALID always fails")
    .option("--strict", "accepted for old pipelines; INCONCLUSIVE fails by default now")
    .option("--baseline <bundle>", "regression gate: judge the one bundle against this baseline of the same workload")
    .option("--metric <metric:stat>", "with --baseline: a rule, e.g. ttft_ms:p95 (repeatable)", collect, undefined)
    .option(
      "--max-regression <pct>",
      "with --baseline: allowed regression, e.g. 5% (one, or one per --metric)",
      collect,
      undefined
    )
    .option("--json", "with --baseline: the comparison as JSON")
    .action(async (dirs: string[], o: GateOptions) => gateCommand(dirs, o, defaultIo()));
}
