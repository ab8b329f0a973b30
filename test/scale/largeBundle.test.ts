import {existsSync, readFileSync, rmSync, statSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {writeLargeBundle} from "../../scripts/lib/largeBundle.ts";
import {spawnCli} from "../collector/helpers.ts";
import {buildSite, tempDir} from "../site/harness.ts";

/**
 * Issue 11 item 6: a legitimate bundle of 200,000 requests (constant rate, one SSE event each) goes
 * through every command that reads a bundle and through the site build. `Math.max(...xs)` over that many
 * values overflowed the stack before; lint now forbids such spreads. The 1M-request runs of every load
 * shape live in `npm run bench:analyze`.
 */
const N = 200_000;
let root: string;
let bundle: string;

beforeAll(async () => {
  root = tempDir("inferscope-scale-");
  bundle = join(root, "evidence", "large-rate-500");
  await writeLargeBundle({dir: bundle, requests: N, events: 1, shape: "rate", value: 500, payloads: false});
}, 120_000);
afterAll(() => rmSync(root, {recursive: true, force: true}));

describe(`a ${N.toLocaleString("en")}-request bundle`, () => {
  it("verifies intact", async () => {
    const v = spawnCli(["verify", bundle]);
    const {code} = await v.exit;
    expect(code, v.stdout() + v.stderr()).toBe(0);
    expect(v.stdout()).toMatch(/G1 evidence_integrity: pass/);
    expect(v.stdout()).toMatch(/re-analysed: verdict VALID/);
  }, 120_000);

  it("analyzes VALID with every planned request accounted for", async () => {
    const a = spawnCli(["analyze", bundle, "--json"]);
    const {code} = await a.exit;
    expect(code, a.stderr()).toBe(0);
    const view = JSON.parse(a.stdout()) as {
      verdict: string;
      verdict_reasons: string[];
      gates: {id: string; status: string; reason: string}[];
      load_points: {n: number; n_success: number}[];
    };
    expect(view.verdict, view.verdict_reasons.join("\n")).toBe("VALID");
    expect(view.load_points[0]).toMatchObject({n: N, n_success: N});
    expect(view.gates.find((g) => g.id === "G30")).toMatchObject({
      status: "pass",
      reason: `${N} measured requests planned, ${N} recorded`
    });
  }, 120_000);

  it("renders the standalone report", async () => {
    const out = join(root, "report.html");
    const r = spawnCli(["report", bundle, "--out", out]);
    const {code} = await r.exit;
    expect(code, r.stderr()).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("large-rate-500");
    expect(existsSync(`${out}.tmp`)).toBe(false);
  }, 120_000);

  it("builds into the site", async () => {
    const dist = join(root, "dist");
    await buildSite(join(root, "evidence"), dist);
    const page = join(dist, "runs", "large-rate-500", "index.html");
    expect(existsSync(page)).toBe(true);
    // charts are drawn from a bounded number of points, not one mark per request
    expect(statSync(page).size).toBeLessThan(2 * 2 ** 20);
  }, 300_000);
});
