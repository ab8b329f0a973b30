import {deriveRequest, type DeriveOptions, type DerivedRequest} from "../derive/request.ts";
import {timeOrderViolations} from "../ingest/invariants.ts";
import type {BundleHeader, IngestRecord, RecordAt, RecordVisitors} from "../ingest/readBundle.ts";
import {scoreAnswer} from "../quality/answers.ts";
import {CaseAccumulator} from "../quality/cases.ts";
import {pointBlocks, type RunConfig} from "../schema/config.ts";
import {slicesOf} from "../schema/shard.ts";
import type {LoadPoint, Manifest} from "../schema/manifest.ts";
import {
  isFrozenVerdict,
  type GpuSample,
  type QualityLine,
  type QualityRecord,
  type ServerScrape,
  type SourceRecord
} from "../schema/records.ts";
import {SpecScrapeLog} from "../metrics/specDecode.ts";
import {PrefixCounterLog} from "../workload/counters.ts";
import {PrefixCacheLog} from "../workload/log.ts";
import {issue, type Issue} from "../util/issues.ts";
import {RequestLedger, type LedgerFacts} from "./ledger.ts";
import {PointAccumulator, type CoreFacts, type FactsOf} from "./point.ts";
import type {AnyPointReducer} from "./reducer.ts";
import type {PhaseScrape} from "../telemetry/serverTime.ts";
import {ClientAccumulator, TelemetryAccumulator, type ClientFacts, type TelemetryFacts} from "./telemetry.ts";

/** Everything the gates and the report need from a bundle's records, folded while they stream. */
export interface BundleFacts<P extends CoreFacts = CoreFacts> {
  /** Every declared load point, in declaration order (those without requests included). */
  points: P[];
  client: ClientFacts;
  server: TelemetryFacts;
  gpu: TelemetryFacts;
  ledger: LedgerFacts;
  /** Verdicts: scored here from the raw answers of quality.jsonl, or frozen there by an older collector. */
  quality: QualityRecord[];
  /** The verdicts of `quality` that were read as frozen in the bundle (never re-scored). */
  frozenQuality: ReadonlySet<QualityRecord>;
  sources: SourceRecord[];
  /** Case-suite requests (they carry a caseId and stay out of the load points). */
  cases: CaseAccumulator;
  /** Imported bundles: the measured derived requests per point (to recompute the source tool's numbers). */
  importedRequests: Map<string, DerivedRequest[]>;
  /** Imported bundles: each point's warmup requests (a source may report their statistics apart). */
  importedWarmups: Map<string, DerivedRequest[]>;
  /** Only with keepSeries. */
  scrapes: ServerScrape[];
  gpuSamples: GpuSample[];
  /** Every successful server scrape's queue/prefill/decode and waiting series (telemetry/serverTime.ts). */
  phaseScrapes: PhaseScrape[];
}

/**
 * Load points declared in the manifest, or derived from the config when there is no manifest (a search's
 * probes are known only from the manifest: without one, its requests are reported as of unknown points).
 */
export function declaredPoints(manifest: Manifest | null, config: RunConfig): LoadPoint[] {
  if (manifest) return manifest.loadPoints;
  return pointBlocks(config).flatMap((b) =>
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

/** How a bundle's raw records become derived requests (the bundle's version and endpoint decide). */
function deriveOptionsOf({manifest, config}: BundleHeader): DeriveOptions {
  return {
    // Bundle v1 wrote an empty-text delta as `role`; completions streams have no role chunks, so there it was empty text.
    roleIsEmptyText:
      manifest?.schemaVersion === 1 &&
      manifest.provenance.kind === "collected" &&
      config.target.endpoint === "completions",
    closeNs: config.target.timeouts.close_ms * 1e6
  };
}

/**
 * Routes each record of a bundle to what folds it: requests to their load point (or the case suite),
 * the ledger and the time-order check (each point feeds the reducers it is given); the client log, scrapes, quality and source records to theirs.
 */
export class BundleAccumulator<R extends readonly AnyPointReducer[]> {
  readonly #points = new Map<string, PointAccumulator<R>>();
  readonly #ledger: RequestLedger;
  readonly #unknownPoints = new Set<string>();
  readonly #derive: DeriveOptions;
  readonly #imported: boolean;
  readonly #issues: Issue[];
  readonly #client = new ClientAccumulator();
  readonly #server: TelemetryAccumulator<ServerScrape>;
  readonly #gpu: TelemetryAccumulator<GpuSample>;
  readonly #spec = new SpecScrapeLog();
  readonly #prefix = new PrefixCacheLog();
  readonly #prefixCounters = new PrefixCounterLog();
  readonly #config: RunConfig;
  readonly #quality: QualityRecord[] = [];
  readonly #frozenQuality = new Set<QualityRecord>();
  readonly #sources: SourceRecord[] = [];
  readonly #cases = new CaseAccumulator();
  readonly #importedRequests = new Map<string, DerivedRequest[]>();
  readonly #importedWarmups = new Map<string, DerivedRequest[]>();

  constructor(header: BundleHeader, reducers: R, options: {keepRows: boolean; keepSeries: boolean}, issues: Issue[]) {
    const declared = declaredPoints(header.manifest, header.config);
    for (const p of declared)
      this.#points.set(p.id, new PointAccumulator(p, header.config, reducers, options.keepRows));
    this.#ledger = new RequestLedger(declared, slicesOf(header.manifest));
    this.#config = header.config;
    this.#derive = deriveOptionsOf(header);
    this.#imported = header.manifest?.provenance.kind === "imported";
    this.#issues = issues;
    this.#server = new TelemetryAccumulator("server", options.keepSeries);
    this.#gpu = new TelemetryAccumulator("gpu", options.keepSeries);
  }

  visitors(): RecordVisitors {
    return {
      requests: (r, at) => this.#request(r, at),
      client_metrics: (r) => {
        this.#client.add(r);
        if (r.kind === "note") this.#ledger.note(r);
      },
      server_metrics: (r) => {
        this.#server.add(r);
        this.#spec.add(r);
        this.#prefixCounters.add(r);
      },
      gpu_metrics: (r) => this.#gpu.add(r),
      quality: (r, at) => this.#qualityLine(r, at),
      source: (r) => this.#sources.push(r),
      schedule: (r) => this.#ledger.schedule(r)
    };
  }

  #request(r: IngestRecord<"requests">, at: RecordAt): void {
    const where = `${at.file}:${at.line}`;
    if (r.caseId !== undefined) {
      this.#ledger.requestId(r.id, where, null);
      this.#timeOrder(r, at);
      const d = deriveRequest(r, this.#derive);
      this.#cases.add(d);
      this.#prefix.add(d);
      return;
    }
    const acc = this.#points.get(r.point);
    if (!acc) {
      if (!this.#unknownPoints.has(r.point))
        this.#issues.push(
          issue(
            "error",
            "unknown_point",
            at.file,
            `load point "${r.point}" is not declared in the manifest`,
            at.line,
            "point"
          )
        );
      this.#unknownPoints.add(r.point);
      return;
    }
    this.#timeOrder(r, at);
    this.#ledger.request(r, where);
    const d = deriveRequest(r, this.#derive);
    acc.add(d);
    this.#prefix.add(d);
    if (this.#imported && (r.phase === "measure" || r.phase === "warmup")) {
      const lists = r.phase === "measure" ? this.#importedRequests : this.#importedWarmups;
      const list = lists.get(r.point) ?? [];
      list.push(d);
      lists.set(r.point, list);
    }
  }

  /**
   * A raw answer is scored now by quality/'s scorers; a verdict frozen by an older collector is kept as
   * recorded (its record lacks the scorer parameters and error text needed to score it again).
   */
  #qualityLine(r: QualityLine, at: RecordAt): void {
    if (isFrozenVerdict(r)) {
      this.#quality.push(r);
      this.#frozenQuality.add(r);
      return;
    }
    const {records, specError} = scoreAnswer(r);
    if (specError !== null)
      this.#issues.push(
        issue(
          "warning",
          "quality_spec",
          at.file,
          `item "${r.itemId}" cannot be scored: ${specError}`,
          at.line,
          "scorer"
        )
      );
    for (const q of records) this.#quality.push({seq: this.#quality.length, ...q});
  }

  #timeOrder(r: IngestRecord<"requests">, at: RecordAt): void {
    for (const [field, message] of timeOrderViolations(r))
      this.#issues.push(issue("error", "time_order", at.file, message, at.line, field));
  }

  finish(): BundleFacts<CoreFacts & FactsOf<R>> {
    const points = [...this.#points.values()].map((p) => p.finish());
    // speculative-decoding counters over each point's span, once the scrapes have all been read
    if (this.#spec.hasAny) for (const f of points) f.specServer = this.#spec.window(f.spanNs);
    // the prefix-cache bound runs over the whole run in time order (a cache outlives a point), then per point
    if (this.#prefix.hasAny) {
      const byPoint = this.#prefix.facts(this.#config);
      const lengths = this.#prefix.lengths();
      for (const f of points) {
        const c = byPoint.get(f.point.id) ?? null;
        // the server's counters over the point's window, beside the per-request counts
        if (c !== null) c.server = this.#prefixCounters.window(f.spanNs);
        f.prefixCache = c;
        f.workloadLengths = lengths.get(f.point.id) ?? null;
      }
      this.#cases.prefixCache = byPoint;
    }
    return {
      points,
      client: this.#client.finish(),
      server: this.#server.facts,
      gpu: this.#gpu.facts,
      ledger: this.#ledger.finish(),
      quality: this.#quality,
      frozenQuality: this.#frozenQuality,
      sources: this.#sources,
      cases: this.#cases,
      importedRequests: this.#importedRequests,
      importedWarmups: this.#importedWarmups,
      scrapes: this.#server.series,
      gpuSamples: this.#gpu.series,
      phaseScrapes: this.#server.phases
    };
  }
}
