import {mulberry32} from "../../src/analysis/stats/prng.ts";
import {
  chunkContext,
  deltaContent,
  deltaEmpty,
  deltaEmptyContent,
  deltaNullContent,
  deltaReasoning,
  deltaRole,
  deltaToolArgs,
  deltaToolName,
  errorJson,
  streamChunk,
  timingsJson,
  usageChunk,
  usageJson,
  type ChunkContext
} from "./chunks.ts";
import type {EndHow, LogicalEvent, StreamEnd} from "./frames.ts";
import type {ScenarioOptions} from "./options.ts";
import {specTokenTimes, type SpecPlan} from "./spec.ts";
import {reasoningCount, type Channel, type FakeRequest, type Output} from "./output.ts";

/** The scripted SSE events of one streamed response, with their due times (rendered by frames.ts). */

/** `end`: index after the last token the step carries (its due time is that token's, under speculative decoding). */
type Step =
  | {kind: "tokens"; ch: Channel; text: string; n: number; call: number; end: number}
  | {kind: "usage_only"; n: number; end: number};

/**
 * Groups tokens into events (tokens per event, never across channels) and usage-jump steps. Under speculative
 * decoding the groups are the first token, then each step's accepted run (multi-token events) or one token each.
 */
function steps(out: Output, o: ScenarioOptions, spec: SpecPlan | null): Step[] {
  const rng = mulberry32(o.seed);
  const specList = spec === null ? null : spec.emulation.multiTokenEvents ? [1].concat(spec.stepTokens) : [1];
  const list = specList ?? (Array.isArray(o.tokensPerEvent) ? o.tokensPerEvent : [o.tokensPerEvent]);
  let li = 0;
  const nextK = (): number => {
    if (specList !== null) return specList[Math.min(li++, specList.length - 1)]!;
    if (o.usageJump) return 4;
    if (o.tokensPerEventRange !== null) {
      const [lo, hi] = o.tokensPerEventRange;
      return lo + Math.floor(rng() * (hi - lo + 1));
    }
    return Math.max(1, list[li++ % list.length]!);
  };
  const res: Step[] = [];
  let i = 0;
  const toks = out.tokens;
  while (i < toks.length) {
    const ch = toks[i]!.ch;
    const call = toks[i]!.call ?? 0;
    const k = ch === "tool_name" ? 1 : nextK();
    let text = "";
    let n = 0;
    while (n < k && i < toks.length && toks[i]!.ch === ch && (toks[i]!.call ?? 0) === call) {
      text += toks[i++]!.text;
      n++;
    }
    if (o.usageJump && n > 1) for (let j = 0; j < n - 1; j++) res.push({kind: "usage_only", n: 1, end: i});
    res.push({kind: "tokens", ch, text, n: o.usageJump ? 1 : n, call, end: i});
  }
  if (o.hugeEventBytes !== null) {
    const idx = res.findIndex((s, j) => s.kind === "tokens" && j >= Math.min(1, res.length - 1));
    const s = res[idx];
    if (s !== undefined && s.kind === "tokens") res[idx] = {...s, ch: "content", text: "x".repeat(o.hugeEventBytes)};
  }
  return res;
}

function deltaFor(ctx: ChunkContext, o: ScenarioOptions, s: Step, index: number): {delta: string; text: string} {
  if (s.kind === "usage_only") return {delta: deltaEmpty, text: ""};
  const empty = o.emptyText === "all" || (typeof o.emptyText === "number" && (index + 1) % o.emptyText === 0);
  if (empty && s.ch === "content")
    return ctx.endpoint === "completions" ? {delta: "", text: ""} : {delta: deltaEmptyContent, text: ""};
  if (ctx.endpoint === "completions") return {delta: "", text: s.text};
  switch (s.ch) {
    case "content":
      return {delta: deltaContent(s.text), text: s.text};
    case "reasoning":
      return {delta: deltaReasoning(o.reasoning === "reasoning" ? "reasoning" : "reasoning_content", s.text), text: ""};
    case "tool_name":
      return {delta: deltaToolName(`call_${s.call}`, s.text, s.call), text: ""};
    case "tool_args":
      return {delta: deltaToolArgs(s.text, s.call), text: ""};
  }
}

/** The logical SSE events with their due times, and how the stream ends. */
export function streamEvents(
  req: FakeRequest,
  o: ScenarioOptions,
  out: Output,
  prompt: number,
  spec: SpecPlan | null = null,
  cached = 0
): {events: LogicalEvent[]; end: StreamEnd} {
  const ctx = chunkContext(req.endpoint, req.requestId, req.model);
  const continuous = o.usage === "every_chunk" || (o.usage === "request" && req.includeUsage && req.continuousUsage);
  const finalUsage = continuous || o.usage === "final" || (o.usage === "request" && req.includeUsage);
  const timings = o.usage === "llamacpp_timings";
  const reasoningN = reasoningCount(out);
  // a natural stop's end-of-sequence token: generated, counted, never shown
  const eos = o.eosToken && out.finish === "stop" ? 1 : 0;
  const reported = (n: number): number => Math.round(n * o.usageFactor);
  const usageAt = (n: number): string => usageJson({prompt, completion: reported(n), reasoning: reasoningN, cached});
  const events: LogicalEvent[] = [];
  const push = (atMs: number, data: string, raw = false): void => void events.push({atMs, data, raw});
  const first = o.headersDelayMs + o.ttftMs + (spec?.emulation.ttftExtraMs ?? 0);
  const all = steps(out, o, spec);
  const cut = o.terminate === "eof" || o.terminate === "fin" || o.terminate === "reset" || o.terminate === "hang";
  let limit = all.length;
  if (cut || o.longLineBytes !== null) limit = Math.min(limit, o.terminateAfter);
  if (o.inbandErrorAfter !== null) limit = Math.min(limit, o.inbandErrorAfter);
  const shift = o.roleThenDelayMs ?? 0;
  const interval = spec === null ? o.tokenIntervalMs : spec.stepMs;
  const offset = stepOffsets(o, spec, all, out.tokens.length);
  const slot = (j: number): number =>
    first + shift + offset(j) + (o.stallAfter !== null && j >= o.stallAfter ? o.stallMs : 0);

  if (req.endpoint === "chat" && o.inbandErrorAfter !== 0)
    for (const data of rolePreamble(ctx, o, continuous ? usageAt(0) : null)) push(first, data);
  let cum = 0;
  let tokenSteps = 0;
  let j = 0;
  let last = first;
  for (; j < all.length && tokenSteps < limit; j++) {
    const s = all[j]!;
    cum += s.n;
    if (s.kind === "tokens") tokenSteps++;
    last = slot(j);
    const isLast = j === all.length - 1 && !cut && o.inbandErrorAfter === null && o.longLineBytes === null;
    const finishHere = isLast && o.finishChunk === "last_token" && !timings && eos === 0;
    const {delta, text} = deltaFor(ctx, o, s, tokenSteps - 1);
    push(last, streamChunk(ctx, delta, text, finishHere ? out.finish : null, continuous ? usageAt(cum) : null, null));
    if (o.malformedAfter !== null && tokenSteps === o.malformedAfter && s.kind === "tokens") {
      push(last, ctx.head + '[{"index":0,"delta":{"content":"broken');
    }
  }
  const next = all.length === 0 ? first : slot(j);
  if (o.inbandErrorAfter !== null) {
    push(o.inbandErrorAfter === 0 ? first : next, errorJson("fake in-band error", "InternalServerError", 500));
    push(o.inbandErrorAfter === 0 ? first : next, "[DONE]");
    return {events, end: {atMs: o.inbandErrorAfter === 0 ? first : next, how: "end"}};
  }
  if (o.longLineBytes !== null) {
    push(next, "data: " + ctx.head + '[{"index":0,"delta":{"content":"' + "x".repeat(o.longLineBytes), true);
    return {events, end: {atMs: next, how: "end"}};
  }
  if (cut) {
    const how: EndHow = o.terminate === "eof" ? "end" : (o.terminate as EndHow);
    return {events, end: {atMs: last + interval, how}};
  }
  const separate = o.finishChunk === "separate" || timings || all.length === 0 || eos > 0;
  if (eos > 0) {
    last += interval;
    cum += eos;
  }
  if (separate) {
    const decodeMs = spec === null ? Math.max(0, all.length - 1 + eos) * o.tokenIntervalMs : last - first - shift;
    const t = timings
      ? timingsJson(prompt - cached, reported(cum), o.ttftMs, decodeMs, draftCounts(spec), cached)
      : null;
    const delta = ctx.endpoint === "chat" ? deltaEmpty : "";
    push(last, streamChunk(ctx, delta, "", out.finish, continuous ? usageAt(cum) : null, t));
  }
  if (finalUsage) push(last, usageChunk(ctx, usageAt(cum), null));
  if (o.terminate !== "eof_after_finish" && o.terminate !== "hang_after_finish") push(last, "[DONE]");
  const hang = o.terminate === "hang_after_finish" || o.terminate === "hang_after_done";
  return {events, end: {atMs: last, how: hang ? "hang" : "end"}};
}

/** The chat stream's first events: the role, then (roleThenDelayMs) an empty and a null content delta. */
function rolePreamble(ctx: ChunkContext, o: ScenarioOptions, usage: string | null): string[] {
  const out = [streamChunk(ctx, deltaRole, "", null, usage, null)];
  if (o.roleThenDelayMs !== null) {
    out.push(streamChunk(ctx, deltaEmptyContent, "", null, usage, null));
    out.push(streamChunk(ctx, deltaNullContent, "", null, usage, null));
  }
  return out;
}

/**
 * Offset of step j after the first token: j token intervals, or under speculative decoding its last token's
 * time (a step past the output one step after the last token).
 */
function stepOffsets(
  o: ScenarioOptions,
  spec: SpecPlan | null,
  all: readonly Step[],
  n: number
): (j: number) => number {
  if (spec === null) return (j) => j * o.tokenIntervalMs;
  const tokenAt = specTokenTimes(spec, n);
  return (j) => {
    const s = all[j];
    const at = tokenAt[Math.max(0, (s === undefined ? tokenAt.length : s.end) - 1)] ?? 0;
    return s === undefined ? at + spec.stepMs : at;
  };
}

/** llama.cpp's draft counts for `timings` (its dialect only), or null. */
function draftCounts(spec: SpecPlan | null): {draftN: number; accepted: number} | null {
  if (spec === null || spec.emulation.dialect !== "llamacpp") return null;
  return {draftN: spec.counts.draftTokens, accepted: spec.counts.accepted};
}
