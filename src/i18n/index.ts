/**
 * The site's language door: one table of strings per language (en.ts, zh.ts), looked up by key. Pages and
 * components never test the language themselves; text that comes with the data (metric labels, gate
 * reasons) is a `Bilingual` and goes through `pick`; English text the analyzer or the loaders hand over (gate
 * reasons, thresholds, withheld reasons, import notes) goes through `localize`.
 */
import type {Bilingual} from "../analysis/index.ts";
import {en, type UiKey} from "./en.ts";
import {phraseLocalizer} from "./localize.ts";
import {zh} from "./zh.ts";
import {zhReasons} from "./zh/reasons.ts";

export type {UiKey} from "./en.ts";

export const LANGS = ["en", "zh"] as const;
export type Lang = (typeof LANGS)[number];

export const TABLES: Record<Lang, Record<UiKey, string>> = {en, zh};

export const pick = (text: Bilingual, lang: Lang): string => text[lang];

/**
 * The string `key` in `lang`, with each `{name}` replaced by `vars[name]` (only names given in `vars`
 * are replaced, so a literal brace such as `\boxed{N}` stays as it is).
 */
export function t(lang: Lang, key: UiKey, vars?: Record<string, string | number>): string {
  const text: string = TABLES[lang][key];
  if (vars === undefined) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

const LOCALIZERS: Record<Lang, (text: string) => string> = {en: (text) => text, zh: phraseLocalizer(zhReasons)};

/**
 * `text`, English as the analyzer or a loader wrote it, in `lang`: unchanged in English; in Chinese translated
 * phrase by phrase from the table of the analyzer's templates (src/i18n/zh/reasons.ts), any phrase the table
 * lacks left in English. Numbers, ids, file names and config keys stay as they are.
 */
export const localize = (text: string, lang: Lang): string => LOCALIZERS[lang](text);

/** `localize` for an optional text: null and undefined pass through. */
export function localizeMaybe<T extends string | null | undefined>(text: T, lang: Lang): T {
  return (typeof text === "string" ? localize(text, lang) : text) as T;
}
