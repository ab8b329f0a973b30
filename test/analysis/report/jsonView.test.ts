import {existsSync, readdirSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {AnalyzeJson, analyzeBundle, jsonView} from "../../../src/analysis/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {fixtureDir, fixtureNames} from "../../support/fixtures.ts";

/** JSON round trip: what a consumer reads (undefined keys dropped, NaN → null). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** The view of a bundle folder, as `inferscope analyze DIR --json` prints it, parsed. */
const viewOf = async (dir: string): Promise<unknown> => asJson(jsonView(await analyzeBundle(fsBundle(dir))));

// the published bundles carry what the fixtures do not: source_comparison (imports), cases and quality (suites)
const EVIDENCE = join(import.meta.dirname, "..", "..", "..", "evidence");
const evidenceDirs = readdirSync(EVIDENCE)
  .map((d) => join(EVIDENCE, d))
  .filter((d) => existsSync(join(d, "manifest.json")))
  .sort();

describe("jsonView: the analyze --json view validates against AnalyzeJson (report/json.ts)", () => {
  const dirs = [...fixtureNames().map((name) => [name, fixtureDir(name)]), ...evidenceDirs.map((d) => [d, d])];
  for (const [name, dir] of dirs)
    it(`${name}: the view validates against AnalyzeJson, which names every key it prints`, async () => {
      const printed = await viewOf(dir!);
      const parsed = AnalyzeJson.safeParse(printed);
      expect(parsed.success, parsed.error?.message).toBe(true);
      // z.object drops keys it does not know: equal after parsing means no key is undocumented
      expect(asJson(parsed.data)).toEqual(printed);
    });

  it("the published bundles exercise the optional keys (source_comparison, cases, quality)", async () => {
    const keys = new Set<string>();
    for (const dir of evidenceDirs) for (const k of Object.keys((await viewOf(dir)) as object)) keys.add(k);
    expect([...keys]).toEqual(expect.arrayContaining(["source_comparison", "cases", "quality"]));
  });

  it("rejects a view whose shape changed (a renamed key, a wrong type)", async () => {
    const printed = (await viewOf(fixtureDir("clean"))) as Record<string, unknown>;
    const {verdict, ...renamed} = printed;
    expect(AnalyzeJson.safeParse({...renamed, result: verdict}).success).toBe(false);
    expect(AnalyzeJson.safeParse({...printed, load_points: [{id: 1}]}).success).toBe(false);
  });
});
