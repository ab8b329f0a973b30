import {z} from "zod";

import {LoadMode} from "../schema/config.ts";
import {BundleStatus} from "../schema/manifest.ts";
import {GateStatus} from "../gates/types.ts";
import {HardwareReport} from "../hardware/schema.ts";
import {WorkloadBlock} from "../workload/block.ts";
import {Issue, RunMetricValue, SummaryValue, Verdict} from "./schema.ts";

/** Within one analyzer version a renamed metric keeps its old key, a copy of the new one marked so. */
const deprecated = z
  .string()
  .optional()
  .describe("present on an alias kept for one analyzer version: what it was renamed to");

export const JsonMetric = z.union([SummaryValue.extend({deprecated}), RunMetricValue.extend({deprecated})]);

/**
 * The stable machine-readable view printed by `inferscope analyze --json` (report/jsonView.ts builds
 * it from the Report). Published as evidence/schema/analyze.v<REPORT_VERSION>.schema.json; the
 * compatibility rule (what may be added without a version bump) is in docs/report-schema.md.
 */
export const AnalyzeJson = z
  .object({
    bundle: z.string(),
    verdict: Verdict,
    verdict_reasons: z.array(z.string()).describe("the gates that decided the verdict, as `Gn slug: reason`"),
    status: BundleStatus,
    measure_version: z.string().nullable(),
    analyzer_version: z.string(),
    gates: z.array(z.object({id: z.string(), slug: z.string(), status: GateStatus, reason: z.string()})),
    load_points: z.array(
      z.object({
        id: z.string(),
        mode: LoadMode,
        value: z.number(),
        n: z.number().int().nonnegative().describe("measured requests"),
        n_success: z.number().int().nonnegative(),
        verdict: Verdict,
        metrics: z.record(z.string(), JsonMetric).describe("by metric id; units in the metrics registry"),
        workload: WorkloadBlock.optional().describe(
          "requested vs realised lengths, the prefix-cache ceiling vs what the server served, TTFT by turn (docs/workloads.md)"
        )
      })
    ),
    issues: z.array(Issue),
    source_comparison: z
      .array(z.looseObject({}))
      .optional()
      .describe("imported bundles: the source tool's numbers against ours"),
    cases: z.array(z.looseObject({})).optional().describe("case-suite performance per case and tier"),
    quality: z
      .looseObject({})
      .optional()
      .describe("quality per version, case, scorer, condition, constraint and needle cell"),
    hardware: HardwareReport.optional().describe(
      "host, model facts, memory fit, decode roofline fraction, cost and energy per point (see the methodology)"
    )
  })
  .describe("inferscope analyze --json");
export type AnalyzeJson = z.infer<typeof AnalyzeJson>;
