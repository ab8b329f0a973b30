/**
 * `inferscope report BUNDLE --out FILE.html`: the run report as one self-contained offline HTML file.
 * It is the site's own report page (same components, same charts), built by Astro in standalone mode:
 * CSS inlined, charts as inline SVG, no links to other pages, no scripts or assets to fetch.
 */
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";

import type {Command} from "commander";

import {HARDWARE_DIR} from "../../src/io/hardware.ts";
import {withBuildOptions} from "../../src/site/buildOptions.ts";
import {mkdirpSync, writeFileAtomic} from "../effects.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultIo, type Io} from "./io.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** References a standalone page must not contain: anything fetched from a URL or a relative path. */
export function externalReferences(html: string): string[] {
  const out: string[] = [];
  const re =
    /<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?\s(src|href|data)\s*=\s*("([^"]*)"|'([^']*)')/gi;
  for (const m of html.matchAll(re)) {
    const url = m[4] ?? m[5] ?? "";
    if (!url.startsWith("data:") && !url.startsWith("#")) out.push(`<${m[1]} ${m[2]}="${url}">`);
  }
  for (const m of html.matchAll(/url\(\s*['"]?(?!data:|#)([^'")]+)/gi)) out.push(`url(${m[1]})`);
  return out;
}

export interface ReportOptions {
  out: string;
  lang?: string;
}

/** Builds the standalone report of one bundle folder into `out`; returns the written path. */
export async function reportCommand(dir: string, o: ReportOptions, io: Io): Promise<string> {
  const bundle = resolve(dir);
  let isDir: boolean;
  try {
    isDir = statSync(bundle).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new CliError(`not a bundle folder: ${dir}`, {exitCode: EXIT.usage});
  const lang = o.lang ?? "en";
  if (lang !== "en" && lang !== "zh")
    throw new CliError(`unknown language: ${lang} (use en or zh)`, {exitCode: EXIT.usage});
  const out = resolve(o.out);
  if (!existsSync(join(ROOT, "src", "pages")))
    throw new CliError(
      "report builds the site's own report page, which needs a checkout of InferScope (git clone, npm ci): the installed package carries the collector and the analyzer, not the site",
      {exitCode: EXIT.usage}
    );

  const work = mkdtempSync(join(tmpdir(), "inferscope-report-"));
  try {
    io.err.info(`building the report of ${bundle}`);
    const {build} = await import("astro");
    try {
      await withBuildOptions({bundles: [bundle], standalone: lang, base: "/", hardwareDir: HARDWARE_DIR}, () =>
        build({root: ROOT, outDir: join(work, "dist"), cacheDir: join(work, "cache"), logLevel: "error"})
      );
    } catch (e) {
      throw new CliError(`report build failed for ${dir}: ${(e as Error).message}`, {exitCode: EXIT.usage, cause: e});
    }
    const runs = join(work, "dist", ...(lang === "zh" ? ["zh"] : []), "runs");
    const ids = readdirSync(runs);
    if (ids.length !== 1) throw new Error(`expected one report page under ${runs}, found ${ids.length}`);
    const html = readFileSync(join(runs, ids[0]!, "index.html"), "utf8");
    const refs = externalReferences(html);
    if (refs.length > 0) throw new Error(`standalone report still references external resources: ${refs.join(", ")}`);
    try {
      mkdirpSync(dirname(out));
      writeFileAtomic(out, html); // a full disk leaves neither a half report nor its temp file
    } catch (e) {
      throw new CliError(`cannot write ${out}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed, cause: e});
    }
    io.out(out);
    return out;
  } finally {
    rmSync(work, {recursive: true, force: true});
  }
}

export function register(program: Command): void {
  program
    .command("report")
    .description("write a bundle's run report as one self-contained offline HTML file (inline CSS and SVG)")
    .argument("<bundle>", "bundle folder")
    .requiredOption("--out <file>", "HTML file to write")
    .option("--lang <lang>", "report language: en or zh", "en")
    .action(async (dir: string, o: ReportOptions) => {
      await reportCommand(dir, o, defaultIo());
    });
}
