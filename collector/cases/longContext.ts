import type {SuiteOptions} from "../../src/analysis/schema/config.ts";
import type {TokenCounter} from "../request/prompt.ts";
import {documentPrompt, fitFiller} from "./filler.ts";
import type {CaseItem} from "./types.ts";

/**
 * case_05 (long context processing: read a document of N tokens, summarise it) and case_09 (prefill
 * injection: a prompt of N tokens, an 8-token answer, so TTFT is almost all prefill). Neither text is scored.
 */
export const SUMMARY_QUESTION = "Summarise the text above in three sentences.";
export const PREFILL_QUESTION = "Reply with the single word OK.";

const prompt = (question: string, sentences: readonly string[]) =>
  documentPrompt("Read the following text.\n\n", sentences, `\n\n${question}`);
const render = (question: string) => (sentences: string[]) => prompt(question, sentences).text;

async function tiered(
  tiers: readonly number[],
  seed: number,
  question: string,
  count: TokenCounter | null,
  turn: {maxTokens: number; reason: string}
): Promise<CaseItem[]> {
  const items: CaseItem[] = [];
  for (const tokens of tiers) {
    const fitted = await fitFiller(tokens, seed + tokens, render(question), count);
    const tier = String(tokens);
    const {text, pieces} = prompt(question, fitted.sentences);
    items.push({
      itemId: `ctx-${tokens}`,
      tier,
      concurrency: 1,
      turns: [
        {
          user: text,
          pieces,
          tier,
          maxTokens: turn.maxTokens,
          ignoreEos: true,
          promptTokens: tokens,
          score: {scorer: "none", expected: null, params: {reason: turn.reason}},
          details: {targetTokens: tokens, measuredTokens: fitted.measuredTokens, lengthMethod: fitted.method}
        }
      ]
    });
  }
  return items;
}

export function case05(o: SuiteOptions, seed: number, count: TokenCounter | null): Promise<CaseItem[]> {
  return tiered(o.long_context_tiers, seed, SUMMARY_QUESTION, count, {
    maxTokens: 128,
    reason: "long-context latency tier: the summary is not scored"
  });
}

export function case09(o: SuiteOptions, seed: number, count: TokenCounter | null): Promise<CaseItem[]> {
  return tiered(o.prefill_tiers, seed + 1, PREFILL_QUESTION, count, {
    maxTokens: 8,
    reason: "prefill latency tier: the reply is not scored"
  });
}
