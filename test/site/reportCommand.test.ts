/** `inferscope report BUNDLE --out FILE.html`: one self-contained offline HTML file. */
import {spawn} from "node:child_process";
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {parseHTML} from "linkedom";
import {chromium} from "playwright-core";
import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {externalReferences} from "../../collector/commands/report.ts";
import {analyzeBundle, formatNumber, isSummary, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CHROMIUM, CHROMIUM_ARGS, cleanEnv, ROOT, tempDir} from "./harness.ts";
import {demoSpecs, writeSiteBundle} from "./synthSite.ts";

function cli(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [join(ROOT, "collector", "cli.ts"), ...args], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"]
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => ok({code: code ?? -1, stdout, stderr}));
  });
}

let work: string;
let bundle: string;
let report: Report;
let out: string;
let run: {code: number; stdout: string; stderr: string};

beforeAll(async () => {
  work = tempDir("inferscope-report-");
  bundle = await writeSiteBundle(work, demoSpecs()[0]!);
  report = await analyzeBundle(fsBundle(bundle));
  out = join(work, "out", "report.html");
  run = await cli(["report", bundle, "--out", out]);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, {recursive: true, force: true});
});

describe("inferscope report", () => {
  it("writes one HTML file and prints its path", () => {
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(out);
    expect(existsSync(out)).toBe(true);
  });

  it("is self-contained: inline CSS and SVG, nothing to fetch, no links to site pages", () => {
    const html = readFileSync(out, "utf8");
    expect(externalReferences(html)).toEqual([]);
    const {document} = parseHTML(html);
    expect(document.querySelectorAll("style").length).toBeGreaterThan(0);
    expect(document.querySelectorAll('link[rel="stylesheet"], script[src]').length).toBe(0);
    expect(document.querySelectorAll("figure.chart svg").length).toBeGreaterThanOrEqual(6);
    const links = Array.from(document.querySelectorAll("a[href]"), (a) => a.getAttribute("href")!);
    expect(links.filter((h) => !h.startsWith("#"))).toEqual([]);
    expect(html).toContain(`npx inferscope verify evidence/${report.bundle}`);
  });

  it("shows the analyzer's numbers", () => {
    const {document} = parseHTML(readFileSync(out, "utf8"));
    for (const p of report.load_points) {
      const s = p.metrics.ttft_ms!;
      if (!isSummary(s)) throw new Error("ttft_ms is a distribution");
      const cell = document.querySelector(`[data-point="${p.id}"] tr[data-metric="ttft_ms"] td[data-key="p95"]`)!;
      expect(cell.textContent).toBe(formatNumber(s.p95));
    }
  });

  it.skipIf(!existsSync(CHROMIUM))("opens offline in Chromium without a single request beyond the file", async () => {
    const ctx = await chromium.launchPersistentContext(tempDir("inferscope-profile-"), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true
    });
    const requests: string[] = [];
    const errors: string[] = [];
    const page = await ctx.newPage();
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`file://${out}`);
    expect(await page.locator("table.glance td[data-value]").count()).toBeGreaterThan(10);
    await ctx.close();
    expect(requests).toEqual([`file://${out}`]);
    expect(errors).toEqual([]);
  });

  it("writes the Chinese report with --lang zh", async () => {
    const zh = join(work, "zh.html");
    const r = await cli(["report", bundle, "--out", zh, "--lang", "zh"]);
    expect(r.code).toBe(0);
    const html = readFileSync(zh, "utf8");
    expect(html).toContain('<html lang="zh-CN"');
    expect(html).toContain("有效性门禁");
  }, 120_000);

  it("exits 5 when the report cannot be written, and leaves no temp file beside it (issue 11 item 12)", async () => {
    // --out names a folder that holds a file: the rename over it fails after the temp file was written
    const blocked = join(work, "blocked");
    mkdirSync(join(blocked, "report.html"), {recursive: true});
    writeFileSync(join(blocked, "report.html", "keep"), "x");
    const r = await cli(["report", bundle, "--out", join(blocked, "report.html")]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`cannot write ${join(blocked, "report.html")}`);
    expect(readdirSync(blocked)).toEqual(["report.html"]);
  }, 120_000);

  it("exits 2 with the folder in the message when the bundle is not a folder", async () => {
    const r = await cli(["report", join(work, "missing"), "--out", join(work, "x.html")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`not a bundle folder: ${join(work, "missing")}`);
  });
});

describe("externalReferences", () => {
  it("flags scripts, stylesheets, images and CSS urls that would be fetched, not data: or fragments", () => {
    expect(
      externalReferences(
        `<link rel="stylesheet" href="/styles.css"><script src="a.js"></script><img src="data:,x"><a href="#x">x</a><style>b{background:url(x.png)}</style><link rel="icon" href="data:,">`
      )
    ).toEqual(['<link href="/styles.css">', '<script src="a.js">', "url(x.png)"]);
  });
});
