import {describe, expect, it} from "vitest";

import {analyzeCommand} from "../../../collector/commands/analyze.ts";
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
    const report = await analyzeBundle(fsBundle(dir));
    expect(await printed(dir, true)).toEqual([JSON.stringify(jsonView(report), null, 2)]);
  });

  it("without --json prints the summary lines", async () => {
    const dir = fixtureDir("clean");
    expect(await printed(dir, false)).toEqual(summaryLines(await analyzeBundle(fsBundle(dir))));
  });
});
