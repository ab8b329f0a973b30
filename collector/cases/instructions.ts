import type {CaseItem} from "./types.ts";

/**
 * case_11 instruction following / structured output: prompts whose every instruction is mechanically
 * checkable. The constraint kinds are those of src/analysis/quality/instructions.ts (12 kinds, each used
 * at least once): json, json_keys, array_length, forbidden_words, max_words, max_chars, keyword,
 * starts_with, ends_with, no_commas, lowercase, bullets.
 */
export const INSTRUCTION_PROMPTS: readonly {id: string; prompt: string; constraints: Record<string, unknown>[]}[] = [
  {
    id: "benefits-json",
    prompt:
      'List three benefits of regular exercise. Respond with JSON only, without code fences: an object with a key "benefits" holding an array of exactly 3 strings.',
    constraints: [
      {kind: "json"},
      {kind: "json_keys", keys: {benefits: "array"}},
      {kind: "array_length", path: "benefits", min: 3, max: 3}
    ]
  },
  {
    id: "sunrise-words",
    prompt: 'Describe a sunrise in at most 40 words. Do not use the words "sun" or "light".',
    constraints: [
      {kind: "max_words", max: 40},
      {kind: "forbidden_words", words: ["sun", "light"]}
    ]
  },
  {
    id: "bottle-commas",
    prompt:
      'Write a short product description for a reusable water bottle without using any commas. Use the word "durable" at least twice.',
    constraints: [{kind: "no_commas"}, {kind: "keyword", keyword: "durable", min_count: 2}]
  },
  {
    id: "backups-frame",
    prompt:
      'In one paragraph, explain why backups matter. Start your answer with "In short:" and end it with "Stay safe."',
    constraints: [
      {kind: "starts_with", phrase: "In short:"},
      {kind: "ends_with", phrase: "Stay safe."}
    ]
  },
  {
    id: "book-json",
    prompt:
      'Return a JSON object describing a book, with keys "title" (string), "year" (integer), "available" (boolean) and "authors" (an array of strings with at least one entry). Output JSON only.',
    constraints: [
      {kind: "json"},
      {kind: "json_keys", keys: {title: "string", year: "integer", available: "boolean", authors: "array"}},
      {kind: "array_length", path: "authors", min: 1}
    ]
  },
  {
    id: "planets-bullets",
    prompt:
      'Name four planets of the solar system as a markdown list of exactly 4 bullet points (lines starting with "- "). Write everything in lowercase letters.',
    constraints: [{kind: "bullets", count: 4}, {kind: "lowercase"}]
  },
  {
    id: "compiler-chars",
    prompt: "Explain what a compiler does in no more than 300 characters.",
    constraints: [{kind: "max_chars", max: 300}]
  },
  {
    id: "meta-nested",
    prompt:
      'Produce a JSON object with a key "meta" whose value is an object with the keys "version" (a number) and "tags" (an array of 2 to 3 strings). Output JSON only.',
    constraints: [
      {kind: "json"},
      {kind: "json_keys", keys: {"meta.version": "number", "meta.tags": "array"}},
      {kind: "array_length", path: "meta.tags", min: 2, max: 3}
    ]
  },
  {
    id: "autumn-mixed",
    prompt:
      'Write two sentences about autumn that use the word "harvest". Do not use the word "leaves" and do not use commas.',
    constraints: [
      {kind: "keyword", keyword: "harvest"},
      {kind: "forbidden_words", words: ["leaves"]},
      {kind: "no_commas"}
    ]
  },
  {
    id: "cats-lowercase",
    prompt: "Answer in lowercase letters only and in at most 25 words: why do cats purr?",
    constraints: [{kind: "lowercase"}, {kind: "max_words", max: 25}]
  }
];

export function case11(): CaseItem[] {
  return INSTRUCTION_PROMPTS.map((p) => ({
    itemId: p.id,
    tier: null,
    concurrency: 1,
    turns: [
      {
        user: p.prompt,
        tier: null,
        maxTokens: 256,
        ignoreEos: false,
        score: {scorer: "instructions", expected: null, params: {constraints: p.constraints}}
      }
    ]
  }));
}
