import {
  extractFlexible,
  extractStrict,
  lmEvalExactMatch,
  lmEvalNormalize,
  type LmEvalExtraction
} from "./lmEvalGsm8k.ts";
import {asciiNumerals, findNumbers, parseNumber, sameNumber} from "./numbers.ts";

/**
 * GSM8K scoring, deterministic and judge-free: three readings of each response.
 * - strict: lm-evaluation-harness's "strict-match" and its exact_match (see lmEvalGsm8k.ts);
 * - flexible: lm-evaluation-harness's "flexible-extract" and the same exact_match;
 * - lenient: our own reading, kept for what lm-eval's regexes miss: the number after the last `####`
 *   marker, else the last `\boxed{…}` that holds a single number, else the last number anywhere
 *   (`\boxed{}` contents and `\frac{a}{b}` included). It reads Unicode digits and minus signs, thousands
 *   separators, currency and percent signs, decimals, a trailing period and simple fractions, and compares
 *   numbers (exact for integers, relative 1e-9). Under QUALITY_VERSION 1 its marker-or-boxed part was
 *   called "strict" and its last-number part "flexible".
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

/** The marked answer: the number after the last `####`, else the last `\boxed{}` holding one number. */
export function extractMarked(response: string): Extraction | null {
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

/** The last number anywhere in the response. */
export function extractLastNumber(response: string): Extraction | null {
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
  if (expected.includes("####")) return extractMarked(expected)?.value ?? null;
  return parseNumber(expected);
}

/** The lenient reading: the marked answer if there is one, else the last number (the `numeric` scorer's reading too). */
export function extractLenient(response: string): Extraction | null {
  return extractMarked(response) ?? extractLastNumber(response);
}

export interface AnswerInput {
  /** The response text, or null when no response arrived. */
  response: string | null;
  expected: number;
  /** The reference as lm-eval's exact_match sees it: the expected answer as given (a number in decimal form). */
  reference: string;
  /** The response was cut by max_tokens (finish_reason "length"). */
  truncated: boolean;
  /** Why there is no (complete) response: a transport, HTTP or in-band error. */
  error: string | null;
}

export interface ModeVerdict<E = Extraction> {
  verdict: "pass" | "fail";
  reason: string | null;
  extracted: E | null;
  /** Counted in this reading's coverage: a complete response from which it extracted an answer. */
  extractable: boolean;
}

/** Common failure reasons that keep an item in the denominator as wrong. */
function unusable(i: AnswerInput): string | null {
  if (i.error !== null) return `no usable response: ${i.error}`;
  if (i.response === null) return "no response";
  if (i.truncated) return "truncated: the response hit max_tokens before it ended";
  return null;
}

/** A number reading (lenient, numeric): equal numbers pass. */
export function judgeAnswer(i: AnswerInput, extracted: Extraction | null, what: string): ModeVerdict {
  const bad = unusable(i);
  if (bad !== null) return {verdict: "fail", reason: bad, extracted, extractable: false};
  if (extracted === null)
    return {verdict: "fail", reason: `unextractable: ${what}`, extracted: null, extractable: false};
  return sameNumber(extracted.value, i.expected)
    ? {verdict: "pass", reason: null, extracted, extractable: true}
    : {
        verdict: "fail",
        reason: `wrong: extracted ${extracted.text}, expected ${i.expected}`,
        extracted,
        extractable: true
      };
}

/** An lm-eval reading (strict, flexible): passes on lm-eval's exact_match; "[invalid]" is unextractable. */
function judgeLmEval(i: AnswerInput, extracted: LmEvalExtraction | null, what: string): ModeVerdict<LmEvalExtraction> {
  const bad = unusable(i);
  if (bad !== null) return {verdict: "fail", reason: bad, extracted, extractable: false};
  if (extracted === null)
    return {verdict: "fail", reason: `unextractable: ${what}`, extracted: null, extractable: false};
  if (lmEvalExactMatch(extracted.text, i.reference))
    return {verdict: "pass", reason: null, extracted, extractable: true};
  const as = extracted.compared === extracted.text ? "" : ` (compared as ${JSON.stringify(extracted.compared)})`;
  const reason = `wrong: extracted ${extracted.text}${as}, expected ${lmEvalNormalize(i.reference)}`;
  return {verdict: "fail", reason, extracted, extractable: true};
}

export interface Gsm8kVerdict {
  strict: ModeVerdict<LmEvalExtraction>;
  flexible: ModeVerdict<LmEvalExtraction>;
  lenient: ModeVerdict;
}

/** Scores one GSM8K item three ways. Truncated, failed and unextractable answers are wrong, never skipped. */
export function scoreGsm8k(i: AnswerInput): Gsm8kVerdict {
  const text = i.response;
  return {
    strict: judgeLmEval(
      i,
      text === null ? null : extractStrict(text),
      'no "#### N" that lm-eval\'s strict-match reads ([invalid])'
    ),
    flexible: judgeLmEval(
      i,
      text === null ? null : extractFlexible(text),
      "no number that lm-eval's flexible-extract reads ([invalid])"
    ),
    lenient: judgeAnswer(i, text === null ? null : extractLenient(text), "no number in the response")
  };
}
