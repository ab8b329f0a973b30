import {z} from "zod";

import {FAILURE_CLASSES} from "../derive/outcome.ts";
import {GateResult} from "../gates/types.ts";
import {HardwareReport} from "../hardware/schema.ts";
import {FileCheck} from "../ingest/readBundle.ts";
import {SpecDecodeBlock} from "../metrics/specBlock.ts";
import {BundleStatus, Provenance} from "../schema/manifest.ts";
import {LoadMode} from "../schema/config.ts";
import {QualityRecord, SourceRecord} from "../schema/records.ts";
import {SaturationReport, SearchReport, ServerTimeReport} from "../search/schema.ts";
import {WorkloadBlock} from "../workload/block.ts";

/**
 * The Report of `analyzeBundle` as a zod schema: the single source of its types (report/types.ts infers
 * them; the gate results and file checks are the zod schemas of gates/types.ts and ingest/readBundle.ts) and of the published JSON Schema (evidence/schema/report.v<ANALYZER_VERSION>.schema.json,
 * `npm run schema`). The compatibility rule is in docs/report-schema.md.
 */

const count = z.number().int().nonnegative();
const nullableNumber = z.number().nullable();

export const Issue = z
  .object({
    severity: z.enum(["error", "warning", "info"]),
    code: z.string().describe("stable machine-readable kind, e.g. json, schema, time_order, unknown_point"),
    file: z.string().describe("bundle-relative path of the file the problem is in"),
    line: z.number().int().positive().nullable().describe("1-based line, when known"),
    path: z.string().nullable().describe("field or key path inside the record, when known"),
    message: z.string()
  })
  .describe("a problem found in a bundle, located as precisely as possible");

export const Verdict = z.enum(["VALID", "INVALID", "INCONCLUSIVE"]);

export const Stability = z
  .object({
    n: count,
    median: nullableNumber,
    mean: nullableNumber,
    std: nullableNumber.describe("sample std (ddof 1)"),
    cv: nullableNumber.describe("coefficient of variation, std / mean"),
    min: nullableNumber,
    max: nullableNumber,
    class: z.enum(["high", "medium", "low"]).nullable().describe("null with note when n is too small"),
    note: z.string().nullable()
  })
  .describe("spread of a metric's per-repeat values across the repeats of one load point");

const PERCENTILE = z.enum(["p50", "p90", "p95", "p99"]);

export const SummaryValue = z
  .object({
    n: count.describe("finite values summarised"),
    mean: nullableNumber,
    std: nullableNumber.describe("population std (ddof 0)"),
    min: nullableNumber,
    max: nullableNumber,
    p50: nullableNumber,
    p90: nullableNumber,
    p95: nullableNumber,
    p99: nullableNumber,
    method: z.enum(["nearest-rank", "r7"]).describe("percentile method (p50 is always the median)"),
    withheld: z.partialRecord(PERCENTILE, z.string()).describe("why a percentile is null although values exist"),
    stability: Stability.optional().describe(
      "request metrics of points with ≥ 2 repeats: spread of the repeat medians"
    ),
    note: z.string().optional().describe("what a reader must know about these values")
  })
  .describe("a per-request or per-sample distribution, pooled over repeats; values in the metric's unit");

export const RunMetricValue = z
  .object({
    value: nullableNumber.describe("in the metric's unit; null when unknown (never 0 for unknown)"),
    reason: z.string().optional().describe("why value is null"),
    note: z.string().optional().describe("what a reader must know about a non-null value (a bound, a caveat)"),
    stability: Stability.optional().describe("across repeats (present when the point has ≥ 2 repeats)")
  })
  .describe("a run-level metric value of one load point, pooled over repeats");

export const MetricValue = z.union([SummaryValue, RunMetricValue]);

export const FailureExample = z.object({
  outcome: z.enum(FAILURE_CLASSES),
  count,
  message: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  requestId: z.string()
});

export const PointReport = z.object({
  id: z.string(),
  mode: LoadMode,
  value: z
    .number()
    .describe("the load point's target: concurrency, req/s for open-loop modes, or a trace's replay speed"),
  repeats: count,
  n: count.describe("measured requests (warmup and cooldown excluded)"),
  n_success: count,
  n_warmup: count,
  verdict: Verdict,
  verdict_reasons: z.array(z.string()),
  outcomes: z.record(z.string(), count).describe("measured requests per outcome (success or a failure class)"),
  failures: z.array(FailureExample).describe("one example per failure class"),
  finish_reasons: z.record(z.string(), count),
  usage_sources: z.record(z.string(), count),
  metrics: z.record(z.string(), MetricValue).describe("by metric id (metrics registry; schema/ids.ts)"),
  spec_decode: SpecDecodeBlock.optional().describe(
    "speculative decoding (acceptance rate, mean acceptance length, per position), present when the bundle's scrapes or responses carry any spec-decode count"
  ),
  saturation: SaturationReport.optional(),
  server_time: ServerTimeReport.optional(),
  workload: WorkloadBlock.optional().describe(
    "present when the point's requests record their workload (dataset, shared prefix, sessions, trace, length distributions)"
  )
});

export const BundleMeta = z.object({
  model: z.string().nullable(),
  engine: z.string().nullable(),
  hardware: z.string(),
  gpus: z.number().int().nullable(),
  endpoint: z.string().nullable(),
  modes: z.array(z.string()),
  labels: z.record(z.string(), z.string()),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  workload: z.object({
    prompt_tokens: z.number().nullable(),
    max_tokens: z.number().nullable(),
    ignore_eos: z.boolean().nullable(),
    temperature: z.number().nullable()
  }),
  workloadKey: z
    .string()
    .describe("digest-free fingerprint of what was asked of the server; equal strings mean the same workload"),
  declared: z
    .array(z.string())
    .optional()
    .describe(
      "fields whose value was declared by whoever imported the bundle, not measured (hardware, gpus, engine, labels.<key>)"
    )
});

const ms = nullableNumber;
export const RequestRow = z
  .object({
    id: z.string(),
    point: z.string(),
    repeat: z.number().int(),
    phase: z.string(),
    outcome: z.string(),
    tSchedMs: ms,
    tDispMs: ms,
    tTok1Ms: ms,
    tTokNMs: ms,
    tEndMs: ms,
    ttftMs: ms,
    e2eMs: ms,
    itlMs: ms,
    out: z.number().nullable(),
    tokenEvents: count,
    good: z.boolean(),
    error: z.string().nullable()
  })
  .describe("one request (only with keepRows); times in ms since the run's monotonic origin");

export const SeriesPoint = z.object({
  series: z.string(),
  tS: z.number().describe("seconds since the run's monotonic origin"),
  value: z.number(),
  gpu: z.number().int().optional()
});

/** Rows whose shape their own module defines (quality/, peers/); checked there, open here. */
const rowsOf = (what: string) => z.array(z.looseObject({})).describe(what);

export const Report = z.object({
  bundle: z.string().describe("bundle id (the manifest's, else the folder name)"),
  schema_version: z.number().int().nullable().describe("bundle schema version (null: no manifest)"),
  measure_version: z.string().nullable(),
  analyzer_version: z.string().describe("ANALYZER_VERSION: the meaning of the derived metrics and gates"),
  status: BundleStatus,
  provenance: Provenance.nullable(),
  verdict: Verdict,
  verdict_reasons: z.array(z.string()),
  gates: z.array(GateResult),
  load_points: z.array(PointReport),
  issues: z.array(Issue),
  files: z.array(FileCheck),
  meta: BundleMeta,
  quality: z.array(QualityRecord),
  quality_summary: z
    .looseObject({})
    .optional()
    .describe("quality per version, case, scorer, condition, tier, constraint and needle cell (quality/summary.ts)"),
  cases: rowsOf("case-suite performance per case and tier (quality/cases.ts)").optional(),
  sources: z.array(SourceRecord),
  source_comparison: rowsOf(
    "imported bundles: the source tool's numbers against ours (peers/sourceComparison.ts)"
  ).optional(),
  searches: z
    .array(SearchReport)
    .optional()
    .describe("load searches (load blocks of mode search), when the config has any"),
  hardware: HardwareReport.optional().describe(
    "host as measured, model facts, memory fit, decode roofline, cost and energy per point (when the analysis is given the hardware data)"
  ),
  rows: z.array(RequestRow).optional().describe("only with keepRows"),
  series: z.array(SeriesPoint).optional().describe("only with keepSeries"),
  notes: z
    .array(z.object({event: z.string(), tS: z.number(), detail: z.record(z.string(), z.unknown())}))
    .optional()
    .describe("the client log's notes (only with keepSeries)")
});
