import {asciiNumerals, findNumbers, parseNumber, sameNumber} from "./numbers.ts";

/**
 * GSM8K answer extraction, deterministic and judge-free (QUALITY_VERSION 1).
 * - strict: the number right after the last `####` marker (the dataset's own answer format); without one,
 *   the last `\boxed{…}` that holds a single number. Anything else is "unextractable".
 * - flexible: the last number anywhere in the response (`\boxed{}` contents and `\frac{a}{b}` included).
 * Both read Unicode digits and minus signs, thousands separators, currency and percent signs, decimals,
 * a trailing period and simple fractions.
 */
export interface Extraction {
  value: number;
  /** The text the value was read from. */
  text: string;
  via: "####" | "boxed" | "last_number";
}

/** Contents of every `\boxed{…}` (and `\fbox{…}`), braces matched, in order. */
export function boxedContents(text: string): string[] {
  const out: string[] = [];
  const re = /\\(?:boxed|fbox)\s*\{/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}") depth--;
    }
    if (depth === 0) out.push(text.slice(start, i - 1));
    re.lastIndex = i;
  }
  return out;
}

/** `\frac{a}{b}` / `\dfrac` / `\tfrac` written as `a/b`, so the number scanner reads a fraction. */
function flattenFractions(text: string): string {
  return text.replace(/\\[dt]?frac\{\s*([^{}]+?)\s*\}\{\s*([^{}]+?)\s*\}/g, "$1/$2");
}

function boxedNumber(content: string): number | null {
  const direct = parseNumber(content);
  if (direct !== null) return direct;
  const nums = findNumbers(flattenFractions(content.replace(/\\text\{[^{}]*\}/g, " ")));
  return nums.length === 1 ? nums[0]!.value : null;
}

export function extractStrict(response: string): Extraction | null {
  const t = asciiNumerals(response);
  const at = t.lastIndexOf("####");
  if (at !== -1) {
    const line = t.slice(at + 4).split("\n")[0]!;
    const first = findNumbers(flattenFractions(line))[0];
    return first ? {value: first.value, text: first.text.trim(), via: "####"} : null;
  }
  const boxes = boxedContents(t);
  for (let i = boxes.length - 1; i >= 0; i--) {
    const v = boxedNumber(boxes[i]!);
    if (v !== null) return {value: v, text: boxes[i]!.trim(), via: "boxed"};
  }
  return null;
}

export function extractFlexible(response: string): Extraction | null {
  const nums = findNumbers(flattenFractions(asciiNumerals(response)));
  const last = nums[nums.length - 1];
  return last ? {value: last.value, text: last.text.trim(), via: "last_number"} : null;
}

/**
 * The expected answer: a number, a numeric string ("1,000", "-3") or a full GSM8K solution ending in
 * `#### N`. Null when it cannot be read (a data error, reported by the caller).
 */
export function expectedNumber(expected: unknown): number | null {
  if (typeof expected === "number") return Number.isFinite(expected) ? expected : null;
  if (typeof expected !== "string") return null;
  if (expected.includes("####")) return extractStrict(expected)?.value ?? null;
  return parseNumber(expected);
}

export interface AnswerInput {
  /** The response text, or null when no response arrived. */
  response: string | null;
  expected: number;
  /** The response was cut by max_tokens (finish_reason "length"). */
  truncated: boolean;
  /** Why there is no (complete) response: a transport, HTTP or in-band error. */
  error: string | null;
}

export interface ModeVerdict {
  verdict: "pass" | "fail";
  reason: string | null;
  extracted: Extraction | null;
}

/** Common failure reasons that keep an item in the denominator as wrong. */
function unusable(i: AnswerInput): string | null {
  if (i.error !== null) return `no usable response: ${i.error}`;
  if (i.response === null) return "no response";
  if (i.truncated) return "truncated: the response hit max_tokens before it ended";
  return null;
}

export function judgeAnswer(i: AnswerInput, extracted: Extraction | null, what: string): ModeVerdict {
  const bad = unusable(i);
  if (bad !== null) return {verdict: "fail", reason: bad, extracted};
  if (extracted === null) return {verdict: "fail", reason: `unextractable: ${what}`, extracted: null};
  return sameNumber(extracted.value, i.expected)
    ? {verdict: "pass", reason: null, extracted}
    : {verdict: "fail", reason: `wrong: extracted ${extracted.text}, expected ${i.expected}`, extracted};
}

export interface Gsm8kVerdict {
  strict: ModeVerdict;
  flexible: ModeVerdict;
  /** Counted in scoring coverage: a complete response from which the flexible extractor read a number. */
  scorable: boolean;
}

/** Scores one GSM8K item both ways. Truncated, failed and unextractable answers are wrong, never skipped. */
export function scoreGsm8k(i: AnswerInput): Gsm8kVerdict {
  const text = i.response ?? "";
  const strict = judgeAnswer(i, i.response === null ? null : extractStrict(text), "no '#### N' or \\boxed{N} answer");
  const flexible = judgeAnswer(i, i.response === null ? null : extractFlexible(text), "no number in the response");
  return {strict, flexible, scorable: unusable(i) === null && flexible.extracted !== null};
}
