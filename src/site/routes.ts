/** Where pages live: the languages built, the `[...lang]` paths, and links under the base path. */
import type {Lang} from "../i18n/index.ts";
import {LANGS} from "../i18n/index.ts";
import {buildOptions} from "./buildOptions.ts";

/** `inferscope report` builds one page in one language with inline CSS and no site links. */
export const STANDALONE: {lang: Lang} | null = buildOptions().standalone;

/** Languages of the site-wide pages (none in standalone mode). */
export const siteLangs = (): readonly Lang[] => (STANDALONE ? [] : LANGS);

/** getStaticPaths entries for the `[...lang]` rest parameter: English at the root, Chinese under /zh/. */
export const langPaths = () => siteLangs().map((lang) => ({params: {lang: langParam(lang)}, props: {lang}}));

/** The `[...lang]` parameter of a language: none for English (the root), "zh" for Chinese. */
const LANG_PARAM: Record<Lang, string | undefined> = {en: undefined, zh: "zh"};
export const langParam = (lang: Lang) => LANG_PARAM[lang];

/** The base path ("/" or "/inferscope/"), always with a trailing slash. */
export function basePath(): string {
  const b = import.meta.env.BASE_URL;
  return b.endsWith("/") ? b : `${b}/`;
}

/** The URL prefix of a language: nothing for English, /zh for Chinese. */
const LANG_PREFIX: Record<Lang, string> = {en: "", zh: "/zh"};

/** A site-internal link: base path + language prefix + path. */
export function href(lang: Lang, path: string): string {
  const base = basePath().replace(/\/$/, "");
  const clean = path.replace(/^\//, "");
  return `${base}${LANG_PREFIX[lang]}/${clean}`;
}

/** A language-independent asset or raw file under the base path. */
export function assetHref(path: string): string {
  return `${basePath()}${path.replace(/^\//, "")}`;
}

const OTHER: Record<Lang, Lang> = {en: "zh", zh: "en"};

/** The same page in the other language. */
export function switchLangHref(lang: Lang, path: string): string {
  return href(OTHER[lang], path);
}
