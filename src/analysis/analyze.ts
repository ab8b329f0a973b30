import {RequestLedger} from "./accumulate/ledger.ts";
import {PointAccumulator, type PointFacts} from "./accumulate/point.ts";
import {deriveRequest, type DeriveOptions, type DerivedRequest} from "./derive/request.ts";
import {GATES} from "./gates/registry.ts";
import type {ClientFacts, FileCheck, GateContext, TelemetryFacts} from "./gates/types.ts";
import {evaluateGates, verdictOf} from "./gates/verdict.ts";
import {FALLBACK_CONFIG, parseConfig, parseManifest} from "./ingest/header.ts";
import {RequestRecordIngest} from "./ingest/fastEvents.ts";
import {timeOrderViolations} from "./ingest/invariants.ts";
import {JsonlValidator} from "./ingest/jsonl.ts";
import {drain, MAX_TEXT_CHARS, readText} from "./ingest/readText.ts";
import type {BundleSource, FileStream} from "./ingest/source.ts";
import {bundleMeta} from "./meta.ts";
import {CaseAccumulator} from "./quality/cases.ts";
import {qualitySummary} from "./quality/summary.ts";
import {canonicalView, importCaveats, sourceComparison, type PointInput} from "./peers/index.ts";
import {REQUEST_METRICS, RUN_METRIC_DEFS} from "./metrics/registry.ts";
import {
  isSummary as isSummaryValue,
  type Report,
  type PointReport,
  type RunMetricValue,
  type MetricValue,
  type SummaryValue
} from "./report.ts";
import {loadBlocks, type RunConfig} from "./schema/config.ts";
import type {LoadPoint, Manifest} from "./schema/manifest.ts";
import {
  ClientRecord,
  FILE_NAMES,
  GpuSample,
  QualityRecord,
  RECORD_SCHEMAS,
  ServerScrape,
  SourceRecord,
  type RecordRole
} from "./schema/records.ts";
import {ANALYZER_VERSION} from "./schema/versions.ts";
import {stability} from "./stats/stability.ts";
import {summarize} from "./stats/summarize.ts";
import {gpuSeries, serverSeries} from "./telemetry/series.ts";
import {issue, type Issue} from "./util/issues.ts";
import {LineSplitter} from "./util/lines.ts";
import {appendAll} from "./util/append.ts";

export interface AnalyzeOptions {
  /** Keep one row per request (charts, audits). Off for large bundles. */
  keepRows?: boolean;
  /** Keep telemetry series (charts). */
  keepSeries?: boolean;
}

const REQUEST_IDS = new Set(REQUEST_METRICS.map((m) => m.id));

const ROLE_BY_NAME = new Map<string, RecordRole>(
  (Object.entries(FILE_NAMES) as [string, string][])
    .filter(([role]) => role in RECORD_SCHEMAS)
    .map(([role, name]) => [name, role as RecordRole])
);

/** Streams a JSONL file through a validator, calling `visit` for every valid record. */
async function streamJsonl<T extends {seq: number}>(
  stream: FileStream,
  validator: JsonlValidator<T>,
  visit: (record: T) => void
): Promise<void> {
  const splitter = new LineSplitter();
  for await (const chunk of stream.chunks) {
    for (const line of splitter.push(chunk)) {
      const r = validator.line(line);
      if (r !== undefined) visit(r);
    }
  }
  const {last, endedWithNewline} = splitter.finish();
  if (last !== null) {
    const r = validator.line(last);
    if (r !== undefined) visit(r);
  }
  validator.finish(endedWithNewline);
}

/** Load points declared in the manifest, or derived from the config when there is no manifest. */
function declaredPoints(manifest: Manifest | null, config: RunConfig): LoadPoint[] {
  if (manifest) return manifest.loadPoints;
  return loadBlocks(config).flatMap((b) =>
    b.values.map((v) => ({
      id: `${b.mode}-${v}`,
      mode: b.mode,
      value: v,
      repeats: b.repeats,
      requests: b.requests ?? null,
      durationS: b.duration_s ?? null,
      warmup: b.warmup,
      maxConcurrency: b.max_concurrency ?? null,
      burstiness: b.mode === "gamma" ? b.burstiness : null
    }))
  );
}

/**
 * Recomputes everything from a bundle's raw files: integrity, per-request outcomes, every metric in
 * the registry per load point, every gate, and the verdict. Pure: all reading goes through `source`.
 */
export async function analyzeBundle(source: BundleSource, options: AnalyzeOptions = {}): Promise<Report> {
  const issues: Issue[] = [];
  const files: FileCheck[] = [];
  const observed = new Map<string, {bytes: number; sha256: string}>();

  /** A small file's text; undefined when absent, null when it is too large to be what its name says. */
  const openText = async (path: string): Promise<string | null | undefined> => {
    const s = source.open(path);
    if (!s) return undefined;
    const text = await readText(s);
    observed.set(path, s.digest());
    if (text === null)
      issues.push(issue("error", "file_too_large", path, `larger than ${MAX_TEXT_CHARS / 2 ** 20} MiB: not a ${path}`));
    return text;
  };
  /** Hashes a file without keeping its text (attachments, files of no known role, however large). */
  const digestOnly = async (path: string): Promise<void> => {
    const s = source.open(path);
    if (!s) return;
    await drain(s);
    observed.set(path, s.digest());
  };
  for (const {path, reason} of source.skipped ?? [])
    issues.push(issue("warning", "not_a_file", path, `${reason}: not read (a bundle holds regular files only)`));

  const manifestText = (await openText(FILE_NAMES.manifest)) ?? null;
  let manifest: Manifest | null = null;
  if (manifestText === null && !observed.has(FILE_NAMES.manifest))
    issues.push(
      issue(
        "warning",
        "no_manifest",
        FILE_NAMES.manifest,
        "no manifest: the bundle is partial and its digests cannot be verified"
      )
    );
  else if (manifestText !== null) {
    const m = parseManifest(manifestText, FILE_NAMES.manifest);
    manifest = m.manifest;
    appendAll(issues, m.issues);
  }

  const configText = (await openText(FILE_NAMES.config)) ?? null;
  let config: RunConfig = FALLBACK_CONFIG;
  if (configText === null && !observed.has(FILE_NAMES.config))
    issues.push(
      issue("warning", "no_config", FILE_NAMES.config, "no resolved config: defaults assumed for thresholds")
    );
  else if (configText !== null) {
    const c = parseConfig(configText, FILE_NAMES.config);
    if (c.config) config = c.config;
    appendAll(issues, c.issues);
  }

  // Bundle v1 wrote an empty-text delta as `role`; completions streams have no role chunks, so there it was empty text.
  const deriveOptions: DeriveOptions = {
    roleIsEmptyText:
      manifest?.schemaVersion === 1 &&
      manifest.provenance.kind === "collected" &&
      config.target.endpoint === "completions",
    closeNs: config.target.timeouts.close_ms * 1e6
  };
  const points = new Map<string, PointAccumulator>();
  const declaredList = declaredPoints(manifest, config);
  for (const p of declaredList) points.set(p.id, new PointAccumulator(p, config, options.keepRows ?? false));
  const ledger = new RequestLedger(declaredList);
  const unknownPoints = new Set<string>();
  // Imported bundles keep their (few) derived requests so the source tool's numbers can be recomputed.
  const imported = manifest?.provenance.kind === "imported";
  const importedRequests = new Map<string, DerivedRequest[]>();

  const client: ClientFacts = {
    samples: 0,
    loop: [],
    loopDelayP99MaxMs: null,
    loopDelayMaxMs: null,
    eluMax: null,
    eluMean: null,
    notes: []
  };
  let eluSum = 0;
  let eluN = 0;
  const server: TelemetryFacts = {scrapes: 0, failed: 0, firstError: null, unavailable: null};
  const gpu: TelemetryFacts = {scrapes: 0, failed: 0, firstError: null, unavailable: null};
  const scrapes: ServerScrape[] = [];
  const gpuSamples: GpuSample[] = [];
  const quality: QualityRecord[] = [];
  const sources: SourceRecord[] = [];
  // Case-suite requests carry a caseId: summarised per case and tier, never mixed into a load point.
  const cases = new CaseAccumulator();

  const declared = new Map((manifest?.files ?? []).map((f) => [f.path, f]));
  const dataFiles = [...new Set([...declared.keys(), ...source.files])].filter(
    (p) => p !== FILE_NAMES.manifest && p !== FILE_NAMES.config
  );
  // the ledger takes the log's notes, then the schedule, then the requests
  const FIRST: readonly string[] = ["client_metrics", "schedule"];
  const rank = (p: string) => {
    const i = FIRST.indexOf(declared.get(p)?.role ?? ROLE_BY_NAME.get(p) ?? "");
    return i === -1 ? FIRST.length : i;
  };
  dataFiles.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));

  for (const path of dataFiles) {
    const role = declared.get(path)?.role ?? ROLE_BY_NAME.get(path);
    if (role === undefined || role === "config" || role === "attachment" || !path.endsWith(".jsonl")) {
      await digestOnly(path);
      continue;
    }
    const stream = source.open(path);
    if (!stream) continue;
    const tally = (t: TelemetryFacts, ok: boolean, error: string | null) => {
      // the GPU tool absent (nvidia-smi not installed): recorded once as unavailable, telemetry not captured;
      // a scrape that failed (an HTTP 404 "Not Found" included) is a gap and counts
      if (t === gpu && !ok && error !== null && /^(nvidia-smi|amd-smi|rocm-smi) not found$|\bENOENT\b/.test(error)) {
        t.unavailable = error;
        return;
      }
      t.scrapes++;
      if (!ok) {
        t.failed++;
        t.firstError ??= error;
      }
    };
    switch (role) {
      case "requests": {
        const v = new JsonlValidator(path, RequestRecordIngest);
        await streamJsonl(stream, v, (r) => {
          if (r.caseId !== undefined) {
            ledger.requestId(r.id, `${path}:${v.lines}`);
            for (const [field, message] of timeOrderViolations(r))
              issues.push(issue("error", "time_order", path, message, v.lines, field));
            return cases.add(deriveRequest(r, deriveOptions));
          }
          const acc = points.get(r.point);
          if (!acc) {
            if (!unknownPoints.has(r.point))
              issues.push(
                issue(
                  "error",
                  "unknown_point",
                  path,
                  `load point "${r.point}" is not declared in the manifest`,
                  v.lines,
                  "point"
                )
              );
            unknownPoints.add(r.point);
            return;
          }
          for (const [field, message] of timeOrderViolations(r))
            issues.push(issue("error", "time_order", path, message, v.lines, field));
          ledger.request(r, `${path}:${v.lines}`);
          const d = deriveRequest(r, deriveOptions);
          acc.add(d);
          if (imported && r.phase === "measure") {
            const list = importedRequests.get(r.point) ?? [];
            list.push(d);
            importedRequests.set(r.point, list);
          }
        });
        appendAll(issues, v.issues);
        break;
      }
      case "client_metrics": {
        const v = new JsonlValidator(path, ClientRecord);
        await streamJsonl(stream, v, (r) => {
          if (r.kind === "note") {
            client.notes.push({event: r.event, tNs: r.tNs, detail: r.detail});
            ledger.note(r);
            return;
          }
          client.samples++;
          client.loop.push({tNs: r.tNs, windowNs: r.windowNs, p99Ms: r.loopDelayP99Ms, stalls: r.stalls ?? null});
          if (r.loopDelayP99Ms !== null)
            client.loopDelayP99MaxMs = Math.max(client.loopDelayP99MaxMs ?? 0, r.loopDelayP99Ms);
          if (r.loopDelayMaxMs !== null) client.loopDelayMaxMs = Math.max(client.loopDelayMaxMs ?? 0, r.loopDelayMaxMs);
          if (r.elu !== null) {
            client.eluMax = Math.max(client.eluMax ?? 0, r.elu);
            eluSum += r.elu;
            eluN++;
          }
        });
        appendAll(issues, v.issues);
        break;
      }
      case "server_metrics": {
        const v = new JsonlValidator(path, ServerScrape);
        await streamJsonl(stream, v, (r) => {
          tally(server, r.ok, r.error);
          if (options.keepSeries) scrapes.push(r);
        });
        appendAll(issues, v.issues);
        break;
      }
      case "gpu_metrics": {
        const v = new JsonlValidator(path, GpuSample);
        await streamJsonl(stream, v, (r) => {
          tally(gpu, r.ok, r.error);
          if (options.keepSeries) gpuSamples.push(r);
        });
        appendAll(issues, v.issues);
        break;
      }
      case "quality": {
        const v = new JsonlValidator(path, QualityRecord);
        await streamJsonl(stream, v, (r) => quality.push(r));
        appendAll(issues, v.issues);
        break;
      }
      case "source": {
        const v = new JsonlValidator(path, SourceRecord);
        await streamJsonl(stream, v, (r) => sources.push(r));
        appendAll(issues, v.issues);
        break;
      }
      case "schedule": {
        const v = new JsonlValidator(path, RECORD_SCHEMAS.schedule);
        await streamJsonl(stream, v, (r) => ledger.schedule(r));
        appendAll(issues, v.issues);
        break;
      }
    }
    observed.set(path, stream.digest());
  }
  client.eluMean = eluN ? eluSum / eluN : null;

  for (const path of [...new Set([...declared.keys(), ...observed.keys()])].sort()) {
    const d = declared.get(path);
    files.push({path, declared: d ? {bytes: d.bytes, sha256: d.sha256} : null, observed: observed.get(path) ?? null});
  }

  const facts: PointFacts[] = [...points.values()].map((p) => p.finish());
  const ctx: GateContext = {
    manifest,
    config,
    issues,
    files: files.filter((f) => f.path !== FILE_NAMES.manifest),
    points: facts.filter((f) => f.phases.measure + f.phases.warmup > 0 || manifest !== null),
    client,
    server,
    gpu,
    imported: manifest?.provenance.kind === "imported",
    ledger: ledger.finish()
  };
  const gates = evaluateGates(GATES, ctx);
  const {verdict, reasons} = verdictOf(GATES, gates);

  const loadPoints: PointReport[] = ctx.points.map((f) => pointReport(f, gates, config.gates.token_tolerance));

  const report: Report = {
    bundle: manifest?.bundleId ?? source.id,
    schema_version: manifest?.schemaVersion ?? null,
    measure_version: manifest?.measureVersion ?? null,
    analyzer_version: ANALYZER_VERSION,
    status: manifest?.status ?? "partial",
    provenance: manifest?.provenance ?? null,
    verdict,
    verdict_reasons: reasons,
    gates,
    load_points: loadPoints,
    issues,
    files,
    meta: bundleMeta(manifest, configText === null ? null : config, ctx.points),
    quality,
    sources
  };
  if (cases.size > 0) report.cases = cases.finish(config.slo);
  if (quality.length > 0) report.quality_summary = qualitySummary(quality);
  if (sources.length > 0) {
    const inputs = new Map<string, PointInput>(
      facts.map((f) => [f.point.id, {requests: importedRequests.get(f.point.id) ?? [], canonical: canonicalView(f)}])
    );
    const comparison = sourceComparison(sources, inputs);
    report.source_comparison = comparison.rows;
    appendAll(issues, comparison.issues);
    for (const c of importCaveats(sources))
      for (const p of report.load_points) {
        const m = c.point === null || c.point === p.id ? p.metrics[c.metric] : undefined;
        if (m !== undefined && (isSummaryValue(m) ? m.n > 0 : m.value !== null))
          m.note = m.note === undefined ? c.note : `${m.note}; ${c.note}`;
      }
  }
  if (options.keepRows) report.rows = facts.flatMap((f) => f.rows);
  if (options.keepSeries) {
    report.series = [...serverSeries(scrapes), ...gpuSeries(gpuSamples)];
    report.notes = client.notes.map((n) => ({event: n.event, tS: n.tNs / 1e9, detail: n.detail}));
  }
  return report;
}

/** Metrics whose values rest on the server's output token count (G8 states when the stream disagrees). */
const COUNT_BASED = new Set([
  "tpot_ms",
  "itl_ms",
  "decode_tok_s",
  "interactivity_tok_s",
  "e2e_output_tok_s",
  "output_tokens",
  "output_throughput_tok_s",
  "input_output_throughput_tok_s",
  "tokens_per_chunk",
  "interactivity_share_tok_s"
]);

/** The caveat of count-based metrics when the server's counts and the stream disagree (G8), else null. */
function countCaveat(f: PointFacts, tol: number): string | null {
  const t = f.tokens;
  const surplus = t.sumOutNoDeltas > t.sumStreamNoDeltas * (1 + tol);
  const bad = t.undercount + t.contradicted + (surplus ? t.unverified : 0);
  if (bad === 0 && !surplus) return null;
  return `output token counts of ${bad}/${t.checked} requests disagree with the stream (server Σ ${t.sumOut} vs stream Σ ${t.sumStream}; G8): values computed from the server's counts`;
}

function pointReport(f: PointFacts, gates: Report["gates"], tolerance: number): PointReport {
  const metrics: Record<string, MetricValue> = {};
  const caveat = countCaveat(f, tolerance);
  for (const [id, values] of f.columns) {
    const s: SummaryValue = summarize(values);
    if (f.repeats.length >= 2 && REQUEST_IDS.has(id)) {
      const per = f.repeats.map((r) => r.medians.get(id) ?? null).filter((v): v is number => v !== null);
      s.stability = stability(per);
      if (per.length < f.repeats.length)
        s.stability.note = `${s.stability.note === null ? "" : `${s.stability.note}; `}${f.repeats.length - per.length} of ${f.repeats.length} repeats have fewer than 5 values (no median)`;
    }
    if (caveat !== null && COUNT_BASED.has(id) && s.n > 0) s.note = caveat;
    metrics[id] = s;
  }
  for (const m of RUN_METRIC_DEFS) {
    const pooled: RunMetricValue = {...m.value(f.totals)};
    if (caveat !== null && COUNT_BASED.has(m.id) && pooled.value !== null)
      pooled.note = pooled.note === undefined ? caveat : `${pooled.note}; ${caveat}`;
    if (f.repeats.length >= 2) {
      const per = f.repeats.map((r) => m.value(r.totals).value).filter((v): v is number => v !== null);
      pooled.stability = stability(per);
    }
    metrics[m.id] = pooled;
  }
  const pointGates = gates.map((g) => {
    const own = g.points?.find((p) => p.point === f.point.id);
    return own ? {...g, status: own.status, reason: own.reason} : g;
  });
  const {verdict, reasons} = verdictOf(GATES, pointGates);
  return {
    id: f.point.id,
    mode: f.point.mode,
    value: f.point.value,
    repeats: f.repeats.length,
    n: f.totals.measured,
    n_success: f.totals.successes,
    n_warmup: f.phases.warmup,
    verdict,
    verdict_reasons: reasons,
    outcomes: f.outcomes as Record<string, number>,
    failures: f.failureExamples,
    finish_reasons: f.finishReasons,
    usage_sources: f.usageSources,
    metrics
  };
}
