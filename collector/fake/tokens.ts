/**
 * The fake server's notion of a token: a whitespace-separated word. Prompt tokens are the words of
 * the request text (all messages' text parts joined, or the completions prompt); generated tokens
 * are words with a leading space, so the response text has exactly one word per token.
 */

export const ASCII_VOCAB: readonly string[] = [
  " alpha",
  " bravo",
  " charlie",
  " delta",
  " echo",
  " foxtrot",
  " golf",
  " hotel",
  " india",
  " juliet",
  " kilo",
  " lima",
  " mike",
  " november",
  " oscar",
  " papa"
];

/** Words with 2-, 3- and 4-byte UTF-8 sequences (accents, CJK, emoji with a ZWJ), for split-frame tests. */
export const UNICODE_VOCAB: readonly string[] = [
  " café",
  " 你好",
  " 🙂",
  " naïve",
  " 世界",
  " 👩‍💻",
  " Ωμέγα",
  " 日本語"
];

/** The fake's whitespace: space, tab to carriage return, no-break space, ideographic space. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000;
}

/** Counts whitespace-separated words. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      n++;
    }
  }
  return n;
}

/** The whitespace-separated words of a text, in order (the prompt tokens; `countWords` of it is their number). */
export function promptWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (space && start >= 0) {
      words.push(text.slice(start, i));
      start = -1;
    } else if (!space && start < 0) start = i;
  }
  return words;
}

/** Text of a chat `messages` array (string content or text parts) or a completions `prompt`, space-joined. */
export function requestText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  const messages = body.messages;
  if (Array.isArray(messages)) {
    for (const m of messages) {
      const c = (m as {content?: unknown} | null)?.content;
      if (typeof c === "string") parts.push(c);
      else if (Array.isArray(c)) {
        for (const p of c) {
          const t = (p as {text?: unknown} | null)?.text;
          if (typeof t === "string") parts.push(t);
        }
      }
    }
  }
  const prompt = body.prompt ?? body.content;
  if (typeof prompt === "string") parts.push(prompt);
  else if (Array.isArray(prompt)) for (const p of prompt) if (typeof p === "string") parts.push(p);
  return parts.join(" ");
}

/** Deterministic token ids for /tokenize: FNV-1a of each word, modulo a 50k vocabulary. */
export function tokenIds(text: string): number[] {
  const ids: number[] = [];
  for (const w of text.split(/\s+/)) {
    if (w === "") continue;
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) {
      h ^= w.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    ids.push(h % 50_000);
  }
  return ids;
}

/** Splits an answer into word tokens that keep their leading whitespace (concatenation gives the answer back). */
export function splitAnswer(answer: string): string[] {
  const words = answer.match(/\s*\S+/g) ?? [];
  const tail = answer.length - words.join("").length;
  if (tail > 0 && words.length > 0) words[words.length - 1] += answer.slice(answer.length - tail);
  return words;
}
