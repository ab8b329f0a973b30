/**
 * Localizes the English text the analyzer and the loaders hand to the site (gate reasons, thresholds, withheld
 * reasons, hardware and cost reasons, import notes). The analyzer stays English (its reasons are also the CLI
 * and JSON output); the site translates them here, phrase by phrase, from a table of the analyzer's templates.
 *
 * A phrase table maps an English template to a Chinese one. `{name}` stands for a value without a semicolon
 * (a number, an id, a short phrase), `{name...}` for any text; a captured value is localized in turn, so a
 * template can nest the reasons it quotes. Text no template matches is split at its top-level "; ", " — " and
 * " · " and ", " separators, a trailing parenthesis, a leading `label: ` (an identifier such as a point id or
 * a config key) or the full-width punctuation of text already in Chinese, and each part is localized on its own. A part no template knows stays in English: never dropped.
 */

/** One entry of a phrase table: the analyzer's English template and its Chinese counterpart. */
export interface Phrase {
  readonly en: string;
  readonly zh: string;
}

interface Rule {
  readonly re: RegExp;
  readonly names: readonly string[];
  readonly zh: string;
}

const PLACEHOLDER = /\{(\w+)(\.\.\.)?\}/g;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Compiles `en` to an anchored regular expression with one group per placeholder, in order. */
export function compilePhrase(p: Phrase): Rule {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const m of p.en.matchAll(PLACEHOLDER)) {
    source += escapeRe(p.en.slice(last, m.index));
    source += m[2] ? "(.+?)" : "([^;]+?)";
    names.push(m[1]!);
    last = m.index + m[0].length;
  }
  source += escapeRe(p.en.slice(last));
  return {re: new RegExp(`^${source}$`, "s"), names, zh: p.zh};
}

/** Splits `text` at each `sep` outside brackets and quotes. */
export function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Whether `text` has a letter pair a phrase could translate (numbers, symbols and CJK pass through). */
const hasWords = (text: string) => /[A-Za-z]{2}/.test(text);

/** How many English words `text` has (a measure of what is left untranslated). */
const englishWords = (text: string) => text.match(/[A-Za-z]{2,}/g)?.length ?? 0;

/** The separators of clauses at which unmatched text is split first, with their Chinese joiners. */
const CLAUSE_JOINERS: readonly (readonly [string, string])[] = [
  ["; ", "；"],
  [" — ", " — "],
  [" · ", " · "]
];

/** A leading identifier label: a point id, a gate id and slug, a config key or a list of codes. */
const LABEL = /^((?:G\d+ )?[A-Za-z][\w.\-/]*(?:, [a-z][\w.\-/]*)*): (.+)$/s;
/** Chinese text, and the full-width punctuation around the English it quotes (kept by the split). */
const CJK = /[\u3400-\u9fff]/;
const CJK_PUNCTUATION = /([（）：；，。])/;
/** A trailing parenthesis whose brackets balance. */
const TRAILING_PAREN = /^(.*\S) \(([^()]*(?:\([^()]*\)[^()]*)*)\)$/s;

const MAX_DEPTH = 12;

/** A localizer for one phrase table: `(text) → text` in the table's language. */
export function phraseLocalizer(table: readonly Phrase[]): (text: string) => string {
  const rules = table.map(compilePhrase);
  const cache = new Map<string, string>();

  function viaRule(text: string, depth: number): string | null {
    for (const rule of rules) {
      const m = rule.re.exec(text);
      if (m === null) continue;
      const values = new Map(rule.names.map((name, i) => [name, m[i + 1]!]));
      return rule.zh.replace(PLACEHOLDER, (whole, name: string) =>
        values.has(name) ? run(values.get(name)!, depth + 1) : whole
      );
    }
    return null;
  }

  /** `parts` localized and joined with `joiner`, or null when no part changed. */
  function joinParts(parts: readonly string[], joiner: string, depth: number): string | null {
    const out = parts.map((p) => run(p, depth + 1));
    return out.every((p, i) => p === parts[i]) ? null : out.join(joiner);
  }

  function run(text: string, depth: number): string {
    if (depth > MAX_DEPTH || !hasWords(text)) return text;
    const trimmed = text.trim();
    if (trimmed !== text) {
      const lead = text.slice(0, text.indexOf(trimmed));
      return lead + run(trimmed, depth) + text.slice(lead.length + trimmed.length);
    }
    // Text already in Chinese that quotes English (a `t()` or `pick` string with a reason in it).
    if (CJK.test(text)) {
      const parts = text.split(CJK_PUNCTUATION);
      const out = parts.map((p) => run(p, depth + 1));
      return out.every((p, i) => p === parts[i]) ? text : out.join("");
    }
    const ruled = viaRule(text, depth);
    if (ruled !== null) return ruled;
    // A label before a template that itself has clauses ("definition, weighting: their TPOT …; our …").
    const labelled = LABEL.exec(text);
    const labelledRule = labelled === null ? null : viaRule(labelled[2]!, depth + 1);
    if (labelledRule !== null) return `${labelled![1]}：${labelledRule}`;
    for (const [sep, joiner] of CLAUSE_JOINERS) {
      const parts = splitTopLevel(text, sep);
      if (parts.length > 1) return joinParts(parts, joiner, depth) ?? text;
    }
    // A leading label, a trailing parenthesis and a comma can all apply ("bounded: … over (out − 1)",
    // "r0: peak 2/2, mean …"): keep the split that leaves the fewest English words.
    let best = text;
    const commas = splitTopLevel(text, ", ");
    if (commas.length > 1) best = joinParts(commas, "，", depth) ?? text;
    if (labelled !== null) {
      const rest = run(labelled[2]!, depth + 1);
      const split = `${labelled[1]}：${rest}`;
      if (rest !== labelled[2] && englishWords(split) < englishWords(best)) best = split;
    }
    const paren = TRAILING_PAREN.exec(text);
    if (paren !== null) {
      const head = run(paren[1]!, depth + 1);
      const inner = run(paren[2]!, depth + 1);
      const split = `${head}（${inner}）`;
      if ((head !== paren[1] || inner !== paren[2]) && englishWords(split) < englishWords(best)) best = split;
    }
    return best;
  }

  return (text: string) => {
    let out = cache.get(text);
    if (out === undefined) {
      out = run(text, 0);
      cache.set(text, out);
    }
    return out;
  };
}
