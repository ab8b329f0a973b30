import type {BundleFacts} from "../accumulate/bundle.ts";
import type {GateResult, PointFacts} from "../gates/types.ts";
import type {RunConfig} from "../schema/config.ts";
import {saturations, searchReports} from "../search/report.ts";
import {serverTime} from "../telemetry/serverTime.ts";
import type {Report} from "./types.ts";

/**
 * Issue 14 on every load point: over-saturation (never read as a sustained capacity; not a gate) and where
 * the server's time goes; and each load search recomputed from its probes (points in run order).
 */
export function addLoadFindings(
  report: Report,
  points: readonly PointFacts[],
  facts: BundleFacts<PointFacts>,
  config: RunConfig,
  gates: readonly GateResult[]
): void {
  // imported runs: request times are relative to each request (no shared window), and no engine scrapes
  if (report.provenance?.kind === "imported") return;
  const inputs = points.map((f) => ({point: f.point, samples: f.samples}));
  const sat = saturations(config, inputs);
  const spans = new Map(points.map((f) => [f.point.id, f.spanNs]));
  for (const p of report.load_points) {
    const s = sat.get(p.id);
    if (s !== undefined) p.saturation = s;
    if (spans.has(p.id)) p.server_time = serverTime(facts.phaseScrapes, spans.get(p.id)!);
  }
  const searches = searchReports(config, inputs, gates, facts.client.notes);
  if (searches.length > 0) report.searches = searches;
}
