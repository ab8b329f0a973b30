import type {TraceSource} from "../../src/analysis/schema/workload.ts";
import type {z} from "zod";

import {fillerWords, saltedPrompt} from "../request/prompt.ts";
import type {Part} from "./segments.ts";
import {promptText, seedOf, segmentsOf, type BuildContext, type RequestAt, type Workload} from "./source.ts";
import type {TraceLine} from "./trace.ts";

type Source = z.output<typeof TraceSource>;

/** The trace file as read: its lines and what the manifest keeps of it. */
export interface TraceFile {
  name: string;
  sha256: string;
  bytes: number;
  lines: readonly TraceLine[];
}

/** A request's lengths after length scaling: prompt tokens, block tokens, output tokens. */
export function scaledLengths(l: TraceLine, s: Source): {input: number; block: number; output: number} {
  return {
    input: Math.max(1, Math.round(l.inputLength * s.length_scale)),
    block: Math.max(1, Math.round(s.block_tokens * s.length_scale)),
    output: Math.max(1, Math.round(l.outputLength * s.length_scale))
  };
}

/**
 * The parts of a trace line's prompt: one per hash_id, each block the same seeded filler wherever that
 * hash_id appears in the run (so requests sharing leading hash_ids share exactly those blocks); the last
 * block takes what the input length leaves (the trace's last block is usually partial); the run's salt
 * opens the first block. A line without hash_ids is one block of its own.
 */
export function traceParts(ctx: BuildContext, l: TraceLine, s: Source): Part[] {
  const {input, block} = scaledLengths(l, s);
  const ids = l.hashIds.length > 0 ? l.hashIds : [-1 - l.line];
  const parts: Part[] = [];
  let left = input;
  ids.forEach((h, j) => {
    const last = j === ids.length - 1;
    const tokens = last ? Math.max(1, left) : Math.min(block, Math.max(1, left));
    left -= tokens;
    const words = Math.max(1, Math.round((tokens - (j === 0 && ctx.runSalt !== null ? 1 : 0)) * ctx.wordsPerToken));
    const text = fillerWords(words, seedOf(`${ctx.bundleId}:block:${h}`));
    parts.push({text: j === 0 ? saltedPrompt(ctx.runSalt, text) : text, tokens});
  });
  return parts;
}

/**
 * Replays a Mooncake-style trace: the phase's requests are consecutive lines (warmup first, after `offset`
 * lines), sent at their timestamps divided by the point's replay speed, with the trace's lengths (scaled)
 * and shared blocks. Each repeat replays the same lines.
 */
export function traceWorkload(ctx: BuildContext, s: Source, file: TraceFile): Workload {
  const w = ctx.config.workload;
  const first = (phase: "warmup" | "measure", warmup: number) => s.offset + (phase === "warmup" ? 0 : warmup);
  const lineOf = (at: RequestAt): TraceLine => {
    const l = file.lines[first(at.phase, at.warmup) + at.index];
    if (l === undefined)
      throw new Error(
        `${file.name}: the trace has ${file.lines.length} lines; request ${at.index} of the ${at.phase} needs line ${first(at.phase, at.warmup) + at.index + 1}`
      );
    return l;
  };
  return {
    facts: {
      kind: "trace",
      file: {name: file.name, sha256: file.sha256, bytes: file.bytes, items: file.lines.length},
      exact: ctx.exact,
      note: s.length_scale === 1 ? null : `lengths and blocks scaled by ${s.length_scale}`
    },
    request(at) {
      const l = lineOf(at);
      const parts = traceParts(ctx, l, s);
      const text = parts.map((p) => p.text).join(" ");
      const prompt = text;
      const {output} = scaledLengths(l, s);
      return {
        prompt,
        text: promptText(prompt),
        intendedTokens: parts.reduce((n, p) => n + p.tokens, 0),
        maxTokens: output,
        salt: w.salt ? ctx.runSalt : null,
        tag: {kind: "trace", item: l.line - 1, outputRequested: output},
        segments: segmentsOf(ctx, parts)
      };
    },
    *offsets(o) {
      const start = first(o.phase, o.warmup);
      const t0 = file.lines[start]?.timestampMs;
      if (t0 === undefined) return;
      const limit = o.count ?? Infinity;
      for (let i = 0; i < limit; i++) {
        const l = file.lines[start + i];
        if (l === undefined) return;
        const ns = Math.round(((l.timestampMs - t0) / o.speed) * 1e6);
        if (o.durationS !== null && ns >= o.durationS * 1e9) return;
        yield ns;
      }
    }
  };
}
