import {z} from "zod";

import type {LedgerFacts} from "../accumulate/ledger.ts";
import type {ClientFacts, TelemetryFacts} from "../accumulate/telemetry.ts";
import type {FileCheck} from "../ingest/readBundle.ts";
import type {PointFacts} from "./facts.ts";
import type {PointSourceCounts} from "./sourceCounts.ts";
import type {Bilingual} from "../metrics/types.ts";
import type {RunConfig} from "../schema/config.ts";
import type {Manifest} from "../schema/manifest.ts";
import type {Issue} from "../util/issues.ts";

/**
 * pass / fail / warn as usual; info = disclosed fact that does not affect the verdict;
 * not_evaluable = the evidence the gate needs is missing (never a pass, never a fail);
 * not_applicable = the gate does not apply to this run.
 */
export const GateStatus = z
  .enum(["pass", "info", "warn", "fail", "not_evaluable", "not_applicable"])
  .describe(
    "info: a disclosed fact that does not affect the verdict; not_evaluable: the evidence the gate needs is missing; not_applicable: the gate does not apply"
  );
export type GateStatus = z.infer<typeof GateStatus>;

/** One gate's result in the Report (report/schema.ts). */
export const GateResult = z.object({
  id: z.string().describe("G1, G2, …"),
  slug: z.string().describe("snake_case name of the gate"),
  status: GateStatus,
  reason: z.string(),
  evidence: z.record(z.string(), z.unknown()).describe("the numbers the status rests on"),
  threshold: z.string().nullable(),
  points: z
    .array(z.object({point: z.string(), status: GateStatus, reason: z.string()}))
    .optional()
    .describe("per load point results, for point-scoped gates")
});
export type GateResult = z.infer<typeof GateResult>;

export type {ClientFacts, FileCheck, PointFacts, TelemetryFacts};

export interface GateContext {
  manifest: Manifest | null;
  config: RunConfig;
  issues: readonly Issue[];
  files: readonly FileCheck[];
  points: readonly PointFacts[];
  client: ClientFacts;
  server: TelemetryFacts;
  gpu: TelemetryFacts;
  imported: boolean;
  /** Planned versus recorded requests (G30). */
  ledger: LedgerFacts;
  /** Imports: each point's requests as the source tool counted them, where every run of it says (G3). */
  sourceCounts: ReadonlyMap<string, PointSourceCounts>;
}

export interface PointOutcome {
  status: GateStatus;
  reason: string;
  evidence?: Record<string, unknown>;
}

interface GateBase {
  /**
   * One of GATE_IDS (schema/ids.ts; test/analysis/registries.test.ts keeps them equal). Typed as a string so
   * that lookups by a report's gate id (a string in JSON) need no cast.
   */
  id: string;
  slug: string;
  title: Bilingual;
  description: Bilingual;
  /** What a failure means for the verdict: I = INVALID, N = INCONCLUSIVE, W = disclosed only. */
  outcome: "I" | "N" | "W";
  /** Whether missing evidence (not_evaluable) makes the run INCONCLUSIVE. */
  required: boolean;
  threshold: (config: RunConfig) => string | null;
  anchor: string;
}

export interface BundleGate extends GateBase {
  scope: "bundle";
  evaluate: (ctx: GateContext) => Omit<GateResult, "id" | "slug" | "threshold">;
}

export interface PointGate extends GateBase {
  scope: "point";
  /**
   * The gate judges a stream (events, output tokens, its end): at a load point of non-streamed requests
   * (embeddings) it is not applicable (gates/verdict.ts says so with the reason).
   */
  streamsOnly?: true;
  evaluatePoint: (p: PointFacts, ctx: GateContext) => PointOutcome;
}

export type GateDef = BundleGate | PointGate;
