import {describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import {Report} from "../../../src/analysis/report/schema.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {fixtureDir, fixtureNames} from "../../support/fixtures.ts";

/** JSON round trip: what a consumer reads (undefined keys dropped, NaN → null). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

// the analyze --json view's schema (report/json.ts) is tested with its builder, in jsonView.test.ts
describe("the Report schema (report/schema.ts)", () => {
  for (const name of fixtureNames())
    it(`${name}: the Report (rows and series included) validates against Report`, async () => {
      const report = asJson(await analyzeBundle(fsBundle(fixtureDir(name)), {keepRows: true, keepSeries: true}));
      const parsed = Report.safeParse(report);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(asJson(parsed.data)).toEqual(report);
    });
});
