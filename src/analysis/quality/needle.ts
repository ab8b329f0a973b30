/**
 * Needle-in-a-haystack retrieval (case_10): a seeded passphrase was planted at a known depth of a filler
 * text of a known length; the item passes when the response contains the passphrase. Matching ignores
 * case, Unicode width (NFKC) and the separators between its words ("Crimson-Otter-4821" = "crimson otter 4821").
 */

/** NFKC, lowercase, every run of non-letters/digits turned into one space, trimmed. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Whether `response` contains `needle` as a whole-word sequence after normalisation. */
export function containsPhrase(response: string, needle: string): boolean {
  const n = normalizeForMatch(needle);
  if (n === "") return false;
  return ` ${normalizeForMatch(response)} `.includes(` ${n} `);
}

export interface RetrievalInput {
  response: string | null;
  needle: string;
  truncated: boolean;
  error: string | null;
}

export interface RetrievalVerdict {
  verdict: "pass" | "fail";
  reason: string | null;
  found: boolean;
}

/**
 * Like every scorer here, an item whose response did not end normally (no response, an error, or cut by
 * max_tokens) is wrong, with the reason; `found` still says whether the passphrase was in what arrived.
 */
export function scoreRetrieval(i: RetrievalInput): RetrievalVerdict {
  const found = i.response !== null && containsPhrase(i.response, i.needle);
  if (i.error !== null) return {verdict: "fail", reason: `no usable response: ${i.error}`, found};
  if (i.response === null) return {verdict: "fail", reason: "no response", found};
  if (i.truncated) return {verdict: "fail", reason: "truncated: the response hit max_tokens before it ended", found};
  return found
    ? {verdict: "pass", reason: null, found}
    : {verdict: "fail", reason: "passphrase not in the response", found};
}
