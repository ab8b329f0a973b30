import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {aiperfExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

describe("AIPerf", () => {
  for (const gen of ["2025-10", "later"])
    it(`${gen} generation: every aggregate reproduces, tag aliases per generation`, async () => {
      const {run, report} = await importAndAnalyze("auto", [f(`aiperf/${gen}`)]);
      expect(run.tool).toBe("aiperf");
      const r = checkAgainstFile(report, aiperfExpected(json(`aiperf/${gen}/profile_export_aiperf.json`)));
      expect(r.unrecomputable).toEqual([]);
      expect(r.exact).toBeGreaterThan(80);
      expect(report.load_points[0]!.outcomes.client_abort).toBe(1);
    });
});
