import {mulberry32} from "../../src/analysis/stats/prng.ts";
import type {TokenCounter} from "../request/prompt.ts";

/**
 * Long, neutral filler text for the long-context cases (05, 09, 10): seeded sentences built from small
 * word lists (no colours, animals or digits, so a planted passphrase is the only one in the text).
 */
const SUBJECTS = [
  "The harbor committee",
  "A local librarian",
  "The night shift",
  "Our survey team",
  "The village council",
  "A visiting engineer",
  "The garden club",
  "The railway office",
  "A retired teacher",
  "The weather station"
];
const VERBS = ["reviewed", "discussed", "rewrote", "archived", "measured", "compared", "summarised", "checked"];
const OBJECTS = [
  "the tide tables",
  "the annual budget",
  "the reading list",
  "the bridge repairs",
  "the seed catalogue",
  "the timetable changes",
  "the rainfall records",
  "the visitor notes",
  "the lighthouse log",
  "the market schedule"
];
const TAILS = [
  "before the meeting ended.",
  "during the long afternoon.",
  "with unusual care.",
  "after a short delay.",
  "while the shop was quiet.",
  "as the evening drew in.",
  "without much discussion.",
  "for the second time that season."
];

/** `n` seeded filler sentences. */
export function fillerSentences(n: number, seed: number): string[] {
  const u = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(u() * xs.length)]!;
  return Array.from({length: n}, () => `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(TAILS)}`);
}

export interface FittedFiller {
  sentences: string[];
  /** Tokens of the whole text built from the sentences (measured), or null when estimated. */
  measuredTokens: number | null;
  method: "tokenize" | "estimate";
}

/** Rough tokens per filler sentence when the server cannot count (≈ 1.3 tokens per English word). */
const EST_TOKENS_PER_SENTENCE = 12;

/**
 * The number of filler sentences that makes `render(sentences)` about `targetTokens` long, measured with
 * the server's tokenizer when there is one (proportional steps, at most 6 counts), else estimated.
 */
export async function fitFiller(
  targetTokens: number,
  seed: number,
  render: (sentences: string[]) => string,
  count: TokenCounter | null
): Promise<FittedFiller> {
  const all = (n: number) => fillerSentences(n, seed);
  let n = Math.max(1, Math.round(targetTokens / EST_TOKENS_PER_SENTENCE));
  if (count === null) return {sentences: all(n), measuredTokens: null, method: "estimate"};
  let best: {n: number; tokens: number} | null = null;
  for (let i = 0; i < 6; i++) {
    const tokens = await count(render(all(n)));
    if (tokens === null) break;
    if (best === null || Math.abs(tokens - targetTokens) < Math.abs(best.tokens - targetTokens)) best = {n, tokens};
    const perSentence = tokens / n;
    const next = Math.max(1, Math.round(n + (targetTokens - tokens) / Math.max(perSentence, 1)));
    if (next === n || Math.abs(tokens - targetTokens) <= Math.max(2, perSentence / 2)) break;
    n = next;
  }
  if (best === null) return {sentences: all(n), measuredTokens: null, method: "estimate"};
  return {sentences: all(best.n), measuredTokens: best.tokens, method: "tokenize"};
}

/** Sentences per prompt segment of a document: prompts sharing a document's start share its whole blocks. */
export const BLOCK_SENTENCES = 4;

/**
 * A document prompt — `header`, the sentences joined by spaces, `tail` — as the one text sent and as its
 * pieces (the header, blocks of BLOCK_SENTENCES sentences, the tail), which concatenate to that text.
 */
export function documentPrompt(
  header: string,
  sentences: readonly string[],
  tail: string
): {text: string; pieces: string[]} {
  const pieces = [header];
  for (let i = 0; i < sentences.length; i += BLOCK_SENTENCES) {
    const block = sentences.slice(i, i + BLOCK_SENTENCES).join(" ");
    pieces.push(i + BLOCK_SENTENCES < sentences.length ? `${block} ` : block);
  }
  pieces.push(tail);
  return {text: pieces.join(""), pieces};
}
