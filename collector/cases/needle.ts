import type {SuiteOptions} from "../../src/analysis/schema/config.ts";
import {mulberry32} from "../../src/analysis/stats/prng.ts";
import type {TokenCounter} from "../request/prompt.ts";
import {documentPrompt, fitFiller} from "./filler.ts";
import type {CaseItem} from "./types.ts";

/**
 * case_10 needle retrieval: for every length × depth, a seeded passphrase ("crimson-otter-4821") is planted
 * at that depth of a filler text of that many tokens (measured with the server's /tokenize when it has one),
 * and the model is asked to repeat it. Filler words never contain colours, animals or digits.
 */
const COLOURS = ["crimson", "amber", "violet", "indigo", "scarlet", "emerald", "silver", "golden", "ochre", "teal"];
const ANIMALS = ["otter", "falcon", "badger", "heron", "lynx", "marten", "osprey", "ibex", "gecko", "puffin"];

export const NEEDLE_QUESTION =
  "What is the secret passphrase mentioned in the text above? Reply with the passphrase only.";

/** The passphrase of item `index` (seeded): colour-animal-NNNN. */
export function passphrase(seed: number, index: number): string {
  const u = mulberry32(seed * 1_000_003 + index);
  const colour = COLOURS[Math.floor(u() * COLOURS.length)]!;
  const animal = ANIMALS[Math.floor(u() * ANIMALS.length)]!;
  return `${colour}-${animal}-${1000 + Math.floor(u() * 9000)}`;
}

export const needleSentence = (phrase: string): string => `The secret passphrase is ${phrase}. Remember it.`;

/** Sentences with the needle inserted at `depth` (0 = first sentence, 1 = last). */
export function plant(sentences: readonly string[], needle: string, depth: number): string[] {
  const at = Math.round(depth * sentences.length);
  return [...sentences.slice(0, at), needle, ...sentences.slice(at)];
}

const prompt = (sentences: readonly string[]) =>
  documentPrompt("Read the following text.\n\n", sentences, `\n\n${NEEDLE_QUESTION}`);
const render = (sentences: string[]) => prompt(sentences).text;

export async function case10(o: SuiteOptions, count: TokenCounter | null): Promise<CaseItem[]> {
  const {lengths, depths, seed} = o.needle;
  const items: CaseItem[] = [];
  let index = 0;
  for (const length of lengths) {
    // the filler is fitted once per length with a placeholder needle of the same shape, then each depth plants its own
    const probe = needleSentence(passphrase(seed, 0));
    const fitted = await fitFiller(length, seed + length, (s) => render(plant(s, probe, 0.5)), count);
    for (const depth of depths) {
      const phrase = passphrase(seed, index++);
      const {text: user, pieces} = prompt(plant(fitted.sentences, needleSentence(phrase), depth));
      const tier = String(length);
      const measured = fitted.method === "tokenize" && count !== null ? await count(user) : null;
      items.push({
        itemId: `len${length}-d${depth}`,
        tier,
        concurrency: 1,
        turns: [
          {
            user,
            pieces,
            tier,
            maxTokens: 32,
            ignoreEos: false,
            promptTokens: length,
            score: {scorer: "needle", expected: phrase},
            details: {
              depth,
              targetTokens: length,
              measuredTokens: measured,
              lengthMethod: measured === null ? "estimate" : "tokenize"
            }
          }
        ]
      });
    }
  }
  return items;
}
