import {describe, expect, it} from "vitest";

import {analyzeCommand} from "../../../collector/commands/analyze.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {analyzeBundle} from "../../../src/analysis/index.ts";
import {AnalyzeJson} from "../../../src/analysis/report/json.ts";
import {Report} from "../../../src/analysis/report/schema.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {memoryLogger} from "../../collector/helpers.ts";
import {fixtureDir, fixtureNames} from "../../support/fixtures.ts";

/** What `inferscope analyze DIR --json` prints, parsed. */
async function analyzeJson(dir: string): Promise<unknown> {
  const lines: string[] = [];
  const io: Io = {out: (l) => void lines.push(l), err: memoryLogger()};
  await analyzeCommand(dir, {json: true}, io);
  return JSON.parse(lines.join("\n"));
}

/** JSON round trip: what a consumer reads (undefined keys dropped, NaN → null). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe("the Report and analyze --json schemas (report/schema.ts, report/json.ts)", () => {
  for (const name of fixtureNames()) {
    it(`${name}: analyze --json validates against AnalyzeJson, which names every key it prints`, async () => {
      const printed = await analyzeJson(fixtureDir(name));
      const parsed = AnalyzeJson.safeParse(printed);
      expect(parsed.success, parsed.error?.message).toBe(true);
      // z.object drops keys it does not know: equal after parsing means no key is undocumented
      expect(asJson(parsed.data)).toEqual(printed);
    });

    it(`${name}: the Report (rows and series included) validates against Report`, async () => {
      const report = asJson(await analyzeBundle(fsBundle(fixtureDir(name)), {keepRows: true, keepSeries: true}));
      const parsed = Report.safeParse(report);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(asJson(parsed.data)).toEqual(report);
    });
  }

  it("rejects a view whose shape changed (a renamed key, a wrong type)", async () => {
    const printed = (await analyzeJson(fixtureDir("clean"))) as Record<string, unknown>;
    const {verdict, ...renamed} = printed;
    expect(AnalyzeJson.safeParse({...renamed, result: verdict}).success).toBe(false);
    expect(AnalyzeJson.safeParse({...printed, load_points: [{id: 1}]}).success).toBe(false);
  });
});
