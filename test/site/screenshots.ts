/**
 * Writes docs/screenshots/*.png: the index, a run report, a compare page, Pareto and select, in light and
 * dark, from the shipped evidence/ (real llama.cpp runs and imported peer results).
 * Usage: npx node test/site/screenshots.ts [outDir]
 */
import {mkdirSync, rmSync} from "node:fs";
import {join} from "node:path";

import {chromium} from "playwright-core";

import {buildSite, CHROMIUM, CHROMIUM_ARGS, copyRepoEvidence, ROOT, serve, tempDir} from "./harness.ts";

const out = process.argv[2] ?? join(ROOT, "docs", "screenshots");
const work = tempDir("inferscope-shots-");
const evidence = join(work, "evidence");
copyRepoEvidence(evidence);
const REPORT = "20261202-vm-random-small-llamacpp-small-p4-45c4f1";
const dist = join(work, "dist");
const base = "/inferscope/";
await buildSite(evidence, dist, {base});
const {origin, server} = await serve(dist, base);

const pages: [string, string, number][] = [
  ["index", "", 900],
  ["report", `runs/${REPORT}/`, 2400],
  ["compare", "compare/g-llamacpp-parallel/", 1800],
  ["pareto", "pareto/", 1200],
  ["select", "select/", 1500]
];
mkdirSync(out, {recursive: true});
const profile = tempDir("inferscope-profile-");
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  headless: true,
  viewport: {width: 1280, height: 900}
});
try {
  for (const scheme of ["light", "dark"] as const) {
    await ctx.pages()[0]?.emulateMedia({colorScheme: scheme});
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.emulateMedia({colorScheme: scheme});
    for (const [name, path, height] of pages) {
      await page.goto(`${origin}${base}${path}`, {waitUntil: "load"});
      const full = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({
        path: join(out, `${name}-${scheme}.png`),
        fullPage: true,
        clip: {x: 0, y: 0, width: 1280, height: Math.min(full, height)}
      });
      console.log(`wrote ${name}-${scheme}.png`);
    }
  }
  const phone = await ctx.newPage();
  await phone.setViewportSize({width: 390, height: 844});
  await phone.goto(`${origin}${base}runs/${REPORT}/`, {waitUntil: "load"});
  await phone.screenshot({path: join(out, "report-phone-light.png")});
  console.log("wrote report-phone-light.png");
} finally {
  await ctx.close();
  server.close();
  rmSync(work, {recursive: true, force: true});
  rmSync(profile, {recursive: true, force: true});
}
