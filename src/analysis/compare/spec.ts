import {min} from "d3-array";

import {specDecodeOf, type SpecDecodeBlock} from "../metrics/specBlock.ts";
import {appendAll} from "../util/append.ts";
import {isSummary, type PointReport, type Report} from "../report/types.ts";
import {comparability, type Comparability, type ComparableRun} from "./comparability.ts";
import {qualityGuard, QUALITY_MARGIN, MIN_MATCHED_ANSWERS, type SpecQualityGuard} from "./specQuality.ts";

/**
 * Speculative decoding (MTP, EAGLE, draft models) on vs off on the same workload (docs/spec-decode.md):
 * speculation raises TTFT by design (reported, labelled expected); its gain is judged on pure decode speed
 * (decode_tok_s) and ITL only, never on output tok/s including TTFT; a pair with short outputs or long
 * prompts is unfit to judge the gain; spec-on decode below half of spec-off's at the same prompt length is a
 * long-context collapse; and the answers must not change beyond what two spec-off runs differ by. Every
 * sentence is a message id with parameters (SPEC_MESSAGE_IDS), which the site translates (src/i18n spec.ts).
 */

/** The rules' thresholds, stated once. */
export const SPEC_RULES = {
  /** max_tokens (and median outputs) below this: unfit to judge, the first token dominates. */
  minOutputTokens: 512,
  /** Median prompt above this many tokens: prompts are not short, unfit to judge the gain. */
  maxShortPromptTokens: 1024,
  /** Spec-on decode t/s below this fraction of spec-off's at the same prompt length: collapse. */
  collapseRatio: 0.5,
  /** A decode change smaller than this (percent), or than the off-vs-off change, is no clear difference. */
  minEffectPct: 5,
  qualityMargin: QUALITY_MARGIN,
  minMatchedAnswers: MIN_MATCHED_ANSWERS
} as const;

export const SPEC_MESSAGE_IDS = [
  "specNotComparable",
  "specNoSharedPoint",
  "specTotalThroughputNotUsed",
  "specTtftExpected",
  "specUnfitShortOutput",
  "specUnfitOutputUnknown",
  "specUnfitLongPrompt",
  "specDecodeFaster",
  "specDecodeSlower",
  "specDecodeNoClearDifference",
  "specDecodeNotEvaluated",
  "specSlowerDraftCost",
  "specItlChange",
  "specAcceptance",
  "specAcceptanceNotExported",
  "specCollapse",
  "specCollapseShortContext",
  "specNoiseUnknown",
  "specQualityWithinNoise",
  "specQualityBeyondNoise",
  "specQualityNotEvaluated",
  "specQualityPassRateDrop",
  "specGainWithChangedAnswers"
] as const;
export type SpecMessageId = (typeof SPEC_MESSAGE_IDS)[number];

export interface SpecMessage {
  id: SpecMessageId;
  params: Record<string, string | number>;
}

/** What the comparison reads from a report (a Report satisfies it). */
export type SpecRun = ComparableRun &
  Pick<Report, "load_points" | "quality"> & {meta: Pick<Report["meta"], "model" | "workloadKey" | "workload">};

export interface SpecDelta {
  metric: "decode_tok_s" | "itl_ms" | "ttft_ms";
  /** Medians (p50) of the metric per run. */
  on: number | null;
  off: number | null;
  offRepeat: number | null;
  /** (on − off) / off, percent. */
  relPct: number | null;
  /** |offRepeat − off| / off, percent: the run-to-run noise (null without a second spec-off run). */
  noisePct: number | null;
}

export type SpecReading = "faster" | "slower" | "no_clear_difference" | "unfit_to_judge" | "not_evaluated";

export interface SpecPointVerdict {
  point: string;
  /** Median prompt tokens (spec-off run), else the workload's. */
  promptTokens: number | null;
  /** The smaller of the runs' max_tokens. */
  maxTokens: number | null;
  fit: boolean;
  reading: SpecReading;
  decode: SpecDelta;
  itl: SpecDelta;
  /** TTFT's change is reported and labelled expected: speculation drafts and verifies before the first token. */
  ttft: SpecDelta & {expected: true};
  tokensPerEvent: {on: number | null; off: number | null};
  spec: Pick<SpecDecodeBlock, "acceptance_rate" | "mean_acceptance_length" | "per_position">;
  /** on/off decode medians and whether it is below SPEC_RULES.collapseRatio (null: not evaluated). */
  collapse: {collapsed: boolean | null; ratio: number | null};
  messages: SpecMessage[];
}

export interface SpecComparison {
  comparability: Comparability;
  rules: typeof SPEC_RULES;
  points: SpecPointVerdict[];
  /** Point ids not present in both the spec-on and spec-off runs. */
  unmatched: string[];
  quality: SpecQualityGuard;
  /** Some point collapsed. */
  collapse: boolean;
  /** A point's decode got faster while the answers changed beyond the noise (or the pass rate dropped). */
  qualityFlag: boolean;
  messages: SpecMessage[];
}

const msg = (id: SpecMessageId, params: SpecMessage["params"] = {}): SpecMessage => ({id, params});
const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;
const orUnknown = (v: number | null): number | string => (v === null ? "?" : round(v));

function p50(p: PointReport | undefined, id: string): number | null {
  const m = p?.metrics[id];
  return m !== undefined && isSummary(m) ? m.p50 : null;
}

function delta(metric: SpecDelta["metric"], on?: PointReport, off?: PointReport, offRepeat?: PointReport): SpecDelta {
  const [a, b, c] = [p50(on, metric), p50(off, metric), p50(offRepeat, metric)];
  return {
    metric,
    on: a,
    off: b,
    offRepeat: c,
    relPct: a !== null && b !== null && b !== 0 ? ((a - b) / b) * 100 : null,
    noisePct: c !== null && b !== null && b !== 0 ? (Math.abs(c - b) / b) * 100 : null
  };
}

const minKnown = (...xs: (number | null | undefined)[]): number | null =>
  min(xs, (x) => (typeof x === "number" ? x : undefined)) ?? null;

/** Whether the pair can judge the gain: long enough outputs, short enough prompts (messages say why not). */
function fitness(maxTokens: number | null, outP50: number | null, prompt: number | null): SpecMessage[] {
  const out: SpecMessage[] = [];
  const shortest = minKnown(maxTokens, outP50);
  if (shortest === null) out.push(msg("specUnfitOutputUnknown", {min: SPEC_RULES.minOutputTokens}));
  else if (shortest < SPEC_RULES.minOutputTokens)
    out.push(msg("specUnfitShortOutput", {tokens: shortest, min: SPEC_RULES.minOutputTokens}));
  if (prompt !== null && prompt > SPEC_RULES.maxShortPromptTokens)
    out.push(msg("specUnfitLongPrompt", {tokens: prompt, max: SPEC_RULES.maxShortPromptTokens}));
  return out;
}

function readingOf(fit: boolean, d: SpecDelta): SpecReading {
  if (!fit) return "unfit_to_judge";
  if (d.relPct === null) return "not_evaluated";
  const threshold = Math.max(SPEC_RULES.minEffectPct, d.noisePct ?? 0);
  if (d.relPct > threshold) return "faster";
  if (d.relPct < -threshold) return "slower";
  return "no_clear_difference";
}

const DECODE_MESSAGE: Record<SpecReading, SpecMessageId | null> = {
  faster: "specDecodeFaster",
  slower: "specDecodeSlower",
  no_clear_difference: "specDecodeNoClearDifference",
  not_evaluated: "specDecodeNotEvaluated",
  unfit_to_judge: null
};

function pointVerdict(id: string, on: SpecRun, off: SpecRun, offRepeat: SpecRun | null): SpecPointVerdict {
  const find = (r: SpecRun | null) => r?.load_points.find((p) => p.id === id);
  const [pOn, pOff, pRep] = [find(on), find(off), find(offRepeat)];
  const prompt = p50(pOff, "input_tokens") ?? off.meta.workload.prompt_tokens;
  const maxTokens = minKnown(on.meta.workload.max_tokens, off.meta.workload.max_tokens);
  const unfit = fitness(maxTokens, minKnown(p50(pOn, "output_tokens"), p50(pOff, "output_tokens")), prompt);
  const decode = delta("decode_tok_s", pOn, pOff, pRep);
  const itl = delta("itl_ms", pOn, pOff, pRep);
  const ttft = {...delta("ttft_ms", pOn, pOff, pRep), expected: true as const};
  const reading = readingOf(unfit.length === 0, decode);
  const ratio = decode.on !== null && decode.off !== null && decode.off > 0 ? decode.on / decode.off : null;
  const spec = specDecodeOf(pOn ?? {});
  const messages = unfit.slice();
  if (ttft.relPct !== null) messages.push(msg("specTtftExpected", {pct: round(ttft.relPct)}));
  const dm = DECODE_MESSAGE[reading];
  const pct = decode.relPct === null ? "?" : round(decode.relPct);
  const decodeParams = {on: orUnknown(decode.on), off: orUnknown(decode.off), pct};
  if (dm !== null)
    messages.push(
      msg(dm, {...decodeParams, threshold: round(Math.max(SPEC_RULES.minEffectPct, decode.noisePct ?? 0))})
    );
  if (reading === "slower") messages.push(msg("specSlowerDraftCost"));
  if (itl.relPct !== null)
    messages.push(msg("specItlChange", {on: round(itl.on!, 2), off: round(itl.off!, 2), pct: round(itl.relPct)}));
  const rate = spec.acceptance_rate;
  if (rate.value === null) messages.push(msg("specAcceptanceNotExported", {reason: rate.reason ?? ""}));
  else
    messages.push(
      msg("specAcceptance", {
        rate: round(rate.value * 100),
        source: rate.source ?? "",
        length: spec.mean_acceptance_length.value === null ? "—" : round(spec.mean_acceptance_length.value, 2)
      })
    );
  const collapsed = ratio === null ? null : ratio < SPEC_RULES.collapseRatio;
  if (collapsed === true)
    messages.push(
      // the ModelRun case is a long context; below it the same ratio is a collapse without one
      msg(prompt !== null && prompt > SPEC_RULES.maxShortPromptTokens ? "specCollapse" : "specCollapseShortContext", {
        ...decodeParams,
        prompt: prompt ?? "?",
        ratio: round(ratio!, 3), // 0.498 must not read as 0.5
        threshold: SPEC_RULES.collapseRatio
      })
    );
  return {
    point: id,
    promptTokens: prompt,
    maxTokens,
    fit: unfit.length === 0,
    reading,
    decode,
    itl,
    ttft,
    tokensPerEvent: {on: p50(pOn, "tokens_per_event"), off: p50(pOff, "tokens_per_event")},
    spec: {
      acceptance_rate: spec.acceptance_rate,
      mean_acceptance_length: spec.mean_acceptance_length,
      per_position: spec.per_position
    },
    collapse: {collapsed, ratio},
    messages
  };
}

function qualityMessages(q: SpecQualityGuard): SpecMessage[] {
  const out: SpecMessage[] = [];
  if (q.noise === "assumed_zero") out.push(msg("specNoiseUnknown"));
  const pctOf = (share: number | null | undefined): number | string => (share == null ? "?" : round((1 - share) * 100));
  const params = {
    matched: q.onVsOff.matched,
    differOn: pctOf(q.onVsOff.share),
    differOff: q.offVsOff === null ? 0 : pctOf(q.offVsOff.share),
    margin: round(QUALITY_MARGIN * 100),
    min: MIN_MATCHED_ANSWERS
  };
  const id = {
    within_noise: "specQualityWithinNoise",
    beyond_noise: "specQualityBeyondNoise",
    not_evaluated: "specQualityNotEvaluated"
  } as const;
  out.push(msg(id[q.status], params));
  const r = q.passRate;
  if (q.passRateDrop)
    out.push(msg("specQualityPassRateDrop", {on: round((r.on.rate ?? 0) * 100), off: round((r.off.rate ?? 0) * 100)}));
  return out;
}

/**
 * Compares a spec-on report with a spec-off report of the same workload (and, optionally, a second spec-off
 * report as the noise reference), load point by load point. Refuses verdicts when the runs are not comparable
 * (measure version, workload, client health, INVALID verdict; the served model's name may differ).
 */
export function compareSpec(on: SpecRun, off: SpecRun, offRepeat: SpecRun | null = null): SpecComparison {
  const runs = offRepeat === null ? [off, on] : [off, on, offRepeat];
  const c = comparability(runs);
  const checks = c.checks.filter((k) => k.id !== "model");
  const reasons = checks.flatMap((k) => (k.reason === null ? [] : [k.reason]));
  const quality = qualityGuard(on, off, offRepeat);
  const out: SpecComparison = {
    comparability: {comparable: reasons.length === 0, checks, reasons},
    rules: SPEC_RULES,
    points: [],
    unmatched: [],
    quality,
    collapse: false,
    qualityFlag: false,
    messages: [msg("specTotalThroughputNotUsed")]
  };
  if (!out.comparability.comparable) {
    const failed = checks.filter((k) => !k.ok).map((k) => k.id);
    out.messages.push(msg("specNotComparable", {checks: failed.join(", ")}));
    return out;
  }
  const offIds = new Set(off.load_points.map((p) => p.id));
  const onIds = new Set(on.load_points.map((p) => p.id));
  out.unmatched = [...onIds, ...offIds].filter((id) => !(onIds.has(id) && offIds.has(id)));
  out.unmatched = [...new Set(out.unmatched)];
  for (const p of on.load_points) if (offIds.has(p.id)) out.points.push(pointVerdict(p.id, on, off, offRepeat));
  if (out.points.length === 0) out.messages.push(msg("specNoSharedPoint"));
  out.collapse = out.points.some((p) => p.collapse.collapsed === true);
  const gain = out.points.some((p) => p.reading === "faster");
  out.qualityFlag = gain && (quality.status === "beyond_noise" || quality.passRateDrop);
  appendAll(out.messages, qualityMessages(quality));
  if (out.qualityFlag) out.messages.push(msg("specGainWithChangedAnswers"));
  return out;
}
