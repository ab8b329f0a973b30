import type {PointFacts} from "../gates/types.ts";
import {GATES} from "../gates/registry.ts";
import {verdictOf} from "../gates/verdict.ts";
import {METRICS, REQUEST_METRICS, RUN_METRIC_DEFS} from "../metrics/registry.ts";
import {specDecodeBlock} from "../metrics/specBlock.ts";
import {isNonStreamed, NOT_STREAMED} from "../metrics/streams.ts";
import {workloadBlock} from "../workload/block.ts";
import type {MetricId} from "../schema/ids.ts";
import {stability} from "../stats/stability.ts";
import {summarize} from "../stats/summarize.ts";
import type {MetricValue, PointReport, Report, RunMetricValue, SummaryValue} from "./types.ts";

const REQUEST_IDS: ReadonlySet<string> = new Set(REQUEST_METRICS.map((m) => m.id));
const STREAMS_ONLY: ReadonlySet<string> = new Set(METRICS.filter((m) => m.streamsOnly).map((m) => m.id));

/** Metrics whose values rest on the server's output token count (G8 states when the stream disagrees). */
const COUNT_BASED: ReadonlySet<string> = new Set<MetricId>([
  "tpot_ms",
  "itl_ms",
  "decode_tok_s",
  "interactivity_tok_s",
  "e2e_output_tok_s",
  "output_tokens",
  "output_throughput_tok_s",
  "input_output_throughput_tok_s",
  "tokens_per_chunk",
  "interactivity_share_tok_s"
]);

/** The caveat of count-based metrics when the server's counts and the stream disagree (G8), else null. */
function countCaveat(f: PointFacts, tol: number): string | null {
  const t = f.tokens;
  const surplus = t.sumOutNoDeltas > t.sumStreamNoDeltas * (1 + tol);
  const bad = t.undercount + t.contradicted + (surplus ? t.unverified : 0);
  if (bad === 0 && !surplus) return null;
  // a client tokenizer's counts (imports) are not the server's
  if ((f.usageSources["client_tokenizer"] ?? 0) > 0)
    return `output token counts of ${bad}/${t.checked} requests disagree with the stream (counted Σ ${t.sumOut} vs stream Σ ${t.sumStream}; G8): values computed from those counts`;
  return `output token counts of ${bad}/${t.checked} requests disagree with the stream (server Σ ${t.sumOut} vs stream Σ ${t.sumStream}; G8): values computed from the server's counts`;
}

/** One load point of the report: every metric summarised (with stability and caveats) and its own verdict. */
export function pointReport(f: PointFacts, gates: Report["gates"], tolerance: number): PointReport {
  const metrics: Record<string, MetricValue> = {};
  const caveat = countCaveat(f, tolerance);
  const nonStreamed = isNonStreamed(f.totals);
  for (const [id, values] of f.columns) {
    const s: SummaryValue = summarize(values);
    if (nonStreamed && STREAMS_ONLY.has(id)) s.note = NOT_STREAMED;
    if (f.repeats.length >= 2 && REQUEST_IDS.has(id)) {
      const per = f.repeats.map((r) => r.medians.get(id) ?? null).filter((v): v is number => v !== null);
      s.stability = stability(per);
      if (per.length < f.repeats.length)
        s.stability.note = `${s.stability.note === null ? "" : `${s.stability.note}; `}${f.repeats.length - per.length} of ${f.repeats.length} repeats have fewer than 5 values (no median)`;
    }
    if (caveat !== null && COUNT_BASED.has(id) && s.n > 0) s.note = caveat;
    metrics[id] = s;
  }
  for (const m of RUN_METRIC_DEFS) {
    if (nonStreamed && STREAMS_ONLY.has(m.id)) {
      metrics[m.id] = {value: null, reason: NOT_STREAMED};
      continue;
    }
    const pooled: RunMetricValue = {...m.value(f.totals)};
    if (caveat !== null && COUNT_BASED.has(m.id) && pooled.value !== null)
      pooled.note = pooled.note === undefined ? caveat : `${pooled.note}; ${caveat}`;
    if (f.repeats.length >= 2) {
      const per = f.repeats.map((r) => m.value(r.totals).value).filter((v): v is number => v !== null);
      pooled.stability = stability(per);
    }
    metrics[m.id] = pooled;
  }
  const pointGates = gates.map((g) => {
    const own = g.points?.find((p) => p.point === f.point.id);
    return own ? {...g, status: own.status, reason: own.reason} : g;
  });
  const {verdict, reasons} = verdictOf(GATES, pointGates);
  const spec = specDecodeBlock(f.specServer, f.specTimings);
  const workload = workloadBlock(f.workloadLengths, f.prefixCache);
  return {
    id: f.point.id,
    mode: f.point.mode,
    value: f.point.value,
    repeats: f.repeats.length,
    n: f.totals.measured,
    n_success: f.totals.successes,
    n_warmup: f.phases.warmup,
    verdict,
    verdict_reasons: reasons,
    outcomes: f.outcomes as Record<string, number>,
    failures: f.failureExamples,
    finish_reasons: f.finishReasons,
    usage_sources: f.usageSources,
    metrics,
    ...(spec === null ? {} : {spec_decode: spec}),
    ...(workload === null ? {} : {workload})
  };
}
