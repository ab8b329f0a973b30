/**
 * The built site, end to end: an Astro build under BASE_PATH=/inferscope/ from a temporary evidence folder
 * (copies of evidence/, the synthetic demo set and a hostile bundle), served on 127.0.0.1 and read both as
 * files and in Debian's Chromium (skipped, with a message, where /usr/bin/chromium is absent).
 */
import {createHash} from "node:crypto";
import {existsSync, readdirSync, readFileSync, rmSync} from "node:fs";
import type {Server} from "node:http";
import {join} from "node:path";
import {gzipSync} from "node:zlib";

import {parseHTML} from "linkedom";
import {parse as parseYaml} from "yaml";
import {chromium, type BrowserContext, type Page} from "playwright-core";
import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {
  analyzeBundle,
  compareSpec,
  experimentView,
  formatNumber,
  isQuickLook,
  isSummary,
  readAndAnalyze,
  type ExperimentRecord,
  type Report
} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {readHardwareData} from "../../src/io/hardware.ts";
import {
  addGroups,
  ROOT,
  buildSite,
  CHROMIUM,
  CHROMIUM_ARGS,
  copyRepoEvidence,
  htmlPages,
  resolvePath,
  serve,
  tempDir
} from "./harness.ts";
import {demoSpecs, HOSTILE, hostileSpec, writeSiteBundle} from "./synthSite.ts";

const BASE = "/inferscope/";
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(
    `site browser tests SKIPPED: ${CHROMIUM} not found. Install Debian's Chromium (apt-get install -y --no-install-recommends chromium); .ci/run does this in CI.`
  );

let work: string;
let dist: string;
let buildMs: number;
let pages: string[];
let reports: Map<string, Report>;
const hostile = hostileSpec();
const demo = demoSpecs();
const SAMPLE = "20261202-vm-random-small-llamacpp-small-p1-4fa905";
/** A quick look (`inferscope quick`) on the fastest demo hardware: shown, never ranked (issue 18). */
const QUICK = {
  ...demo[1]!,
  id: "20261104-synthetic-h100-vllm-quick-look",
  labels: {inferscope_look: "quick"},
  slowdown: 0.1,
  concurrency: [1],
  requests: 5
};

beforeAll(async () => {
  work = tempDir("inferscope-site-");
  const evidence = join(work, "evidence");
  const repo = copyRepoEvidence(evidence);
  for (const spec of [...demo, hostile, QUICK]) await writeSiteBundle(evidence, spec);
  addGroups(evidence, [
    {id: "demo-parallel", title: "demo: --parallel 1 vs 2", bundles: [demo[0]!.id, demo[1]!.id]},
    {id: "refused", title: "two models (refused)", bundles: [demo[0]!.id, demo[3]!.id]}
  ]);
  dist = join(work, "dist");
  ({ms: buildMs} = await buildSite(evidence, dist, {base: BASE}));
  pages = htmlPages(dist, BASE);
  reports = new Map();
  for (const id of [...repo, ...demo.map((d) => d.id), hostile.id, QUICK.id])
    reports.set(id, await analyzeBundle(fsBundle(join(evidence, id))));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, {recursive: true, force: true});
});

const file = (urlPath: string) => resolvePath(dist, BASE, urlPath);
const html = (urlPath: string) => readFileSync(file(urlPath)!, "utf8");
const doc = (urlPath: string) => parseHTML(html(urlPath)).document;

describe("static build under a sub-path", () => {
  it("builds every page in English and Chinese", () => {
    const expected = [
      "",
      "methodology/",
      "compare/",
      "pareto/",
      "matrix/",
      "select/",
      "hardware/",
      "compare/g-demo-parallel/"
    ];
    for (const id of reports.keys()) expected.push(`runs/${id}/`, `audit/${id}/`);
    for (const p of expected) {
      expect(pages, `missing ${BASE}${p}`).toContain(`${BASE}${p}`);
      expect(pages, `missing ${BASE}zh/${p}`).toContain(`${BASE}zh/${p}`);
    }
    expect(pages.length % 2).toBe(0);
    console.log(`site build: ${pages.length} pages in ${(buildMs / 1000).toFixed(1)} s`);
  });

  it("has no broken internal link, asset or fragment, and no link that escapes the base path", () => {
    const broken: string[] = [];
    const ids = new Map<string, Set<string>>();
    const idsOf = (f: string) => {
      if (!ids.has(f))
        ids.set(f, new Set(Array.from(readFileSync(f, "utf8").matchAll(/\sid="([^"]*)"/g), (m) => m[1]!)));
      return ids.get(f)!;
    };
    for (const page of pages) {
      const raw = html(page);
      const refs = [
        ...Array.from(raw.matchAll(/<(?:a|link)\s[^>]*?href="([^"]*)"/g), (m) => m[1]!),
        ...Array.from(raw.matchAll(/<(?:script|img)\s[^>]*?src="([^"]*)"/g), (m) => m[1]!)
      ].map((r) => r.replaceAll("&amp;", "&"));
      for (const ref of refs) {
        if (/^(https?:|data:|mailto:)/.test(ref)) continue;
        const [path, frag] = ref.split("#") as [string, string | undefined];
        const target = path === "" ? page : path;
        if (!target.startsWith(BASE)) {
          broken.push(`${page}: ${ref} (outside ${BASE})`);
          continue;
        }
        const f = file(target);
        if (!f) broken.push(`${page}: ${ref} (no file)`);
        else if (frag && f.endsWith(".html") && !idsOf(f).has(decodeURIComponent(frag)))
          broken.push(`${page}: ${ref} (no element #${frag})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("makes every chart one named image to a screen reader, its legend swatches hidden", () => {
    let plots = 0;
    const unnamed: string[] = [];
    for (const page of pages) {
      const d = doc(page);
      for (const svg of d.querySelectorAll("svg")) {
        if (svg.getAttribute("aria-hidden") === "true" || svg.closest("[aria-hidden='true']")) continue;
        // every SVG a screen reader can reach is a chart's plot: an image with a name that resolves
        const byId = svg.getAttribute("aria-labelledby");
        const name =
          byId !== null ? (d.getElementById(byId)?.textContent ?? "") : (svg.getAttribute("aria-label") ?? "");
        if (svg.getAttribute("role") !== "img" || name.trim() === "")
          unnamed.push(
            `${page}: <svg class="${svg.getAttribute("class") ?? ""}"> role=${svg.getAttribute("role")} name="${name}"`
          );
        plots++;
      }
    }
    expect(unnamed.slice(0, 10)).toEqual([]);
    expect(plots).toBeGreaterThan(20);
  });

  it("renders the hostile strings escaped everywhere and never as markup", () => {
    for (const page of pages) {
      const d = doc(page);
      const scripts = Array.from(d.querySelectorAll("script"), (x) => x.textContent ?? "");
      expect(
        scripts.filter((x) => x.includes("__pwned")),
        page
      ).toEqual([]);
      expect(d.querySelectorAll('img[src="x"], [onerror]').length, page).toBe(0);
      // Outside attribute values, markup characters from bundles are always entity-escaped.
      expect(html(page).replace(/="[^"]*"/g, '=""'), page).not.toContain("<img src=x");
    }
    const report = html(`${BASE}runs/${hostile.id}/`);
    expect(report).toContain("hostile&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect(pages.filter((p) => html(p).includes("__pwned")).length).toBeGreaterThan(10);
    expect(doc(`${BASE}runs/${hostile.id}/`).querySelector(".message")!.textContent).toBe(`upstream said ${HOSTILE}`);
  });

  it("links every raw file on the audit page, with the sha256 the file really has", () => {
    const r = reports.get(SAMPLE)!;
    const d = doc(`${BASE}audit/${SAMPLE}/`);
    for (const f of r.files) {
      const row = d.querySelector(`tr[data-file="${f.path}"]`)!;
      const href = row.querySelector("a")!.getAttribute("href")!;
      expect(href).toBe(`${BASE}evidence/${SAMPLE}/${f.path}`);
      const bytes = readFileSync(file(href)!);
      expect(row.querySelector("code.hash")!.textContent).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    expect(d.querySelector("pre.cmd code")!.textContent).toBe(`npx inferscope verify evidence/${SAMPLE}`);
  });

  it("keeps every report page within 200 KB transferred (gzip of the HTML and the stylesheet)", () => {
    const css = gzipSync(readFileSync(join(dist, "styles.css"))).length;
    const sizes = pages
      .filter((p) => p.includes("/runs/"))
      .map((p) => ({p, kb: (gzipSync(readFileSync(file(p)!)).length + css) / 1024}));
    for (const s of sizes) expect(s.kb, s.p).toBeLessThanOrEqual(200);
    console.log(`report pages: largest ${Math.max(...sizes.map((s) => s.kb)).toFixed(1)} KB gzip (HTML + CSS)`);
  });

  it("builds a page per shipped experiment: sealed, each variant's status, each search answer and spec reading as the analyzer gives them", () => {
    const root = join(ROOT, "evidence", "experiments");
    const names = readdirSync(root).filter((n) => existsSync(join(root, n, "experiment.json")));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const record = JSON.parse(readFileSync(join(root, name, "experiment.json"), "utf8")) as ExperimentRecord;
      for (const lang of ["", "zh/"]) {
        const d = doc(`${BASE}${lang}experiments/${name}/`);
        expect(d.querySelector("[data-seal]")!.getAttribute("data-seal")).toBe("sealed");
        for (const v of record.variants)
          expect(d.querySelector(`tr[data-variant="${v.name}"]`)!.getAttribute("data-status")).toBe(v.status);
        for (const v of record.variants)
          for (const b of v.bundles)
            for (const s of reports.get(b.bundleId)!.searches ?? []) {
              const section = [...d.querySelectorAll(`section.search[data-variant="${v.name}"]`)];
              const answers = section.map((x) => x.querySelector("[data-answer]")!.getAttribute("data-answer"));
              expect(answers).toContain(String(s.answer.highest_pass ?? ""));
            }
        for (const pair of experimentView(record).specPairs) {
          const on = record.variants.find((v) => v.name === pair.on)!;
          const off = record.variants.find((v) => v.name === pair.off)!;
          const sections = [...d.querySelectorAll(`section.spec[data-on="${pair.on}"][data-off="${pair.off}"]`)];
          expect(sections).toHaveLength(on.bundles.length);
          on.bundles.forEach((b, i) => {
            const cmp = compareSpec(reports.get(b.bundleId)!, reports.get(off.bundles[i]!.bundleId)!);
            const readings = [...sections[i]!.querySelectorAll("tr[data-reading]")].map((r) =>
              r.getAttribute("data-reading")
            );
            expect(readings).toEqual(cmp.points.map((p) => p.reading));
          });
        }
      }
      // the server's log reaches the audit page of each bundle it was attached to
      const b = record.variants.find((v) => v.bundles.length > 0)!.bundles[0]!;
      const log = readFileSync(join(ROOT, "evidence", b.bundleId, "server.log"), "utf8");
      const shown = doc(`${BASE}audit/${b.bundleId}/`).querySelector("[data-server-log]")!.textContent!;
      expect(log.endsWith(shown.slice(-2000))).toBe(true);
    }
  });

  it("refuses side-by-side numbers on a group that is not comparable", () => {
    const d = doc(`${BASE}compare/g-refused/`);
    expect(d.querySelector("[data-comparable]")!.getAttribute("data-comparable")).toBe("false");
    expect(d.querySelector("[data-comparable]")!.textContent).toContain("model differs: demo-8b vs demo-70b");
    expect(d.querySelectorAll("table.diffs")).toHaveLength(0);
    const ok = doc(`${BASE}compare/g-demo-parallel/`);
    expect(ok.querySelector("[data-comparable]")!.getAttribute("data-comparable")).toBe("true");
    expect(ok.querySelectorAll("table.diffs").length).toBe(4);
  });
});

describe("hardware page and the report's hardware section (issue 15)", () => {
  const catalogue = parseYaml(readFileSync(join(ROOT, "configs", "hardware", "gpus.yaml"), "utf8")) as {
    gpus: {id: string; memory_bandwidth_gbs?: {value: number}; memory_gb?: {value: number}}[];
  };

  it("lists every catalogued card in both languages, a sourced value or — in each cell, as static HTML", () => {
    for (const lang of ["", "zh/"]) {
      const d = doc(`${BASE}${lang}hardware/`);
      const rows = Array.from(d.querySelectorAll("table.catalogue tbody tr"));
      expect(rows.map((r) => r.getAttribute("data-card"))).toEqual(catalogue.gpus.map((g) => g.id));
      for (const g of catalogue.gpus) {
        const cell = d.querySelector(`tr[data-card="${g.id}"] td[data-field="bandwidth"]`)!;
        if (g.memory_bandwidth_gbs === undefined) expect(cell.querySelector("[data-unknown]"), g.id).not.toBeNull();
        else {
          expect(cell.querySelector("[data-sourced]"), g.id).not.toBeNull();
          expect(cell.textContent!.trim().startsWith(`${g.memory_bandwidth_gbs.value} GB/s`), g.id).toBe(true);
        }
      }
      // the capability matrix and the engine table cover every card too, cards this host lacks included
      expect(d.querySelectorAll("table.capability tbody tr")).toHaveLength(catalogue.gpus.length);
      const engineRow = d.querySelector("table.engines tbody tr")!;
      expect(engineRow.querySelectorAll("td[data-support]")).toHaveLength(catalogue.gpus.length);
    }
  });

  it("shows the measured hosts, a CPU host with its measured memory bandwidth among them", () => {
    const d = doc(`${BASE}hardware/`);
    const cpu = Array.from(d.querySelectorAll('.host[data-host-kind="cpu"] [data-bandwidth] [data-value]'));
    expect(cpu.length).toBeGreaterThan(0);
    for (const v of cpu) expect(Number(v.getAttribute("data-value"))).toBeGreaterThan(0);
    expect(d.querySelector('.host[data-host-kind="gpu"]')).not.toBeNull();
  });

  it("states on a GPU report page the roofline fraction, cost and energy the analyzer computes", async () => {
    const id = demo[0]!.id;
    const {report} = await readAndAnalyze(fsBundle(join(work, "evidence", id)), {hardware: readHardwareData()});
    const h = report.hardware!;
    for (const lang of ["", "zh/"]) {
      const d = doc(`${BASE}${lang}runs/${id}/`);
      for (const p of h.points) {
        const row = (table: string) => d.querySelector(`#hardware table.${table} tr[data-point="${p.point}"]`)!;
        expect(p.fraction.value).not.toBeNull();
        expect(Number(row("roofline").querySelector("[data-fraction] [data-value]")!.getAttribute("data-value"))).toBe(
          p.fraction.value
        );
        expect(p.cost.perMOutput.value).not.toBeNull();
        expect(Number(row("cost").querySelector("[data-cost-out] [data-value]")!.getAttribute("data-value"))).toBe(
          p.cost.perMOutput.value
        );
        expect(p.energy.joulesPerOutputToken.value).not.toBeNull();
      }
    }
  });

  it("names a CPU host in Chinese on every Chinese page, chart legends and comparison rows included", () => {
    // what a reader sees (text and SVG text), not the data attributes the select island keys by the analyzer's label
    const shows = (p: string) => /\(\d+ threads\)/.test(doc(p).documentElement.textContent ?? "");
    expect(pages.filter((p) => p.startsWith(`${BASE}zh/`) && shows(p))).toEqual([]);
    // the English pages do say it, so the check above is not vacuous
    expect(pages.filter((p) => !p.startsWith(`${BASE}zh/`) && shows(p)).length).toBeGreaterThan(0);
  });

  it("gives every '—' of an import's comparison and of a case suite's table its reason", () => {
    const bare: string[] = [];
    let dashes = 0;
    for (const page of pages.filter((p) => p.includes("/imports/") || p.includes("/runs/"))) {
      const d = doc(page);
      for (const td of d.querySelectorAll("table.comparison td, table.cases td")) {
        if ((td.textContent ?? "").trim() !== "—") continue;
        dashes++;
        const why = td.querySelector("[title]")?.getAttribute("title") ?? td.getAttribute("title") ?? "";
        if (why.trim() === "") bare.push(`${page}: ${td.outerHTML.slice(0, 120)}`);
      }
    }
    expect(bare.slice(0, 5)).toEqual([]);
    expect(dashes).toBeGreaterThan(0); // the shipped imports hold counts InferScope has no metric for
  });

  it("says why a number is unknown on a report page, never 0", () => {
    const d = doc(`${BASE}runs/${demo[2]!.id}/`); // no model facts stated for this bundle: no roofline
    const cell = d.querySelector("#hardware table.roofline [data-fraction] [data-unknown]")!;
    expect(cell.textContent).toBe("—");
    expect(cell.getAttribute("data-unknown")).toMatch(/model|header/);
  });
});

describe("what a first-time reader trips over (issue 18)", () => {
  it("an INCONCLUSIVE run names each deciding gate once, linked to its row, where the reason is said", () => {
    const [id, r] = [...reports.entries()].find(([, x]) => x.verdict === "INCONCLUSIVE")!;
    const d = doc(`${BASE}runs/${id}/`);
    const banner = [...d.querySelectorAll("h1 ~ ul.reasons a")].map((a) => a.getAttribute("href"));
    const deciding = r.verdict_reasons.map((x) => x.split(" ")[0]!);
    expect(banner.slice(0, deciding.length)).toEqual(deciding.map((g) => `#gate-${g}`));
    for (const g of deciding) {
      const gate = r.gates.find((x) => x.id === g)!;
      expect(d.querySelector(`tr#gate-${g}`), g).not.toBeNull();
      // the gate's reason is on the page once: in its row, not again in the banner or the load points
      const text = d.body.textContent ?? "";
      expect(text.split(gate.reason).length - 1, `${g}: ${gate.reason}`).toBe(1);
    }
  });

  it("shows a quick look as a run and never ranks it on the selection, matrix or Pareto pages", () => {
    const run = doc(`${BASE}runs/${QUICK.id}/`);
    expect(run.querySelector("p.quick-look")?.textContent).toMatch(/quick look/i);
    for (const page of ["select/", "matrix/", "pareto/"]) expect(html(`${BASE}${page}`), page).not.toContain(QUICK.id);
    expect(html(BASE)).toContain(QUICK.id);
  });

  it("draws throughput and goodput in req/s apart from the share meeting the SLO (0–100 %)", () => {
    const id = "20261129-vm-random-small-llamacpp-small-p4-7659af";
    const d = doc(`${BASE}runs/${id}/`);
    const words = (sel: string) => [...d.querySelectorAll(`${sel} svg text`)].map((x) => x.textContent ?? "").join(" ");
    const rates = words('[id^="chart-throughput-vs-"]');
    expect(rates).toContain("req/s");
    expect(rates).not.toContain("%");
    expect(words('[id^="chart-goodput-share-vs-"]')).toContain("% meeting the SLO");
  });
});

describe("an embeddings run (the shipped /v1/embeddings evidence)", () => {
  it("leads with E2E and the two throughputs, and says a stream's metrics do not apply, never 0", () => {
    const id = [...reports.keys()].find((x) => x.includes("workload-embeddings"))!;
    const d = doc(`${BASE}runs/${id}/`);
    const heads = [...d.querySelectorAll("table.glance thead th")].map((th) => th.textContent ?? "");
    expect(heads.some((h) => h.includes("E2E"))).toBe(true);
    expect(heads.some((h) => h.includes("Input token throughput"))).toBe(true);
    expect(heads.some((h) => h.includes("TTFT"))).toBe(false);
    const ttft = d.querySelector('tr[data-metric="ttft_ms"] td[data-key="p50"]')!;
    expect(ttft.textContent).toMatch(/^— /);
    expect(ttft.getAttribute("title")).toMatch(/^not applicable: embeddings/);
  });
});

describe.skipIf(!HAS_CHROMIUM)("in Chromium (playwright-core, fresh profile)", () => {
  let ctx: BrowserContext;
  let server: Server;
  let origin: string;
  let profile: string;

  beforeAll(async () => {
    ({origin, server} = await serve(dist, BASE));
    profile = tempDir("inferscope-profile-");
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true
    });
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    server?.close();
    if (profile) rmSync(profile, {recursive: true, force: true});
  });

  /** Opens a page and records console errors, page errors, failed requests and dialogs. */
  async function visit(path: string, page?: Page): Promise<{page: Page; problems: string[]}> {
    const p = page ?? (await ctx.newPage());
    const problems: string[] = [];
    p.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    p.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    p.on("requestfailed", (r) => {
      // a request the browser itself aborted because the test navigated on (e.g. a late favicon fetch) is
      // not a broken page; anything else (refused, reset, not found via `response`) is
      if (r.failure()?.errorText === "net::ERR_ABORTED") return;
      problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? "?"})`);
    });
    p.on("response", (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    p.on("dialog", (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await p.goto(`${origin}${path}`, {waitUntil: "load"});
    return {page: p, problems};
  }

  it("visits every page in both languages without console errors, failed requests or injected elements", async () => {
    const all: string[] = [];
    const page = await ctx.newPage();
    for (const path of pages) {
      const {problems} = await visit(path, page);
      const injected = await page.evaluate(() => ({
        pwned: (window as unknown as {__pwned?: number}).__pwned ?? null,
        img: document.querySelectorAll('img[src="x"], [onerror]').length
      }));
      if (injected.pwned !== null || injected.img > 0) problems.push(`injected: ${JSON.stringify(injected)}`);
      all.push(...problems.map((x) => `${path}: ${x}`));
      page.removeAllListeners();
    }
    await page.close();
    expect(all).toEqual([]);
  }, 180_000);

  it("shows on a report page the numbers the analyzer computes for that bundle", async () => {
    const r = reports.get(SAMPLE)!;
    const {page} = await visit(`${BASE}runs/${SAMPLE}/`);
    for (const p of r.load_points) {
      for (const [id, key] of [
        ["ttft_ms", "p50"],
        ["ttft_ms", "p95"],
        ["e2e_ms", "p50"],
        ["itl_ms", "p90"],
        ["output_throughput_tok_s", "value"],
        ["request_throughput_rps", "value"]
      ] as const) {
        const m = p.metrics[id]!;
        const expected = isSummary(m) ? m[key as "p50"] : m.value;
        const cell = page.locator(`[data-point="${p.id}"] tr[data-metric="${id}"] td[data-key="${key}"]`);
        expect(await cell.textContent(), `${p.id} ${id} ${key}`).toBe(formatNumber(expected));
        expect(Number(await cell.getAttribute("data-value"))).toBe(expected);
      }
      const ttft = p.metrics.ttft_ms!;
      if (!isSummary(ttft)) throw new Error("ttft_ms is a distribution");
      const glance = page.locator(`table.glance tr[data-point="${p.id}"] td[data-metric="ttft_ms"][data-key="p50"]`);
      expect(await glance.textContent()).toBe(formatNumber(ttft.p50));
    }
    expect(await page.locator("h1 [data-verdict]").textContent()).toBe(r.verdict);
    await page.close();
  });

  it("renders the hostile model name and error message as text", async () => {
    const {page, problems} = await visit(`${BASE}runs/${hostile.id}/`);
    expect(await page.locator("dl.facts dd").first().textContent()).toBe(`hostile${HOSTILE}`);
    expect(await page.locator(".message").first().textContent()).toBe(`upstream said ${HOSTILE}`);
    expect(await page.evaluate(() => (window as unknown as {__pwned?: number}).__pwned ?? null)).toBeNull();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(problems).toEqual([]);
    const index = await visit(BASE);
    const cell = index.page.locator(`tr[data-bundle="${hostile.id}"] td.model`);
    expect(await cell.textContent()).toBe(`hostile${HOSTILE}`);
    await page.close();
    await index.page.close();
  });

  it("reads every number without JavaScript", async () => {
    // A separate browser (playwright gives it a fresh temporary profile) with JavaScript disabled.
    const browser = await chromium.launch({executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true});
    const noJs = await browser.newContext({javaScriptEnabled: false});
    const page = await noJs.newPage();
    await page.goto(`${origin}${BASE}runs/${SAMPLE}/`);
    expect(await page.locator("table.glance td[data-value]").count()).toBeGreaterThan(10);
    await page.goto(`${origin}${BASE}select/`);
    expect(await page.locator("[data-recommended]").count()).toBeGreaterThan(0);
    expect(await page.locator('input[name="ttft_ms"]').isDisabled()).toBe(true);
    await page.goto(`${origin}${BASE}zh/hardware/`);
    expect(await page.locator("table.catalogue tbody tr").count()).toBeGreaterThan(10);
    expect(await page.locator("table.catalogue [data-sourced]").first().isVisible()).toBe(true);
    await page.goto(`${origin}${BASE}runs/${SAMPLE}/`);
    expect(await page.locator("#hardware table.roofline [data-fraction] [data-value]").count()).toBeGreaterThan(0);
    await browser.close();
  });

  it("lets the select island change constraints in the browser, down to no recommendation with reasons", async () => {
    const {page, problems} = await visit(`${BASE}select/`);
    await expect.poll(() => page.locator('input[name="ttft_ms"]').isDisabled()).toBe(false);
    await page.fill('input[name="ttft_ms"]', "1");
    await page.click('form[data-select-form] button[type="submit"]');
    await expect.poll(() => page.locator("[data-no-recommendation]").count()).toBe(1);
    const excluded = await page.locator("[data-excluded]").count();
    // every load point of every run but the quick look, which is never a candidate
    const ranked = [...reports.values()].filter((r) => !isQuickLook(r.meta));
    expect(excluded).toBe(ranked.reduce((n, r) => n + r.load_points.length, 0));
    expect(await page.locator("[data-no-recommendation] li").allTextContents()).toContainEqual(
      expect.stringMatching(new RegExp(`^\\d+ of ${excluded} configurations: SLO exceeded$`))
    );
    expect(page.url()).toContain("ttft_ms=1");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("the select island on a Chinese page shows hardware in Chinese, as the build does", async () => {
    const {page, problems} = await visit(`${BASE}zh/select/`);
    await expect.poll(() => page.locator('input[name="ttft_ms"]').isDisabled()).toBe(false);
    await page.fill('input[name="ttft_ms"]', "1");
    await page.click('form[data-select-form] button[type="submit"]');
    await expect.poll(() => page.locator("[data-no-recommendation]").count()).toBe(1);
    const hardware = await page.locator("[data-excluded] td:nth-child(4)").allTextContents();
    const cpu = hardware.filter((h) => h.startsWith("CPU"));
    expect(cpu.length).toBeGreaterThan(0); // the shipped CPU-host runs
    for (const h of cpu) expect(h).toMatch(/线程/);
    expect(hardware.filter((h) => /threads/.test(h))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("sorts and filters the index, and toggles the theme", async () => {
    const {page, problems} = await visit(BASE);
    const col = page.locator("table.index thead th").nth(8).locator("button");
    await col.click();
    await col.click();
    const first = await page.locator("table.index tbody tr").first().getAttribute("data-bundle");
    const best = [...reports.values()]
      .map((r) => ({
        id: r.bundle,
        v: Math.max(
          ...r.load_points.map((p) => (p.metrics.output_throughput_tok_s as {value: number | null}).value ?? -1)
        )
      }))
      .sort((a, b) => b.v - a.v)[0]!.id;
    expect(first).toBe(best);
    await page.fill("[data-filter]", "demo-70b");
    expect(await page.locator("table.index tbody tr:visible").count()).toBe(1);
    const before = await page.evaluate(() => document.documentElement.dataset.theme ?? null);
    await page.click(".theme-toggle");
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(after).not.toBe(before);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("fits a phone screen: no page scrolls sideways at 390 px", async () => {
    const page = await ctx.newPage();
    await page.setViewportSize({width: 390, height: 844});
    const wide: string[] = [];
    for (const path of pages.filter((p) => !p.includes("/zh/"))) {
      await page.goto(`${origin}${path}`);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      if (w > 391) wide.push(`${path}: ${w}px`);
    }
    await page.close();
    expect(wide).toEqual([]);
  }, 120_000);
});
