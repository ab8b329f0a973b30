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
import {parseStat} from "../shared/stats.ts";
import {successes, sumOf} from "../shared/views.ts";
import {statsOf, VLLM_CHAT_TTFT_CAVEAT, type Family, type Flavor} from "./format.ts";
import {num, outputKey, sglangRetokenizedGap, vllmMaybeChatRun, type RetokenizedGap} from "./condition.ts";
import {completedByTool, recomputeVllmStat} from "./recompute.ts";
import {fromTotals, NO_ARRAYS, totalTokenRow} from "./totals.ts";

export {recomputeVllmStat} from "./recompute.ts";

/**
 * vLLM and SGLang parity: each reported `<stat>_<family>_ms`, count and rate recomputed under the tool's
 * own definition (numpy R-7 percentiles, population std, over the requests the tool counted completed:
 * `completedByTool`) and set beside our canonical metric.
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

/** What every row of one vLLM or SGLang run is computed from. */
interface Run {
  point: string | null;
  flavor: Flavor;
  agg: Record<string, unknown>;
  /** The requests the tool counted completed (its population), all records, and InferScope's successes. */
  ok: DerivedRequest[];
  all: readonly DerivedRequest[];
  successes: number;
  canonical: ComparisonInput["canonical"];
  haveRecords: boolean;
  completed: number | null;
  duration: number | null;
  meanLatencyMs: number | null;
  sumOut: number | null;
  /** SGLang's token total against its re-tokenized count, where they disagree (null otherwise). */
  tokenGap: RetokenizedGap | null;
}

/**
 * The answers the tool counted completed and InferScope does not (no token, no error): why a row of ours that
 * counts or measures requests differs, on top of the family's own reasons. Null when there are none.
 */
function emptyWhy(c: Run): string | null {
  const n = c.ok.length - c.successes;
  if (n === 0) return null;
  const tool = c.flavor === "vllm" ? "vLLM" : "SGLang";
  return `${n} answer${n === 1 ? "" : "s"} without any token and without an error: an empty output with no error is what ${tool} counts as completed (TTFT 0 in its file); InferScope's definition treats it as a failure (empty_output)`;
}

/** A canonical pick's codes and why, with the empty answers' difference added where there are some. */
function withEmpty(c: Run, codes: ReasonCode[], why: string): {codes: ReasonCode[]; why: string} {
  const e = emptyWhy(c);
  return e === null
    ? {codes, why}
    : {codes: [...new Set<ReasonCode>([...codes, "definition"])], why: `${why}; definition: ${e}`};
}

/** The token-source doubt a row resting on SGLang's output-token count carries (none where the counts agree). */
const tokenDoubt = (c: Run): {qualifiers?: {code: ReasonCode; note: string}[]} =>
  c.tokenGap ? {qualifiers: [{code: "token_source", note: c.tokenGap.note}]} : {};

/** Request and token counts: completed, Σ output and Σ input tokens, SGLang's re-tokenized count. */
function countRows(c: Run): SourceComparisonRow[] {
  const {point, agg, ok, flavor} = c;
  const recount = (v: number | null): Recomputed => (c.haveRecords ? exact(v) : missing(NO_ARRAYS));
  const inTokens = ok.map((r) => r.in);
  const sumIn = inTokens.every((x) => x !== null) ? sumOf(inTokens as number[]) : null;
  const outKey = outputKey(agg);
  const inKey = "total_input_tokens" in agg ? "total_input_tokens" : "total_input";
  const rows = [
    finishRow({
      point,
      metric: "completed",
      definition: "requests whose error string is empty (their client's success), an answer without any token included",
      unit: "requests",
      reported: c.completed,
      recomputed: recount(ok.length),
      // without request records our count is unknown, not 0
      canonical: c.canonical
        ? c.haveRecords
          ? {metric: "n_success", value: c.successes}
          : {metric: "n_success", value: null, note: "no request records (the file keeps aggregates only)"}
        : null,
      codes: ["definition"],
      why: emptyWhy(c) ?? "our definition differs"
    }),
    ...("failed" in agg
      ? [
          finishRow({
            point,
            metric: "failed",
            definition: "requests whose error string is not empty",
            unit: "requests",
            reported: num(agg.failed),
            recomputed: recount(c.all.length - ok.length),
            canonical: null,
            codes: []
          })
        ]
      : []),
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
      codes: [],
      ...tokenDoubt(c)
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
  const gap = c.tokenGap;
  if (gap)
    rows.push(
      finishRow({
        point,
        metric: gap.key,
        definition: "Σ output tokens re-tokenized on the client from the generated text",
        unit: "tokens",
        reported: gap.retokenized,
        recomputed: derived(gap.total, gap.outKey),
        canonical: null,
        codes: ["token_source"],
        ...tokenDoubt(c)
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

/**
 * With start times (one clock for every request), the run lasted at least from its first request's start to the
 * last request's end (or last token): vLLM's duration is the benchmark's perf_counter span around all of them. A
 * lower bound, seconds; null without start times or requests.
 */
function requestSpan(all: readonly DerivedRequest[]): Recomputed | null {
  if (all.length === 0 || all.some((r) => r.record.timeBase !== "run")) return null;
  let first = Infinity;
  let last = -Infinity;
  for (const r of all) {
    if (r.tDisp !== null) first = Math.min(first, r.tDisp);
    const end = r.tEnd ?? r.tTokN ?? r.tDisp;
    if (end !== null) last = Math.max(last, end);
  }
  if (!Number.isFinite(first) || !Number.isFinite(last)) return null;
  return bounded(
    (last - first) / 1e9,
    null,
    "at least the span of its requests: first start to the last end (or last token, without latencies)"
  );
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
      recomputed: requestSpan(c.all) ?? missing("the run's start and end are not in the per-request data"),
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
      recomputed: c.haveRecords
        ? duration
          ? derived(ok.length / duration, windowNote)
          : missing(NO_ARRAYS)
        : fromTotals(c.completed, duration),
      canonical: canonicalRun(canonical, "request_throughput_rps"),
      ...withEmpty(c, ["window"], why)
    }),
    finishRow({
      point,
      metric: "output_throughput",
      definition: "Σ output tokens / duration",
      unit: "tok/s",
      reported: num(agg.output_throughput),
      recomputed: c.haveRecords
        ? duration && c.sumOut !== null
          ? derived(c.sumOut / duration, windowNote)
          : missing("no per-request output lengths")
        : fromTotals(num(agg[outputKey(agg)]), duration),
      canonical: canonicalRun(canonical, "output_throughput_tok_s"),
      codes: ["window"],
      why,
      ...tokenDoubt(c)
    })
  ];
  const total = totalTokenRow({point, agg, duration, canonical, why, ...tokenDoubt(c)});
  if (total !== null) rows.push(total);
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
  const ok = requests.filter(completedByTool);
  const stats = statsOf(agg);
  const outTokens = ok.map((r) => r.out);
  const run: Run = {
    point: source.point,
    flavor,
    agg,
    ok,
    all: requests,
    successes: successes(requests).length,
    canonical,
    haveRecords: requests.length > 0,
    completed: num(agg.completed),
    duration: num(agg.duration),
    meanLatencyMs: num(stats.get("e2e")?.get("mean")?.value),
    sumOut: outTokens.every((x) => x !== null) ? sumOf(outTokens as number[]) : null,
    tokenGap: flavor === "sglang" ? sglangRetokenizedGap(agg) : null
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
      // vLLM and SGLang write 0 for a statistic of no requests: not a measurement. Any other value beside
      // completed 0 is kept as written (the import warns that the file contradicts itself)
      reported: allFailed && value === 0 ? null : value
    }));
    const roleChunk = family === "ttft" && flavor === "vllm" && vllmMaybeChatRun(agg);
    appendAll(
      rows,
      statRows(reported, {
        point: run.point,
        definition: (s) => `${DEFS[flavor][family]}: ${s.label}`,
        unit: () => "ms",
        recompute: (stat) =>
          recomputeVllmStat(family, stat, requests, {latenciesS: facts.latenciesS, meanLatencyMs: run.meanLatencyMs}),
        canonical: (stat, unit) => {
          const codes =
            typeof stat === "string" && stat !== "median" ? m.codes.filter((c) => c !== "percentile_method") : m.codes;
          // empty answers are in their TTFT (as 0) and E2E populations, in neither ITL nor TPOT (no gap, out ≤ 1)
          const population = family === "ttft" || family === "e2e";
          return {
            ref: canonicalRef(canonical, m.canonical, stat, unit),
            ...(population ? withEmpty(run, codes, m.why) : {codes, why: m.why})
          };
        },
        ...(roleChunk ? {caveat: VLLM_CHAT_TTFT_CAVEAT} : {})
      })
    );
  }
  return rows;
}

export const recomputeVllm = recomputeVllmStat;

/** A chat result's role-chunk TTFT caveat, on every metric of ours that ends or starts at its first token. */
export function vllmCaveats(aggregates: Record<string, unknown>): {metric: string; note: string}[] {
  return vllmMaybeChatRun(aggregates)
    ? ["ttft_ms", "ttft_content_ms", "prefill_tok_s"].map((metric) => ({metric, note: VLLM_CHAT_TTFT_CAVEAT}))
    : [];
}
export const compareVllm = compareVllmLike;
