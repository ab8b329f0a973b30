import {sha256Hex} from "../../src/io/hash.ts";

/** One part of a prompt as built: its text and its length in tokens (as intended). */
export interface Part {
  text: string;
  tokens: number;
}

/**
 * The chain hashes of a prompt's parts (schema/workload.ts PromptSegments): hash k digests hash k−1 and
 * the text of part k, so two prompts share exactly the leading parts whose hashes agree.
 */
export function chainSegments(parts: readonly Part[]): [string, number][] {
  let prev = "";
  return parts.map((p) => {
    prev = sha256Hex(`${prev}\n${p.text}`).slice(0, 16);
    return [prev, p.tokens];
  });
}
