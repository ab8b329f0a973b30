import {max, min} from "d3-array";

import type {DerivedRequest} from "../../derive/request.ts";
import {appendAll} from "../../util/append.ts";
import {
  canonicalRef,
  canonicalRun,
  derived,
  exact,
  finishRow,
  missing,
  type ComparisonInput,
  type ReasonCode,
  type SourceComparisonRow,
  aggregatesOf
} from "../shared/compare.ts";
import {isObject} from "../shared/parse.ts";
import {numpyStat, parseStat, type Stat} from "../shared/stats.ts";
import {percentileCodes, statRows, type ReportedStat} from "../shared/statRows.ts";
import {defined, successes} from "../shared/views.ts";

/**
 * GenAI-Perf parity: each summary statistic recomputed from the export's content responses under
 * GenAI-Perf's definitions (numpy R-7, population std), and its two throughputs.
 */
type Family =
  "time_to_first_token" | "time_to_second_token" | "request_latency" | "inter_token_latency" | "output_sequence_length";

/** Times of a request's content responses (GenAI-Perf drops empty and role-only responses), ms from send. */
function contentTimes(r: DerivedRequest): number[] {
  const out: number[] = [];
  for (const [t, , kind] of r.record.events) if (kind === "content" && r.tDisp !== null) out.push((t - r.tDisp) / 1e6);
  return out;
}

export function genaiPerfValues(family: Family, ok: readonly DerivedRequest[]): number[] {
  return defined(
    ok.map((r) => {
      const ts = contentTimes(r);
      if (ts.length === 0) return null;
      if (family === "time_to_first_token") return ts[0]!;
      if (family === "time_to_second_token") return ts.length > 1 ? ts[1]! - ts[0]! : null;
      if (family === "request_latency") return ts.at(-1)!;
      if (family === "output_sequence_length") return r.out;
      return r.out !== null && r.out > 1 ? (ts.at(-1)! - ts[0]!) / (r.out - 1) : null;
    })
  );
}

/**
 * Why GenAI-Perf's token counts cannot be recomputed: it counts the generated text with its client tokenizer
 * (`input_config.tokenizer`; llm_profile_data_parser's output token counts), which the export does not keep; a
 * server's usage is another count (audit: usage 97.5 tokens per answer where GPT-2's tokenizer, GenAI-Perf's,
 * gives its 100.7 exactly).
 */
export function tokenizerReason(tokenizer: string | null): string {
  return `token_source: GenAI-Perf counts output tokens with its client tokenizer (${tokenizer ?? "not named in the file"}), a count the export does not keep; the server's usage is another count`;
}

/** A non-streaming request answers once: one response, no time between tokens. */
const answeredOnce = (ok: readonly DerivedRequest[]): boolean =>
  ok.length > 0 && ok.every((r) => contentTimes(r).length <= 1);

export function recomputeGenaiPerf(
  family: Family,
  stat: Stat,
  requests: readonly DerivedRequest[],
  tokenizer: string | null = null
) {
  const ok = successes(requests);
  if (family === "inter_token_latency" && answeredOnce(ok))
    return missing("non-streaming: each answer arrived in one response, so there is no time between tokens");
  if (family === "inter_token_latency" || family === "output_sequence_length")
    return missing(tokenizerReason(tokenizer));
  return exact(numpyStat(genaiPerfValues(family, ok), stat, 0));
}

/**
 * GenAI-Perf's definition of each metric, our canonical metric for it, and why the two differ (the
 * percentile method is added for percentiles).
 */
const FAMILIES: Record<Family, {definition: string; canonical: string | null; codes: ReasonCode[]; why: string}> = {
  time_to_first_token: {
    definition: "first response with non-empty content − request timestamp",
    canonical: "ttft_content_ms",
    codes: [],
    why: "R-7 vs nearest-rank percentiles (their TTFT ignores reasoning, like our ttft_content_ms)"
  },
  time_to_second_token: {definition: "second content response − first", canonical: null, codes: [], why: ""},
  request_latency: {
    definition: "last content response − request timestamp",
    canonical: "e2e_ms",
    codes: [],
    why: "R-7 vs nearest-rank percentiles (our e2e_ms also ends at reasoning or tool-call tokens)"
  },
  inter_token_latency: {
    definition: "(request_latency − ttft)/(OSL − 1) per request",
    canonical: "itl_ms",
    codes: ["token_source"],
    why: "token counts: server usage (ours) vs their client tokenizer"
  },
  output_sequence_length: {
    definition: "output tokens (client tokenizer)",
    canonical: "output_tokens",
    codes: ["token_source"],
    why: "server usage vs client tokenizer"
  }
};

export function compareGenaiPerf(input: ComparisonInput): SourceComparisonRow[] {
  const {source, requests, canonical} = input;
  const agg = aggregatesOf(source);
  const point = source.point;
  const have = requests.length > 0;
  const config = isObject(agg.input_config) ? agg.input_config : {};
  const tokenizer = typeof config.tokenizer === "string" && config.tokenizer !== "" ? config.tokenizer : null;
  const rows: SourceComparisonRow[] = [];
  for (const f of Object.keys(FAMILIES) as Family[]) {
    const stats = isObject(agg[f])
      ? (agg[f] as Record<string, unknown>)
      : have
        ? {avg: null, p50: null, p99: null}
        : null;
    if (!stats) continue;
    const reported: ReportedStat[] = [];
    for (const [label, value] of Object.entries(stats)) {
      const stat = parseStat(label);
      if (stat === null || stat === "count") continue;
      reported.push({metric: `${f}.${label}`, label, stat, reported: typeof value === "number" ? value : null});
    }
    const m = FAMILIES[f];
    appendAll(
      rows,
      statRows(reported, {
        point,
        definition: () => `${m.definition}; numpy R-7, population std`,
        unit: () => (typeof stats.unit === "string" ? stats.unit : f === "output_sequence_length" ? "tokens" : "ms"),
        recompute: (stat) =>
          have ? recomputeGenaiPerf(f, stat, requests, tokenizer) : missing("no profile_export.json"),
        canonical: (stat, unit) =>
          m.canonical === null
            ? {ref: null, codes: [], why: ""}
            : {
                ref: canonicalRef(canonical, m.canonical, stat, unit),
                codes: [...m.codes, ...percentileCodes(stat)],
                why: m.why
              }
      })
    );
  }
  // duration: max last content response − min request timestamp, over every request
  const lasts = requests.flatMap((r) => r.record.events.filter((e) => e[2] === "content").map((e) => e[0]));
  const sends = requests.map((r) => r.tDisp).filter((t): t is number => t !== null);
  const duration = lasts.length && sends.length ? (max(lasts)! - min(sends)!) / 1e9 : null;
  const avg = (k: string) =>
    isObject(agg[k]) && typeof (agg[k] as Record<string, unknown>).avg === "number"
      ? ((agg[k] as Record<string, unknown>).avg as number)
      : null;
  rows.push(
    finishRow({
      point,
      metric: "request_throughput.avg",
      definition: "all requests (failed included) / (max response − min request timestamp)",
      unit: "requests/sec",
      reported: avg("request_throughput"),
      recomputed: have
        ? derived(duration ? requests.length / duration : null, "every request counted, failed ones included")
        : missing("no profile_export.json"),
      canonical: canonicalRun(canonical, "request_throughput_rps"),
      codes: ["definition", "window"],
      why: "we count successful requests only, over our window"
    }),
    finishRow({
      point,
      metric: "output_token_throughput.avg",
      definition: "Σ OSL / (max response − min request timestamp)",
      unit: "tokens/sec",
      reported: avg("output_token_throughput"),
      recomputed: have ? missing(tokenizerReason(tokenizer)) : missing("no profile_export.json"),
      canonical: canonicalRun(canonical, "output_throughput_tok_s"),
      codes: ["window", "token_source"],
      why: "our window and server token counts"
    })
  );
  return rows;
}
