import {shuffler} from "d3-array";

import type {DatasetSource, WorkloadFacts} from "../../src/analysis/schema/workload.ts";
import type {z} from "zod";

import {mulberry32} from "../../src/analysis/stats/prng.ts";
import type {ChatMessage} from "../request/body.ts";
import {saltedPrompt, saltFor} from "../request/prompt.ts";
import {asLines} from "./conversation.ts";
import type {DatasetItem} from "./dataset.ts";
import {drawLength} from "./lengths.ts";
import {
  promptText,
  requestRandom,
  seedOf,
  segmentsOf,
  type BuildContext,
  type RequestAt,
  type Workload
} from "./source.ts";

type Source = z.output<typeof DatasetSource>;

/** The dataset as read: items (sharegpt, jsonl) or a corpus's words (text), and what the manifest keeps. */
export interface DatasetFile {
  name: string;
  sha256: string;
  bytes: number;
  items: readonly DatasetItem[] | null;
  corpus: readonly string[] | null;
  /** Conversations the ShareGPT reader skipped (fewer than 2 turns, no human turn, an empty prompt). */
  skipped: number;
}

/** A seeded permutation of 0…n−1: d3's Fisher–Yates shuffle driven by mulberry32. */
export const permutation = (n: number, seed: number): number[] =>
  shuffler(mulberry32(seed))(Array.from({length: n}, (_, i) => i));

/** The salt in front of a dataset prompt: before the string, or before the first message's content. */
function salted(salt: string | null, prompt: string | readonly ChatMessage[]): string | ChatMessage[] {
  if (typeof prompt === "string") return saltedPrompt(salt, prompt);
  return prompt.map((m, i) => (i === 0 ? {...m, content: saltedPrompt(salt, m.content ?? "")} : {...m}));
}

/** What the manifest keeps of a dataset file. */
function datasetFacts(file: DatasetFile): WorkloadFacts {
  return {
    kind: "dataset",
    file: {
      name: file.name,
      sha256: file.sha256,
      bytes: file.bytes,
      items: file.items?.length ?? file.corpus?.length ?? 0
    },
    exact: false,
    note:
      file.items === null
        ? "prompts cut from a text corpus, ≈ 1 token per word"
        : file.skipped > 0
          ? `${file.skipped} conversations skipped (fewer than 2 turns, no human turn or an empty prompt)`
          : null
  };
}

/**
 * Prompts from a dataset file, each request behind its own salt (a dataset is a cold workload): items in a
 * seeded order (shuffle; a new permutation each pass when the run needs more prompts than the file holds)
 * or in file order; a text corpus is cut at a seeded position into prompts of `input_tokens` words.
 * max_tokens: the source's output distribution, else the item's own (jsonl max_tokens; empirical: the
 * answer's length), else workload.max_tokens.
 */
export function datasetWorkload(ctx: BuildContext, s: Source, file: DatasetFile): Workload {
  const w = ctx.config.workload;
  const n = file.items?.length ?? 0;
  const perms = new Map<string, number[]>();
  const itemAt = (at: RequestAt): number => {
    if (s.sample === "in_order") return at.index % n;
    const pass = Math.floor(at.index / n);
    const key = `${at.seed}:${at.repeat}:${at.phase}:${pass}`;
    let p = perms.get(key);
    if (p === undefined) {
      perms.clear(); // one pass at a time: a phase walks its passes in order
      p = permutation(n, seedOf(key));
      perms.set(key, p);
    }
    return p[at.index % n]!;
  };
  const outputOf = (at: RequestAt, item: DatasetItem | null): number => {
    const d = s.output_tokens;
    if (d !== undefined && !(typeof d === "object" && d.dist === "empirical"))
      return drawLength(d, requestRandom(at, "output"));
    if (d !== undefined) return Math.max(1, item?.answerWords ?? item?.maxTokens ?? w.max_tokens);
    return item?.maxTokens ?? w.max_tokens;
  };
  return {
    facts: datasetFacts(file),
    request(at) {
      const salt = w.salt ? saltFor(ctx.bundleId, at.id) : null;
      if (file.corpus !== null) {
        const tokens = drawLength(s.input_tokens ?? w.prompt_tokens, requestRandom(at, "input"));
        const words = Math.max(1, Math.round((tokens - (salt === null ? 0 : 1)) * ctx.wordsPerToken));
        if (words > file.corpus.length)
          throw new Error(
            `${file.name}: the corpus has ${file.corpus.length} words, fewer than the ${words} a ${tokens}-token prompt needs`
          );
        const from = Math.floor(requestRandom(at, "cut")() * (file.corpus.length - words + 1));
        const prompt = saltedPrompt(salt, file.corpus.slice(from, from + words).join(" "));
        return {
          prompt,
          text: prompt,
          intendedTokens: tokens,
          maxTokens: outputOf(at, null),
          salt,
          tag: {kind: "dataset", item: from},
          segments: segmentsOf({...ctx, exact: false}, [{text: prompt, tokens}])
        };
      }
      const k = itemAt(at);
      const item = file.items![k]!;
      const both = salted(salt, item.prompt);
      // a conversation on the completions endpoint is sent as "role: content" lines
      const prompt = typeof both === "string" || ctx.config.target.endpoint === "chat" ? both : asLines(both);
      const text = promptText(prompt);
      const tokens = item.promptWords + (salt === null ? 0 : 1);
      return {
        prompt,
        text,
        intendedTokens: null,
        maxTokens: outputOf(at, item),
        salt,
        tag: {kind: "dataset", item: k, outputRequested: item.answerWords ?? item.maxTokens},
        segments: segmentsOf({...ctx, exact: false}, [{text, tokens}])
      };
    }
  };
}
