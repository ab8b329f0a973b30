/**
 * GSM8K scored the way EleutherAI's lm-evaluation-harness scores its `gsm8k` task, so our strict and
 * flexible accuracies mean what published GSM8K numbers mean. Our own TypeScript, written from lm-eval's
 * source at commit 4e7e0d47f33bc71070c1d38394bafbb52b117163 (read with `git show`):
 * - `lm_eval/tasks/gsm8k/gsm8k.yaml`: filter "strict-match" = regex `#### (\-?[0-9\.\,]+)` then
 *   take_first; filter "flexible-extract" = regex `(-?[$0-9.,]{2,})|(-?[0-9]+)` with group_select -1,
 *   then take_first; metric exact_match with ignore_case true, ignore_punctuation false and
 *   regexes_to_ignore [",", "\\$", "(?s).*#### ", "\\.$"]; the reference is the dataset's whole answer.
 * - `lm_eval/filters/extraction.py` RegexFilter: `re.findall`, then the match at index group_select
 *   (default 0: the first); a match of a pattern with several groups is a tuple and gives its first
 *   non-empty group; the result is strip()ped; no match (or an all-empty tuple) gives "[invalid]".
 * - `lm_eval/api/metrics.py` exact_match_hf_evaluate: each regex of regexes_to_ignore is removed
 *   (`re.sub`, every occurrence) from prediction and reference, in list order; then both are lowercased;
 *   then compared with `==`.
 * Python-to-JavaScript notes: Python's `$` (no MULTILINE) also matches before a final "\n", hence
 * `\.(?=\n?$)`; `(?s).*#### ` is greedy and matches from position 0, hence `^[\s\S]*#### `; `[0-9]` is
 * ASCII in both. take_first only picks the first of repeated samples (lm-eval's gsm8k has repeats: 1).
 */
export const LM_EVAL_COMMIT = "4e7e0d47f33bc71070c1d38394bafbb52b117163";

/** gsm8k.yaml's strict-match pattern (`\-`, `\.`, `\,` in a class are the plain characters). */
export const STRICT_MATCH = String.raw`#### (-?[0-9.,]+)`;
/** gsm8k.yaml's flexible-extract pattern: two alternatives, two capture groups. */
export const FLEXIBLE_EXTRACT = String.raw`(-?[$0-9.,]{2,})|(-?[0-9]+)`;

export interface LmEvalExtraction {
  /** What lm-eval's filter outputs (its `filtered_resps`), e.g. "1,234" or "42.". */
  text: string;
  /** `text` after regexes_to_ignore and lowercasing: the string exact_match compares. */
  compared: string;
  via: "strict-match" | "flexible-extract";
}

/** regexes_to_ignore of gsm8k.yaml in their order, then ignore_case; applied to prediction and reference alike. */
export function lmEvalNormalize(text: string): string {
  return text
    .replaceAll(",", "")
    .replaceAll("$", "")
    .replace(/^[\s\S]*#### /, "")
    .replace(/\.(?=\n?$)/, "")
    .toLowerCase();
}

/**
 * lm-eval's exact_match for gsm8k. A numeric reference is compared as its JavaScript decimal form (18 → "18");
 * lm-eval itself only sees strings. Lowercasing cannot matter here: the prediction holds only `[-$0-9.,]`.
 */
export function lmEvalExactMatch(prediction: string, reference: string): boolean {
  return lmEvalNormalize(prediction) === lmEvalNormalize(reference);
}

function extraction(text: string, via: LmEvalExtraction["via"]): LmEvalExtraction {
  return {text, compared: lmEvalNormalize(text), via};
}

/** strict-match: group 1 of the first `#### N` match. Null where lm-eval outputs "[invalid]". */
export function extractStrict(response: string): LmEvalExtraction | null {
  const first = new RegExp(STRICT_MATCH).exec(response);
  // strip() is a no-op: the group's characters hold no whitespace
  return first === null ? null : extraction(first[1]!.trim(), "strict-match");
}

/**
 * flexible-extract: the last match (group_select -1); of its two groups the first non-empty one. Null
 * where lm-eval outputs "[invalid]" (no match, or a match whose groups are all empty — impossible here).
 */
export function extractFlexible(response: string): LmEvalExtraction | null {
  const matches = [...response.matchAll(new RegExp(FLEXIBLE_EXTRACT, "g"))];
  const last = matches[matches.length - 1];
  if (last === undefined) return null;
  const group = last.slice(1).find((g) => g !== undefined && g !== "");
  return group === undefined ? null : extraction(group.trim(), "flexible-extract");
}
