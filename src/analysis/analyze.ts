import {BundleAccumulator} from "./accumulate/bundle.ts";
import {POINT_REDUCERS} from "./gates/facts.ts";
import {GATES} from "./gates/registry.ts";
import {evaluateGates} from "./gates/verdict.ts";
import type {HardwareData} from "./hardware/data.ts";
import {hardwareBlock} from "./hardware/block.ts";
import {unknownHardwareIds} from "./hardware/data.ts";
import {readHeader, readRecords} from "./ingest/readBundle.ts";
import type {BundleSource} from "./ingest/source.ts";
import {addDetail, assembleReport, gateContext} from "./report/assemble.ts";
import type {Report} from "./report/types.ts";
import type {RunConfig} from "./schema/config.ts";
import type {Manifest} from "./schema/manifest.ts";
import {FILE_NAMES} from "./schema/records.ts";
import {issue, type Issue} from "./util/issues.ts";

export interface AnalyzeOptions {
  /** Keep one row per request (charts, audits). Off for large bundles. */
  keepRows?: boolean;
  /** Keep telemetry series (charts). */
  keepSeries?: boolean;
  /** The GPU catalogue, engine matrix and prices: with them the Report carries its hardware block (fit, roofline, cost, energy). */
  hardware?: HardwareData;
}

/** A bundle's Report with the manifest and config the analysis read, parsed once from the bytes it digested. */
export interface AnalyzedBundle {
  report: Report;
  /** The parsed manifest (null when absent, too large or unparsable; the report's issues say why). */
  manifest: Manifest | null;
  /** The bundle's resolved config as parsed (null when absent, too large or unparsable: no fallback). */
  config: RunConfig | null;
}

/** The Report of a bundle (see `readAndAnalyze`, which also returns the manifest and config it read). */
export async function analyzeBundle(source: BundleSource, options: AnalyzeOptions = {}): Promise<Report> {
  return (await readAndAnalyze(source, options)).report;
}

/**
 * Recomputes everything from a bundle's raw files: integrity, per-request outcomes, every metric in
 * the registry per load point, every gate, and the verdict. Pure: all reading goes through `source`.
 * Every problem found on the way lands in one list, in the order it was found.
 */
export async function readAndAnalyze(source: BundleSource, options: AnalyzeOptions = {}): Promise<AnalyzedBundle> {
  const detail = {keepRows: options.keepRows ?? false, keepSeries: options.keepSeries ?? false};
  const issues: Issue[] = [];

  // 1. read: the manifest and config, which say how to fold the records
  const header = await readHeader(source, issues);

  // 2. accumulate: every data file streamed through its schema into per-point facts, the ledger, the client log
  // the hardware block reads the raw scrapes and power samples (kept as series), whether or not the report shows them
  const keep = {...detail, keepSeries: detail.keepSeries || options.hardware !== undefined};
  const accumulator = new BundleAccumulator(header, POINT_REDUCERS, keep, issues);
  const files = await readRecords(source, header, accumulator.visitors(), issues);
  const facts = accumulator.finish();

  // 3. gates: each gate's verdict from the facts
  const read = {header, files};
  const ctx = gateContext(read, facts, issues);
  const gates = evaluateGates(GATES, ctx);

  // 4. report: metrics summarised per point, verdicts, files, issues (rows and series when asked for)
  const report = assembleReport(source.id, read, facts, ctx, gates, issues);
  addDetail(report, facts, detail);
  if (options.hardware !== undefined) {
    for (const p of unknownHardwareIds(header.parsedConfig?.hardware, options.hardware.catalogue))
      issues.push(
        issue(
          "warning",
          "hardware_unknown_id",
          FILE_NAMES.config,
          `${p.message}: ignored, so the catalogue's match and the table's price stand`,
          header.locateConfig?.(p.path).line ?? null,
          p.path.join(".")
        )
      );
    report.hardware = hardwareBlock({
      manifest: header.manifest,
      config: header.parsedConfig,
      configUnreadable: header.hasConfig && header.parsedConfig === null,
      points: ctx.points,
      reports: report.load_points,
      scrapes: facts.scrapes,
      gpuSamples: facts.gpuSamples,
      data: options.hardware
    });
  }
  return {report, manifest: header.manifest, config: header.parsedConfig};
}
