import {isNonStreamed, NOT_STREAMED} from "../metrics/streams.ts";
import type {GateContext, GateDef, GateResult, GateStatus} from "./types.ts";

export type Verdict = "VALID" | "INVALID" | "INCONCLUSIVE";

const SEVERITY: Record<GateStatus, number> = {
  not_applicable: 0,
  pass: 1,
  info: 2,
  not_evaluable: 3,
  warn: 4,
  fail: 5
};

export function worst(statuses: readonly GateStatus[]): GateStatus {
  let w: GateStatus = "not_applicable";
  for (const s of statuses) if (SEVERITY[s] > SEVERITY[w]) w = s;
  return w;
}

/** Evaluates every gate; point-scoped gates are also returned per point. */
export function evaluateGates(gates: readonly GateDef[], ctx: GateContext): GateResult[] {
  return gates.map((g) => {
    const threshold = g.threshold(ctx.config);
    if (g.scope === "bundle") return {id: g.id, slug: g.slug, threshold, ...g.evaluate(ctx)};
    const points = ctx.points.map((p) => ({
      point: p.point.id,
      ...(g.streamsOnly && isNonStreamed(p.totals)
        ? {status: "not_applicable" as const, reason: NOT_STREAMED}
        : g.evaluatePoint(p, ctx))
    }));
    if (points.length === 0)
      return {
        id: g.id,
        slug: g.slug,
        threshold,
        status: "not_evaluable",
        reason: "no load points",
        evidence: {},
        points: []
      };
    const status = worst(points.map((p) => p.status));
    const flagged = points.filter((p) => p.status === status);
    const one = flagged.length === points.length && flagged.every((p) => p.reason === flagged[0]!.reason);
    const reason =
      points.length === 1
        ? points[0]!.reason
        : status === "pass"
          ? `all ${points.length} load points pass`
          : one
            ? `all ${points.length} load points: ${flagged[0]!.reason}`
            : flagged.map((p) => `${p.point}: ${p.reason}`).join("; ");
    return {
      id: g.id,
      slug: g.slug,
      threshold,
      status,
      reason,
      evidence: {},
      points: points.map(({point, status: s, reason: r}) => ({point, status: s, reason: r}))
    };
  });
}

/**
 * INVALID on any failed gate whose outcome is I; INCONCLUSIVE on any warning (or a failed N gate),
 * or missing evidence for a required gate; VALID otherwise. Disclosure-only (W) gates never change it.
 */
export function verdictOf(
  gates: readonly GateDef[],
  results: readonly GateResult[]
): {verdict: Verdict; reasons: string[]} {
  const defs = new Map<string, GateDef>(gates.map((g) => [g.id, g]));
  const invalid: string[] = [];
  const inconclusive: string[] = [];
  for (const r of results) {
    const def = defs.get(r.id)!;
    const line = `${r.id} ${r.slug}: ${r.reason}`;
    if (def.outcome === "W") continue;
    if (r.status === "fail") (def.outcome === "I" ? invalid : inconclusive).push(line);
    else if (r.status === "warn") inconclusive.push(line);
    else if (r.status === "not_evaluable" && def.required) inconclusive.push(`${line} (not evaluable)`);
  }
  if (invalid.length) return {verdict: "INVALID", reasons: invalid};
  if (inconclusive.length) return {verdict: "INCONCLUSIVE", reasons: inconclusive};
  return {verdict: "VALID", reasons: []};
}
