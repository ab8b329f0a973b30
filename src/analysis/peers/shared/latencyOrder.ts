import {isObject} from "./parse.ts";
import {timeToNs} from "./numeric.ts";

/** An aggregate metric block as AIPerf and GenAI-Perf write it: {unit, avg, min, max, p50, …}. */
type Block = Record<string, unknown>;

/** A statistic of the block in ns, or null when the number or its unit is missing. */
function statNs(block: Block | undefined, stat: string): number | null {
  if (!isObject(block)) return null;
  const v = block[stat];
  const unit = typeof block.unit === "string" ? block.unit : "";
  return typeof v === "number" && Number.isFinite(v) ? timeToNs(v, unit) : null;
}

const shown = (block: Block, stat: string): string => `${String(block[stat])} ${String(block.unit)}`;

/**
 * Where an aggregate file contradicts the order every request's times obey: a time within a request (its first
 * token, a gap between tokens) cannot exceed the request's whole latency, so neither can its mean or its maximum
 * over the same requests. Each pair is [within, whole] by the tool's metric names; a contradiction is named only
 * when both the mean and the maximum break the order (one statistic alone could come from different
 * populations), which is what a wrong unit on one metric does (×1000). One phrase per contradicted pair.
 */
export function latencyOrderContradictions(
  aggregates: Readonly<Record<string, Block>>,
  pairs: readonly (readonly [string, string])[]
): string[] {
  const out: string[] = [];
  for (const [within, whole] of pairs) {
    const a = aggregates[within];
    const b = aggregates[whole];
    if (!a || !b) continue;
    const broken = ["avg", "max"].filter((s) => {
      const x = statNs(a, s);
      const y = statNs(b, s);
      return x !== null && y !== null && x > y * (1 + 1e-9);
    });
    if (broken.length === 2)
      out.push(
        broken.map((s) => `${within} ${s} ${shown(a, s)} > ${whole} ${s} ${shown(b, s)}`).join(" and ") +
          ` (a part of a request cannot last longer than the request: is the unit of ${within} or ${whole} wrong?)`
      );
  }
  return out;
}

/** The import warnings for `file`'s contradictions (latencyOrderContradictions), one per contradicted pair. */
export function latencyOrderWarnings(
  file: string,
  aggregates: Readonly<Record<string, Block>>,
  pairs: readonly (readonly [string, string])[]
): string[] {
  return latencyOrderContradictions(aggregates, pairs).map(
    (c) => `${file}: the file contradicts itself: ${c}; its numbers are imported as written`
  );
}
