import type {Fact} from "./schema.ts";

/** A known number and where it comes from. */
export const known = (value: number, from: string): Fact => ({value, from, reason: null});
/** An unknown number and why (never 0). */
export const unknown = (reason: string): Fact => ({value: null, from: null, reason});

/** The first known of several candidates, else unknown with every candidate's reason (in order, once each). */
export function firstKnown(...facts: Fact[]): Fact {
  const hit = facts.find((f) => f.value !== null);
  if (hit !== undefined) return hit;
  return unknown([...new Set(facts.map((f) => f.reason ?? "unknown"))].join("; "));
}

/** a ∘ b when both are known (from joined), else the first unknown one's reason. */
export function combine(facts: readonly Fact[], f: (...values: number[]) => number | null, from: string): Fact {
  const missing = facts.find((x) => x.value === null);
  if (missing !== undefined) return unknown(missing.reason ?? "unknown");
  const v = f(...facts.map((x) => x.value!));
  return v === null || !Number.isFinite(v) ? unknown(`${from}: not computable`) : known(v, from);
}
