import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {bounded, exact, missing, type Recomputed} from "../shared/compare.ts";
import {numpyStat, type Stat} from "../shared/stats.ts";
import {defined, endOf, gapsOf, lastTokenOf, sumOf, ttftOf} from "../shared/views.ts";
import type {Family} from "./format.ts";

/**
 * vLLM's and SGLang's population: the requests their `calculate_metrics` counts as completed, those whose
 * client set `success` — for the file, those with an empty error string. The importer keeps that string
 * as the record's errorMessage (a failed request also gets transportError "other"), so a record without
 * either is a request the tool counted, an answer without any token included (InferScope: empty_output).
 */
export const completedByTool = (r: DerivedRequest): boolean =>
  r.record.errorMessage === null && r.record.transportError === null;

/**
 * A completed request's TTFT under their definition: the first token's time, or 0 when no token came (their
 * client starts TTFT at 0.0 and sets it at the first token, so the file holds 0.0 for such an answer).
 */
const toolTtft = (r: DerivedRequest): number | null => (r.tokenEvents === 0 ? 0 : ttftOf(r));
/** Its last token's time (ttft + Σ chunk gaps): 0 when no token came. */
const toolLast = (r: DerivedRequest): number | null => (r.tokenEvents === 0 ? 0 : lastTokenOf(r));

/** Per-request values each family is computed from, in ms. */
function familyValues(family: Family, ok: readonly DerivedRequest[]) {
  if (family === "ttft") return defined(ok.map(toolTtft));
  if (family === "itl") return ok.flatMap(gapsOf);
  if (family === "e2e") return defined(ok.map(endOf));
  return defined(
    ok.map((r) => {
      const end = endOf(r);
      const t = toolTtft(r);
      return end === null || t === null || r.out === null || r.out <= 1 ? null : (end - t) / (r.out - 1);
    })
  );
}

/**
 * Bounds for TPOT and E2E statistics when the file lacks per-request latency: each latency is at least
 * ttft + Σ chunk gaps (the last chunk), and the tails above that sum to T = n·mean_latency − Σ(ttft + Σ gaps),
 * so each tail lies in [0, T]. R-7 percentiles and medians are monotone in every value, so the statistic
 * of the lower values is a lower bound and of lower + T (per request) an upper bound.
 */
function boundFor(
  family: "tpot" | "e2e",
  stat: Stat,
  ok: readonly DerivedRequest[],
  meanLatencyMs: number | null
): Recomputed {
  const last = ok.map((r) => ({r, last: toolLast(r), ttft: toolTtft(r)}));
  if (last.some((x) => x.last === null || x.ttft === null)) return missing("token times missing");
  const tail = meanLatencyMs === null ? null : meanLatencyMs * ok.length - sumOf(last.map((x) => x.last!));
  if (family === "e2e") {
    const lo = last.map((x) => x.last!);
    if (stat === "std" || stat === "count") return missing("per-request latency not recorded");
    if (stat === "mean")
      return bounded(numpyStat(lo, "mean") ?? null, null, "mean latency ≥ mean of (ttft + Σ chunk gaps)");
    return bounded(
      numpyStat(lo, stat) ?? null,
      tail === null
        ? null
        : (numpyStat(
            lo.map((v) => v + Math.max(0, tail)),
            stat
          ) ?? null),
      "per-request latency lies between the last chunk and the last chunk + the total tail implied by the reported mean"
    );
  }
  const rows = last.filter((x) => x.r.out !== null && x.r.out > 1);
  const lo = rows.map((x) => (x.last! - x.ttft!) / (x.r.out! - 1));
  if (lo.length === 0) return missing("no request with more than one output token");
  if (tail === null) return missing("neither per-request latency nor a reported mean latency");
  const T = Math.max(0, tail);
  if (stat === "mean") {
    const denoms = rows.map((x) => x.r.out! - 1);
    const m = numpyStat(lo, "mean")!;
    return bounded(
      m + T / (lo.length * max(denoms)!),
      m + T / (lo.length * min(denoms)!),
      `latency unknown per request; the tails total ${T.toFixed(3)} ms over ${ok.length} requests (from the reported mean latency), shared in every possible way`
    );
  }
  if (stat === "std" || stat === "count")
    return missing("per-request latency not recorded; no bound computed for this statistic");
  const hi = rows.map((x, i) => lo[i]! + T / (x.r.out! - 1));
  return bounded(
    numpyStat(lo, stat) ?? null,
    numpyStat(hi, stat) ?? null,
    "per-request TPOT lies between (last chunk − ttft)/(out − 1) and that plus the whole implied tail over (out − 1)"
  );
}

/** Recomputes one `<stat>_<family>_ms` number under the tool's definition. */
export function recomputeVllmStat(
  family: Family,
  stat: Stat,
  requests: readonly DerivedRequest[],
  facts: {latenciesS?: readonly number[]; meanLatencyMs: number | null}
): Recomputed {
  const ok = requests.filter(completedByTool);
  if (facts.latenciesS && family === "e2e")
    return exact(
      numpyStat(
        facts.latenciesS.map((s) => s * 1000),
        stat
      ),
      "from the per-request latencies array"
    );
  if (ok.length === 0)
    return missing(
      requests.length === 0
        ? "no request records (the file has no per-request arrays)"
        : "no request the tool counted as completed"
    );
  const hasLatency = ok.every((r) => r.record.tEndNs !== null);
  if ((family === "tpot" || family === "e2e") && !hasLatency) return boundFor(family, stat, ok, facts.meanLatencyMs);
  return exact(numpyStat(familyValues(family, ok), stat, 0));
}
