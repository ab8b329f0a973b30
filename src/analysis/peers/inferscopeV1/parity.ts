import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  approximate,
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type SourceComparisonRow,
  aggregatesOf
} from "../shared/compare.ts";
import {isObject} from "../shared/parse.ts";
import {numpyStat, parseStat, type Stat} from "../shared/stats.ts";
import {statRows, type ReportedStat} from "../shared/statRows.ts";
import {defined, measuredOf, successes, sumOf} from "../shared/views.ts";

/**
 * InferScope v1 parity: v1's latency statistics (numpy R-7), request counts, measured window and
 * throughputs recomputed from its request rows, beside our canonical metrics.
 */
type Family = "ttft" | "tpot" | "e2e";

const span = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / 1e6);

/** v1 per-request values: TTFT = first content − started; E2E = finished − started; TPOT = (E2E − TTFT)/(out − 1). */
export function v1Values(f: Family, ok: readonly DerivedRequest[]): number[] {
  return defined(
    ok.map((r) => {
      const ttft = span(r.tDisp, r.tContent1);
      const e2e = span(r.tDisp, r.record.tEndNs);
      if (f === "ttft") return ttft;
      if (f === "e2e") return e2e;
      return ttft === null || e2e === null || r.out === null || r.out < 2 ? null : (e2e - ttft) / (r.out - 1);
    })
  );
}

export function recomputeInferscopeV1(f: Family, stat: Stat, requests: readonly DerivedRequest[]) {
  return exact(numpyStat(v1Values(f, successes(measuredOf(requests))), stat, 0));
}

/** v1's definition of each latency, our canonical metric for it and why the two differ. */
const CANON: Record<Family, {definition: string; id: string; why: string}> = {
  ttft: {
    definition: "first content − started",
    id: "ttft_content_ms",
    why: "ours counts from the scheduled time (v1 from the actual start) with nearest-rank percentiles"
  },
  tpot: {
    definition: "(e2e − ttft)/(out − 1)",
    id: "tpot_ms",
    why: "our decode span runs first to last token event; v1's from first content to the stream end"
  },
  e2e: {
    definition: "finished − started",
    id: "e2e_ms",
    why: "our e2e_ms ends at the last token and starts at the schedule; v1's at stream end from the actual start"
  }
};

/** The rows of v1's throughput block, each over its measured_seconds (goodput under v1's own SLOs). */
function throughputRows(
  input: ComparisonInput,
  agg: Record<string, unknown>,
  measured: readonly DerivedRequest[],
  ms: number | null
): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const facts = source.facts as {slo?: Record<string, unknown>};
  const point = source.point;
  const have = requests.length > 0;
  const ok = successes(measured);
  const rows: SourceComparisonRow[] = [];
  const thr = isObject(agg.throughput) ? agg.throughput : {};
  const perS = (n: number | null) =>
    ms && n !== null ? derived(n / ms, "over v1's measured_seconds") : missing("measured_seconds or counts missing");
  const outs = ok.map((r) => r.out);
  const ins = ok.map((r) => r.in);
  const sumOut = outs.every((x) => x !== null) ? sumOf(outs as number[]) : null;
  const sumIn = ins.every((x) => x !== null) ? sumOf(ins as number[]) : null;
  const ttftSlo = typeof facts.slo?.ttft_p95_ms === "number" ? facts.slo.ttft_p95_ms : null;
  const tpotSlo = typeof facts.slo?.tpot_p95_ms === "number" ? facts.slo.tpot_p95_ms : null;
  const minRate = typeof facts.slo?.success_rate_min === "number" ? facts.slo.success_rate_min : null;
  let goodput: ReturnType<typeof derived> = missing(
    "v1 SLOs (slo.ttft_p95_ms, slo.tpot_p95_ms, slo.success_rate_min) not in the imported config"
  );
  if (ttftSlo !== null && tpotSlo !== null && minRate !== null && ms) {
    const qualifying = ok.filter((r) => {
      const t = v1Values("ttft", [r])[0];
      const p = v1Values("tpot", [r])[0];
      return t !== undefined && p !== undefined && t <= ttftSlo && p <= tpotSlo;
    }).length;
    const rate = measured.length ? ok.length / measured.length : 0;
    goodput = derived(
      rate >= minRate ? qualifying / ms : 0,
      "per-request thresholds despite the p95 names; 0 when the run's success rate misses its SLO"
    );
  }
  const rowsThr: [string, ReturnType<typeof derived>, string][] = [
    ["requests_per_second", have ? perS(ok.length) : missing("no requests.jsonl"), "request_throughput_rps"],
    ["output_tokens_per_second", have ? perS(sumOut) : missing("no requests.jsonl"), "output_throughput_tok_s"],
    ["input_tokens_per_second", have ? perS(sumIn) : missing("no requests.jsonl"), ""],
    ["goodput_requests_per_second", have ? goodput : missing("no requests.jsonl"), "goodput_rps"]
  ];
  for (const [k, rec, id] of rowsThr)
    rows.push(
      finishRow({
        point,
        metric: `throughput.${k}`,
        definition:
          k === "goodput_requests_per_second"
            ? "qualifying requests / measured_seconds, or 0 when the success-rate SLO fails"
            : `${k.replace(/_/g, " ")} over measured_seconds`,
        unit: k.includes("tokens") ? "tok/s" : "req/s",
        reported: typeof thr[k] === "number" ? (thr[k] as number) : null,
        recomputed: rec,
        canonical: id ? canonicalRun(canonical, id) : null,
        codes: k.startsWith("goodput") ? ["definition", "window"] : ["window"],
        why: k.startsWith("goodput")
          ? "our goodput applies our SLOs (ttft, itl, e2e) and keeps failures in the denominator"
          : "our window"
      })
    );
  return rows;
}

/** The measured window and the request counts of v1's aggregate. */
function windowRows(
  input: ComparisonInput,
  agg: Record<string, unknown>,
  measured: readonly DerivedRequest[],
  ms: number | null
): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const point = source.point;
  const have = requests.length > 0;
  const ok = successes(measured);
  const rows: SourceComparisonRow[] = [];
  const starts = measured.map((r) => r.tStart).filter((t): t is number => t !== null);
  const ends = measured.map((r) => r.record.tEndNs).filter((t): t is number => t !== null);
  rows.push(
    finishRow({
      point,
      metric: "measured_seconds",
      definition: "max(finished_at) − measured start (taken after warmup)",
      unit: "s",
      reported: ms,
      recomputed:
        starts.length && ends.length
          ? approximate(
              (max(ends)! - min(starts)!) / 1e9,
              "first scheduled to last finished; v1's start mark is not in the requests"
            )
          : missing("no requests"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window starts at the first measured request's scheduled time"
    })
  );
  const reqs = isObject(agg.requests) ? agg.requests : {};
  rows.push(
    finishRow({
      point,
      metric: "requests.successful",
      definition: "successful measured requests",
      unit: "requests",
      reported: typeof reqs.successful === "number" ? reqs.successful : null,
      recomputed: have ? exact(ok.length) : missing("no requests.jsonl"),
      canonical: null,
      codes: []
    }),
    finishRow({
      point,
      metric: "requests.scheduled",
      definition: "scheduled measured requests",
      unit: "requests",
      reported: typeof reqs.scheduled === "number" ? reqs.scheduled : null,
      recomputed: have ? exact(measured.length) : missing("no requests.jsonl"),
      canonical: null,
      codes: []
    })
  );
  return rows;
}

export function compareInferscopeV1(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aggregatesOf(source);
  const point = source.point;
  const have = requests.length > 0;
  const measured = measuredOf(requests);
  const rows: SourceComparisonRow[] = [];
  const lat = isObject(agg.latency_ms) ? agg.latency_ms : {};
  for (const f of ["ttft", "tpot", "e2e"] as const) {
    const d = isObject(lat[f])
      ? (lat[f] as Record<string, unknown>)
      : have
        ? {mean: null, p50: null, p95: null, p99: null}
        : null;
    if (!d) continue;
    const reported: ReportedStat[] = [];
    for (const [label, value] of Object.entries(d)) {
      const stat = parseStat(label);
      if (stat === null) continue;
      reported.push({
        metric: `latency_ms.${f}.${label}`,
        label,
        stat,
        reported: typeof value === "number" ? value : null
      });
    }
    const c = CANON[f];
    appendAll(
      rows,
      statRows(reported, {
        point,
        definition: () => `v1 ${f}: ${c.definition}; numpy R-7`,
        unit: (s) => (s.stat === "count" ? "requests" : "ms"),
        recompute: (stat) => (have ? recomputeInferscopeV1(f, stat, requests) : missing("no requests.jsonl")),
        canonical: (stat, unit) => ({
          ref: stat === "count" ? null : canonicalRef(canonical, c.id, stat, unit),
          codes: typeof stat === "object" ? ["definition", "percentile_method"] : ["definition"],
          why: c.why
        })
      })
    );
  }
  const ms = typeof agg.measured_seconds === "number" ? agg.measured_seconds : null;
  appendAll(rows, windowRows(input, agg, measured, ms));
  appendAll(rows, throughputRows(input, agg, measured, ms));
  return rows;
}
