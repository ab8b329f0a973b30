import type {BundleFacts} from "../accumulate/bundle.ts";
import {GATES} from "../gates/registry.ts";
import {sourceCountsByPoint} from "../gates/sourceCounts.ts";
import type {GateContext, GateResult, PointFacts} from "../gates/types.ts";
import {verdictOf} from "../gates/verdict.ts";
import type {BundleRead} from "../ingest/readBundle.ts";
import {bundleMeta} from "../meta.ts";
import {canonicalView, importCaveats, sourceComparison, type PointInput} from "../peers/index.ts";
import {qualitySummary} from "../quality/summary.ts";
import {FILE_NAMES} from "../schema/records.ts";
import {ANALYZER_VERSION} from "../schema/versions.ts";
import {gpuSeries, serverSeries} from "../telemetry/series.ts";
import {appendAll} from "../util/append.ts";
import type {Issue} from "../util/issues.ts";
import {addLoadFindings} from "./loadFindings.ts";
import {pointReport} from "./point.ts";
import {isSummary, type Report} from "./types.ts";

/** What the gates see: the header, the files, the points that have requests (all of them with a manifest), the facts. */
export function gateContext(
  {header, files}: BundleRead,
  facts: BundleFacts<PointFacts>,
  issues: readonly Issue[]
): GateContext {
  const {manifest, config} = header;
  return {
    manifest,
    config,
    issues,
    files: files.filter((f) => f.path !== FILE_NAMES.manifest),
    points: facts.points.filter((f) => f.phases.measure + f.phases.warmup > 0 || manifest !== null),
    client: facts.client,
    server: facts.server,
    gpu: facts.gpu,
    imported: manifest?.provenance.kind === "imported",
    ledger: facts.ledger,
    sourceCounts: sourceCountsByPoint(facts.sources)
  };
}

/** The report of one bundle, from what was read, the facts folded from its records and the gates' results. */
export function assembleReport(
  bundleId: string,
  read: BundleRead,
  facts: BundleFacts<PointFacts>,
  ctx: GateContext,
  gates: GateResult[],
  issues: Issue[]
): Report {
  const {manifest, config, hasConfig} = read.header;
  const {verdict, reasons} = verdictOf(GATES, gates);
  const report: Report = {
    bundle: manifest?.bundleId ?? bundleId,
    schema_version: manifest?.schemaVersion ?? null,
    measure_version: manifest?.measureVersion ?? null,
    analyzer_version: ANALYZER_VERSION,
    status: manifest?.status ?? "partial",
    provenance: manifest?.provenance ?? null,
    verdict,
    verdict_reasons: reasons,
    gates,
    load_points: ctx.points.map((f) => pointReport(f, gates, config.gates.token_tolerance)),
    issues,
    files: read.files,
    meta: bundleMeta(manifest, hasConfig ? config : null, ctx.points),
    quality: facts.quality,
    sources: facts.sources
  };
  addLoadFindings(report, ctx.points, facts, config, gates);
  if (facts.cases.size > 0) report.cases = facts.cases.finish(config.slo);
  if (facts.quality.length > 0)
    report.quality_summary = qualitySummary(facts.quality, (r) => facts.frozenQuality.has(r));
  if (facts.sources.length > 0) addSourceComparison(report, facts, issues);
  return report;
}

/** Imported bundles: the source tool's numbers against ours, and the import's caveats on our metrics. */
function addSourceComparison(report: Report, facts: BundleFacts<PointFacts>, issues: Issue[]): void {
  const inputs = new Map<string, PointInput>(
    facts.points.map((f) => [
      f.point.id,
      {
        requests: facts.importedRequests.get(f.point.id) ?? [],
        warmup: facts.importedWarmups.get(f.point.id) ?? [],
        canonical: canonicalView(f)
      }
    ])
  );
  const comparison = sourceComparison(facts.sources, inputs);
  report.source_comparison = comparison.rows;
  appendAll(issues, comparison.issues);
  for (const c of importCaveats(facts.sources))
    for (const p of report.load_points) {
      const m = c.point === null || c.point === p.id ? p.metrics[c.metric] : undefined;
      if (m !== undefined && (isSummary(m) ? m.n > 0 : m.value !== null))
        m.note = m.note === undefined ? c.note : `${m.note}; ${c.note}`;
    }
}

/** Rows (keepRows) and telemetry series with the client's notes (keepSeries), for charts and audits. */
export function addDetail(
  report: Report,
  facts: BundleFacts<PointFacts>,
  options: {keepRows: boolean; keepSeries: boolean}
): void {
  if (options.keepRows) report.rows = facts.points.flatMap((f) => f.rows);
  if (options.keepSeries) {
    report.series = [...serverSeries(facts.scrapes), ...gpuSeries(facts.gpuSamples)];
    report.notes = facts.client.notes.map((n) => ({event: n.event, tS: n.tNs / 1e9, detail: n.detail}));
  }
}
