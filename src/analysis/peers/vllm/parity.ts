import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  bounded,
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type ReasonCode,
  type Recomputed,
  type SourceComparisonRow,
  aggregatesOf
} from "../shared/compare.ts";
import {statRows, type ReportedStat} from "../shared/statRows.ts";
import {numpyStat, parseStat, type Stat} from "../shared/stats.ts";
import {defined, endOf, gapsOf, lastTokenOf, successes, sumOf, ttftOf} from "../shared/views.ts";
import {statsOf, VLLM_CHAT_TTFT_CAVEAT, vllmMaybeChat, type Family, type Flavor} from "./format.ts";

/**
 * vLLM and SGLang parity: each reported `<stat>_<family>_ms`, count and rate recomputed under the tool's
 * own definition (numpy R-7 percentiles, population std) and set beside our canonical metric.
 */

const DEFS: Record<Flavor, Record<Family, string>> = {
  vllm: {
    ttft: "first chunk with choices minus send time; per request; numpy R-7 percentiles, population std",
    tpot: "(latency − ttft)/(out − 1) per request with out > 1; request-weighted; R-7",
    itl: "gaps between consecutive chunks, pooled over requests (chunk-weighted, per chunk not per token); R-7",
    e2e: "request latency (2024: after the stream ended; 2025+: last chunk); R-7"
  },
  sglang: {
    ttft: "first chunk with non-empty text minus send time; numpy R-7, population std",
    tpot: "(latency − ttft)/(out − 1) per request with out > 1; R-7",
    itl: "gaps between consecutive chunks, pooled over requests (chunk-weighted); R-7",
    e2e: "send to the last SSE line including [DONE]; R-7"
  }
};

/** Our canonical metric for each family, and why its number differs from theirs. */
const MAPPING: Record<Family, {canonical: string; codes: ReasonCode[]; why: string}> = {
  ttft: {
    canonical: "ttft_ms",
    codes: ["percentile_method"],
    why: "we publish nearest-rank percentiles; theirs interpolate (R-7)"
  },
  itl: {
    canonical: "inter_chunk_ms",
    codes: ["percentile_method"],
    why: "their ITL is our inter_chunk_ms (per chunk); percentiles R-7 vs nearest rank"
  },
  tpot: {
    canonical: "tpot_ms",
    codes: ["end_of_request", "percentile_method"],
    why: "our decode span ends at the last token event; theirs at the end of the request as the client timed it"
  },
  e2e: {
    canonical: "e2e_ms",
    codes: ["end_of_request", "percentile_method"],
    why: "our e2e_ms ends at the last token event; theirs when their client stopped the clock"
  }
};

/** Per-request values each family is computed from, in ms. */
function familyValues(family: Family, ok: readonly DerivedRequest[]) {
  if (family === "ttft") return defined(ok.map(ttftOf));
  if (family === "itl") return ok.flatMap(gapsOf);
  if (family === "e2e") return defined(ok.map(endOf));
  return defined(
    ok.map((r) => {
      const end = endOf(r);
      const t = ttftOf(r);
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
  const last = ok.map((r) => ({r, last: lastTokenOf(r), ttft: ttftOf(r)}));
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
  const ok = successes(requests);
  if (facts.latenciesS && family === "e2e")
    return exact(
      numpyStat(
        facts.latenciesS.map((s) => s * 1000),
        stat
      ),
      "from the per-request latencies array"
    );
  if (ok.length === 0) return missing("no successful request records (the file has no per-request arrays)");
  const hasLatency = ok.every((r) => r.record.tEndNs !== null);
  if ((family === "tpot" || family === "e2e") && !hasLatency) return boundFor(family, stat, ok, facts.meanLatencyMs);
  return exact(numpyStat(familyValues(family, ok), stat, 0));
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** What every row of one vLLM or SGLang run is computed from. */
interface Run {
  point: string | null;
  flavor: Flavor;
  agg: Record<string, unknown>;
  ok: DerivedRequest[];
  canonical: ComparisonInput["canonical"];
  haveRecords: boolean;
  completed: number | null;
  duration: number | null;
  meanLatencyMs: number | null;
  sumOut: number | null;
}

const NO_ARRAYS = "no per-request arrays in the file";

/** Request and token counts: completed, Σ output and Σ input tokens, SGLang's re-tokenized count. */
function countRows(c: Run): SourceComparisonRow[] {
  const {point, agg, ok, flavor} = c;
  const recount = (v: number | null): Recomputed => (c.haveRecords ? exact(v) : missing(NO_ARRAYS));
  const inTokens = ok.map((r) => r.in);
  const sumIn = inTokens.every((x) => x !== null) ? sumOf(inTokens as number[]) : null;
  const outKey = "total_output_tokens" in agg ? "total_output_tokens" : "total_output";
  const inKey = "total_input_tokens" in agg ? "total_input_tokens" : "total_input";
  const rows = [
    finishRow({
      point,
      metric: "completed",
      definition: "requests that finished successfully",
      unit: "requests",
      reported: c.completed,
      recomputed: recount(ok.length),
      // without request records our count is unknown, not 0
      canonical: c.canonical
        ? c.haveRecords
          ? {metric: "n_success", value: ok.length}
          : {metric: "n_success", value: null, note: "no request records (the file keeps aggregates only)"}
        : null,
      codes: []
    }),
    finishRow({
      point,
      metric: outKey,
      definition:
        flavor === "sglang"
          ? "Σ output tokens (server usage, else the requested length)"
          : "Σ output tokens of successful requests",
      unit: "tokens",
      reported: num(agg[outKey]),
      recomputed: recount(c.sumOut),
      canonical: null,
      codes: []
    }),
    finishRow({
      point,
      metric: inKey,
      definition: "Σ prompt tokens of successful requests",
      unit: "tokens",
      reported: num(agg[inKey]),
      recomputed: recount(sumIn),
      canonical: null,
      codes: []
    })
  ];
  const a = num(agg[outKey]);
  const b = num(agg.total_output_retokenized);
  if (flavor === "sglang" && b !== null && a !== null && Math.abs(a - b) > 0.02 * Math.max(a, b))
    rows.push(
      finishRow({
        point,
        metric: "total_output_retokenized",
        definition: "Σ output tokens re-tokenized on the client",
        unit: "tokens",
        reported: b,
        recomputed: derived(a, "total_output"),
        canonical: null,
        codes: ["token_source"],
        why: "usage_source uncertain: SGLang's total_output differs from its re-tokenized count by more than 2 %"
      })
    );
  return rows;
}

/** vLLM ≤ 0.8 wrote goodput under "request_goodput:" (a typo it kept for years), later "request_goodput". */
function goodputRow(c: Run): SourceComparisonRow | null {
  const {point, agg, canonical} = c;
  const spellings = ["request_goodput", "request_goodput:"];
  const goodKey = spellings.find((k) => typeof agg[k] === "number") ?? spellings.find((k) => k in agg);
  if (goodKey === undefined) return null;
  return finishRow({
    point,
    metric: "request_goodput",
    definition: `requests meeting every --goodput SLO / duration${goodKey.endsWith(":") ? ' (under vLLM\'s historic key "request_goodput:")' : ""}`,
    unit: "req/s",
    reported: num(agg[goodKey]),
    recomputed: missing("the --goodput SLO thresholds are not saved in the result file"),
    canonical: canonicalRun(canonical, "goodput_rps"),
    codes: ["definition", "window"],
    why: "ours judges the bundle's own SLO over our window"
  });
}

/** The window and what is divided by it: duration, request and output throughput, SGLang's concurrency. */
function windowRows(c: Run): SourceComparisonRow[] {
  const {point, agg, ok, duration, canonical} = c;
  const windowNote = "their duration is kept as the window (the file has no run start and end)";
  const why = "measured over our window, not their duration";
  const rows = [
    finishRow({
      point,
      metric: "duration",
      definition: "first request issued to last request finished, seconds",
      unit: "s",
      reported: duration,
      recomputed: missing("the run's start and end are not in the per-request data"),
      canonical: canonicalRun(canonical, "window_s"),
      codes: ["window"],
      why: "our window runs from the first measured request's start to the last measured request's end"
    }),
    finishRow({
      point,
      metric: "request_throughput",
      definition: "completed / duration",
      unit: "req/s",
      reported: num(agg.request_throughput),
      recomputed: c.haveRecords && duration ? derived(ok.length / duration, windowNote) : missing(NO_ARRAYS),
      canonical: canonicalRun(canonical, "request_throughput_rps"),
      codes: ["window"],
      why
    }),
    finishRow({
      point,
      metric: "output_throughput",
      definition: "Σ output tokens / duration",
      unit: "tok/s",
      reported: num(agg.output_throughput),
      recomputed:
        c.haveRecords && duration && c.sumOut !== null
          ? derived(c.sumOut / duration, windowNote)
          : missing("no per-request output lengths"),
      canonical: canonicalRun(canonical, "output_throughput_tok_s"),
      codes: ["window"],
      why
    })
  ];
  const good = goodputRow(c);
  if (good) rows.push(good);
  const {meanLatencyMs, completed} = c;
  if (
    c.flavor === "sglang" &&
    num(agg.concurrency) !== null &&
    meanLatencyMs !== null &&
    completed !== null &&
    duration
  )
    rows.push(
      finishRow({
        point,
        metric: "concurrency",
        definition: "Σ E2E / duration (Little's law)",
        unit: "requests",
        reported: num(agg.concurrency),
        recomputed: derived(
          (meanLatencyMs * completed) / 1000 / duration,
          "mean_e2e_latency_ms × completed / duration"
        ),
        canonical: canonicalRun(canonical, "achieved_concurrency"),
        codes: ["definition", "window"],
        why: "ours is the time-weighted mean in flight over our window"
      })
    );
  return rows;
}

/** The three-column rows of one vLLM or SGLang run. */
export function compareVllmLike(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aggregatesOf(source);
  const facts = source.facts as {flavor?: Flavor; latenciesS?: number[]};
  const flavor: Flavor = facts.flavor ?? (source.tool === "sglang" ? "sglang" : "vllm");
  const ok = successes(requests);
  const stats = statsOf(agg);
  const outTokens = ok.map((r) => r.out);
  const run: Run = {
    point: source.point,
    flavor,
    agg,
    ok,
    canonical,
    haveRecords: requests.length > 0,
    completed: num(agg.completed),
    duration: num(agg.duration),
    meanLatencyMs: num(stats.get("e2e")?.get("mean")?.value),
    sumOut: outTokens.every((x) => x !== null) ? sumOf(outTokens as number[]) : null
  };
  const rows = [...countRows(run), ...windowRows(run)];
  const allFailed = run.completed === 0;
  for (const family of ["ttft", "tpot", "itl", "e2e"] as const) {
    const fam = stats.get(family);
    if (!fam) continue;
    const m = MAPPING[family];
    const reported: ReportedStat[] = [...fam].map(([label, {key, value}]) => ({
      metric: key,
      label,
      stat: parseStat(label)!,
      reported: allFailed ? null : value
    }));
    const roleChunk = family === "ttft" && flavor === "vllm" && vllmMaybeChat(agg);
    appendAll(
      rows,
      statRows(reported, {
        point: run.point,
        definition: (s) => `${DEFS[flavor][family]}: ${s.label}`,
        unit: () => "ms",
        recompute: (stat) =>
          recomputeVllmStat(family, stat, requests, {latenciesS: facts.latenciesS, meanLatencyMs: run.meanLatencyMs}),
        canonical: (stat, unit) => ({
          ref: canonicalRef(canonical, m.canonical, stat, unit),
          codes:
            typeof stat === "string" && stat !== "median" ? m.codes.filter((c) => c !== "percentile_method") : m.codes,
          why: m.why
        }),
        ...(roleChunk ? {caveat: VLLM_CHAT_TTFT_CAVEAT} : {})
      })
    );
  }
  return rows;
}

export const recomputeVllm = recomputeVllmStat;

/** A chat result's role-chunk TTFT caveat, on every metric of ours that ends or starts at its first token. */
export function vllmCaveats(aggregates: Record<string, unknown>): {metric: string; note: string}[] {
  return vllmMaybeChat(aggregates)
    ? ["ttft_ms", "ttft_content_ms", "prefill_tok_s"].map((metric) => ({metric, note: VLLM_CHAT_TTFT_CAVEAT}))
    : [];
}
export const compareVllm = compareVllmLike;
