/**
 * Reading numbers out of model answers: Unicode digits and minus signs, thousands separators,
 * currency and percent signs, decimals, simple fractions and LaTeX \frac. Pure string functions.
 */

/** Unicode decimal-digit blocks mapped to ASCII (fullwidth, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali). */
const DIGIT_ZEROS = [0xff10, 0x0660, 0x06f0, 0x0966, 0x09e6];

/** Minus-like characters read as "-": minus sign, fullwidth hyphen-minus, small hyphen-minus, heavy minus. */
const MINUS = /[\u2212\uff0d\ufe63\u2796]/g;

/** Maps Unicode digits, minus signs, fullwidth separators and non-breaking/thin spaces to their ASCII forms. */
export function asciiNumerals(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => c >= z && c <= z + 9);
    if (zero !== undefined) out += String.fromCharCode(48 + c - zero);
    else if (c === 0xff0c) out += ",";
    else if (c === 0xff0e) out += ".";
    else if (c === 0xff04) out += "$";
    else if (c === 0xff05) out += "%";
    else if (c === 0x00a0 || c === 0x202f || c === 0x2009) out += " ";
    else out += ch;
  }
  return out.replace(MINUS, "-");
}

const NUM = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+`;
/**
 * A number as written in prose: optional minus (not right after a word character, so "5-3" is not "-3"),
 * optional currency sign, digits with optional thousands separators and decimals, optional "/ d" fraction.
 */
const NUMBER_SRC = String.raw`(?<![\w.])(-)?(?:[$€£¥]\s?)?(${NUM})(?:\s?\/\s?(${NUM}))?(?![\d])`;

export interface NumberMatch {
  /** The matched text (after asciiNumerals). */
  text: string;
  value: number;
  index: number;
}

function valueOf(sign: string | undefined, whole: string, denominator: string | undefined): number | null {
  const a = Number(whole.replace(/,/g, ""));
  if (!Number.isFinite(a)) return null;
  let v = a;
  if (denominator !== undefined) {
    const d = Number(denominator.replace(/,/g, ""));
    if (!Number.isFinite(d) || d === 0) return null;
    v = a / d;
  }
  return sign ? -v : v;
}

/** Every number in `text`, in order of appearance. */
export function findNumbers(text: string): NumberMatch[] {
  const t = asciiNumerals(text);
  const out: NumberMatch[] = [];
  for (const m of t.matchAll(new RegExp(NUMBER_SRC, "g"))) {
    const v = valueOf(m[1], m[2]!, m[3]);
    if (v !== null) out.push({text: m[0], value: v, index: m.index});
  }
  return out;
}

/**
 * Parses a whole answer string as one number: "1,234", "-5", "$18.00", "18.", "50%", "3/4",
 * "\frac{3}{4}", "−7" (Unicode minus). Surrounding whitespace, a trailing period and `**` are ignored.
 * Returns null when the text is not exactly one number.
 */
export function parseNumber(text: string): number | null {
  let t = asciiNumerals(text)
    .trim()
    .replace(/^\*+|\*+$/g, "")
    .trim();
  const frac = /^(-)?\s*\\[dt]?frac\{\s*([^{}]+?)\s*\}\{\s*([^{}]+?)\s*\}$/.exec(t);
  if (frac) {
    const a = parseNumber(frac[2]!);
    const b = parseNumber(frac[3]!);
    if (a === null || b === null || b === 0) return null;
    return (frac[1] ? -1 : 1) * (a / b);
  }
  t = t.replace(/\.$/, "").replace(/\s*%$/, "").trim();
  const m = new RegExp(String.raw`^${NUMBER_SRC}$`).exec(t);
  return m ? valueOf(m[1], m[2]!, m[3]) : null;
}

/** Equality of two answers: exact for integers, relative 1e-9 otherwise (0.1 + 0.2 equals 0.3). */
export function sameNumber(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}
