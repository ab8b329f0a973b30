/**
 * The site's language door: one table of strings per language (en.ts, zh.ts), looked up by key. Pages and
 * components never test the language themselves; text that comes with the data (metric labels, gate
 * reasons) is a `Bilingual` and goes through `pick`.
 */
import type {Bilingual} from "../analysis/index.ts";
import {en, type UiKey} from "./en.ts";
import {zh} from "./zh.ts";

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
