/**
 * Every user-facing string lives in one table per language (src/i18n/en.ts, zh.ts): both tables have the
 * same keys, and no page, component, layout, chart adapter, island or page-data module picks a language
 * inline (`zh ? … : …`, `lang === "zh"`, a `{en: …, zh: …}` literal with Chinese text).
 */
import {readdirSync, readFileSync} from "node:fs";
import {join, relative} from "node:path";

import {describe, expect, it} from "vitest";

import {LANGS, t, TABLES} from "../../src/i18n/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SITE_DIRS = ["src/pages", "src/components", "src/layouts", "src/charts", "src/islands", "src/site"];

const INLINE_LANGUAGE = [
  {name: "a `zh ?` ternary", re: /(?<![\w.])zh\s*\?/},
  {name: "a language comparison", re: /\blang\w*\s*[!=]==?\s*["'](?:zh|en)["']|["'](?:zh|en)["']\s*[!=]==?\s*\blang\b/},
  {name: "a test of the document language", re: /documentElement\.lang/},
  {name: "a `const zh` flag", re: /\bconst\s+zh\s*=/},
  {
    name: "an inline bilingual literal",
    re: /\{\s*en:\s*["'`][^"'`]*["'`],\s*zh:\s*["'`][^"'`]*[\u3000-\u9fff\uff00-\uffef]/
  }
];

/** Each inline language test in `source`, as "line: what". */
export function inlineLanguageTests(source: string): string[] {
  const out: string[] = [];
  source.split("\n").forEach((line, i) => {
    for (const {name, re} of INLINE_LANGUAGE) if (re.test(line)) out.push(`${i + 1}: ${name}: ${line.trim()}`);
  });
  // A ternary whose `?` starts the next line: `zh\n ? …`.
  for (const m of source.matchAll(/(?<![\w.])zh\s*\n\s*\?/g))
    out.push(`${source.slice(0, m.index).split("\n").length}: a \`zh ?\` ternary across lines`);
  return out;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true, recursive: true})
    .filter((e) => e.isFile() && /\.(astro|ts)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

describe("the translation tables", () => {
  it("have the same keys in English and Chinese, none of them empty", () => {
    expect(Object.keys(TABLES.zh).sort()).toEqual(Object.keys(TABLES.en).sort());
    for (const lang of LANGS)
      for (const [key, text] of Object.entries(TABLES[lang])) expect(text, `${lang}.${key}`).not.toBe("");
  });

  it("fill the same placeholders in both languages", () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(TABLES.en) as (keyof typeof TABLES.en)[])
      expect(names(TABLES.zh[key]), key).toEqual(names(TABLES.en[key]));
  });

  it("t() replaces only the placeholders it is given", () => {
    expect(t("en", "chartTelemetry", {name: "GPU power"})).toBe("Telemetry: GPU power");
    expect(t("zh", "chartTelemetry", {name: "GPU 功率"})).toBe("遥测：GPU 功率");
    expect(t("en", "gsm8kLmEval")).toContain("\\boxed{N}");
    expect(t("en", "gsm8kLmEval", {tool: "x"})).toContain("\\boxed{N}");
  });
});

describe("no inline language tests in the site", () => {
  it("the detector catches each form", () => {
    const samples = [
      'const zh = lang === "zh";',
      '{zh ? "对比" : "vs"}',
      'why: zh\n  ? "不可比" : "Not comparable"',
      'lang === "en" ? undefined : lang',
      'doc.documentElement.lang.startsWith("zh")',
      'title: {en: "Files", zh: "文件"}'
    ];
    for (const s of samples) expect(inlineLanguageTests(s), s).not.toEqual([]);
    expect(inlineLanguageTests('{t(lang, "files")}')).toEqual([]);
    expect(inlineLanguageTests('const LANG_PREFIX: Record<Lang, string> = {en: "", zh: "/zh"};')).toEqual([]);
  });

  it("pages, components, layouts, chart adapters, islands and page data look strings up by key", () => {
    const found: string[] = [];
    for (const dir of SITE_DIRS)
      for (const f of files(dir))
        for (const hit of inlineLanguageTests(readFileSync(join(ROOT, f), "utf8"))) found.push(`${f}:${hit}`);
    expect(found).toEqual([]);
  });
});
