import {mulberry32} from "../../src/analysis/stats/prng.ts";
import {sha256Hex} from "../../src/io/hash.ts";

/**
 * Short, common English words: in the usual BPE vocabularies each is one token (with its leading space),
 * so N words ≈ N tokens before calibration.
 */
const WORDS = (
  "the of and to in is was for on are with as at be by this had not but from or have an they which one you were " +
  "all we when there can more if out so said what up its about into than them only other new some could time " +
  "these two may then do first any my now such like our over man me even most made after also did many before must"
).split(" ");

/** `n` filler words from a seeded sequence (the same for every request of a run; the salt makes prompts unique). */
export function fillerWords(n: number, seed: number): string {
  const u = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(u() * WORDS.length)]!);
  return out.join(" ");
}

/** A per-request salt: one word, unique per bundle and request, reproducible from both ids. */
export function saltFor(bundleId: string, requestId: string): string {
  return `s${sha256Hex(`${bundleId}:${requestId}`).slice(0, 12)}`;
}

export const saltedPrompt = (salt: string | null, body: string): string => (salt === null ? body : `${salt} ${body}`);

/** Counts tokens of a text on the server (POST /tokenize), or null when it cannot. */
export type TokenCounter = (text: string) => Promise<number | null>;

export interface PromptPlan {
  /** The prompt body after the salt. */
  body: string;
  /** Intended prompt length in tokens (salt included), null when unknown (fixed prompt without a tokenizer). */
  intendedTokens: number | null;
  calibration: {
    method: "tokenize" | "words" | "fixed_text";
    words: number | null;
    measuredTokens: number | null;
    iterations: number;
  };
}

/**
 * Builds the prompt body. With a server tokenizer, the filler word count is adjusted (a few rounds) so
 * that salt + filler is as close as possible to `prompt_tokens`; without one, ~1 token per word.
 */
export async function planPrompt(options: {
  promptTokens: number;
  promptText?: string;
  salt: boolean;
  seed: number;
  count: TokenCounter | null;
}): Promise<PromptPlan> {
  const sample = "s000000000000";
  const withSalt = (b: string) => (options.salt ? `${sample} ${b}` : b);
  if (options.promptText !== undefined) {
    const measured = options.count ? await options.count(withSalt(options.promptText)) : null;
    return {
      body: options.promptText,
      intendedTokens: measured,
      calibration: {method: "fixed_text", words: null, measuredTokens: measured, iterations: measured === null ? 0 : 1}
    };
  }
  const target = options.promptTokens;
  let words = Math.max(1, target - (options.salt ? 1 : 0));
  if (!options.count)
    return {
      body: fillerWords(words, options.seed),
      intendedTokens: target,
      calibration: {method: "words", words, measuredTokens: null, iterations: 0}
    };
  let best: {words: number; tokens: number} | null = null;
  let iterations = 0;
  for (let i = 0; i < 5; i++) {
    const tokens = await options.count(withSalt(fillerWords(words, options.seed)));
    iterations++;
    if (tokens === null) break;
    if (!best || Math.abs(tokens - target) < Math.abs(best.tokens - target)) best = {words, tokens};
    if (tokens === target) break;
    const next = Math.max(1, tokens > 0 ? Math.round((words * target) / tokens) : words + (target - tokens));
    words = next === words ? Math.max(1, words + Math.sign(target - tokens)) : next;
    if (best.words === words) break;
  }
  if (!best)
    return {
      body: fillerWords(Math.max(1, target - (options.salt ? 1 : 0)), options.seed),
      intendedTokens: target,
      calibration: {
        method: "words",
        words: Math.max(1, target - (options.salt ? 1 : 0)),
        measuredTokens: null,
        iterations
      }
    };
  return {
    body: fillerWords(best.words, options.seed),
    intendedTokens: target,
    calibration: {method: "tokenize", words: best.words, measuredTokens: best.tokens, iterations}
  };
}

/** Re-exported for collector/cases/runner.ts until it imports src/io/hash.ts itself (the one sha256). */
