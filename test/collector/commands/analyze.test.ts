import {describe, expect, it} from "vitest";

import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {analyzeCommand, hardwareData} from "../../../collector/commands/analyze.ts";
import {CliError, EXIT} from "../../../collector/cliError.ts";
import {summaryLines} from "../../../collector/commands/summaryView.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {analyzeBundle, jsonView} from "../../../src/analysis/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {fixtureDir} from "../../support/fixtures.ts";
import {memoryLogger} from "../helpers.ts";

async function printed(dir: string, json: boolean): Promise<string[]> {
  const lines: string[] = [];
  const io: Io = {out: (l) => void lines.push(l), err: memoryLogger()};
  await analyzeCommand(dir, {json}, io);
  return lines;
}

describe("analyzeCommand", () => {
  it("--json prints the analysis' jsonView (src/analysis/report/jsonView.ts), indented by two", async () => {
    const dir = fixtureDir("clean");
    const report = await analyzeBundle(fsBundle(dir), {hardware: hardwareData(null)});
    expect(report.hardware).toBeDefined(); // the shipped catalogue and prices are always given
    expect(await printed(dir, true)).toEqual([JSON.stringify(jsonView(report), null, 2)]);
  });

  it("without --json prints the summary lines", async () => {
    const dir = fixtureDir("clean");
    const report = await analyzeBundle(fsBundle(dir), {hardware: hardwareData(null)});
    const lines = await printed(dir, false);
    expect(lines).toEqual(summaryLines(report));
    expect(lines.some((l) => l.startsWith("  decode vs roofline: "))).toBe(true);
  });

  it("the text says why a fraction is above 100 % and flags an energy integrated from too few samples", async () => {
    const report = await analyzeBundle(fsBundle(fixtureDir("clean")), {hardware: hardwareData(null)});
    const h = report.hardware!.points[0]!;
    const id = h.point;
    const known = (value: number) => ({value, from: "hand", reason: null});
    report.hardware!.points[0] = {
      ...h,
      measuredTokS: known(50),
      boundTokS: known(20),
      fraction: known(2.5),
      fractionNote: "above the bound: hand-made note",
      energy: {
        joules: known(100),
        joulesPerOutputToken: known(2),
        tokensPerKWh: known(1.8e6),
        samples: 3,
        sparse: true,
        reason: "only 3 power samples inside the window (the rule asks for 10)"
      }
    };
    const lines = summaryLines(report);
    const at = lines.findIndex((l) => l.startsWith("  decode vs roofline: "));
    expect(lines[at]).toBe(
      "  decode vs roofline: 50 tok/s of bound 20 tok/s = 250.0 % (above the bound: hand-made note)"
    );
    expect(lines[at + 1]).toMatch(
      /; energy: 2 J\/output token \(flagged: only 3 power samples inside the window \(the rule asks for 10\)\)$/
    );
    expect(id).toBe(report.load_points[0]!.id);
  });

  it("a price file (INFERSCOPE_PRICES) that does not validate is a usage error naming its line", () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-prices-"));
    try {
      const f = join(dir, "prices.yaml");
      writeFileSync(f, "prices:\n  - {gpu: h100-sxm, usd_per_gpu_hour: -1}\n");
      let error: unknown;
      try {
        hardwareData(f);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(EXIT.usage);
      expect((error as CliError).message).toMatch(/prices\.yaml:2:\d+: prices\[0\]\.usd_per_gpu_hour/);
      expect(() => hardwareData(join(dir, "absent.yaml"))).toThrow(/cannot read .*absent\.yaml/);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
