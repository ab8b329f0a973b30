import {ESLint} from "eslint";
import {describe, expect, it} from "vitest";

/** The floors of src/analysis (eslint.config.js ANALYSIS_FLOORS): a floor never imports one above it. */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, {filePath});
  return result!.messages.map((m) => m.ruleId);
};

describe("src/analysis floors: schema < ingest, derive < metrics < workload < accumulate < gates < report < analyze.ts", () => {
  const upward: [file: string, from: string][] = [
    ["src/analysis/schema/example.ts", "../ingest/readBundle.ts"],
    ["src/analysis/ingest/example.ts", "../accumulate/point.ts"],
    ["src/analysis/derive/example.ts", "../metrics/latency.ts"],
    ["src/analysis/metrics/example.ts", "../gates/registry.ts"],
    ["src/analysis/metrics/example.ts", "../workload/log.ts"],
    ["src/analysis/workload/example.ts", "../accumulate/point.ts"],
    ["src/analysis/workload/example.ts", "../gates/tokens.ts"],
    ["src/analysis/accumulate/example.ts", "../gates/facts.ts"],
    ["src/analysis/gates/example.ts", "../report/types.ts"],
    ["src/analysis/report/example.ts", "../analyze.ts"]
  ];
  for (const [file, from] of upward)
    it(`${file} may not import ${from}`, async () => {
      expect(await lint(file, `export type {X} from "${from}";\n`)).toContain("no-restricted-imports");
    });

  it("downward imports are allowed, and every floor stays pure", async () => {
    expect(await lint("src/analysis/gates/example.ts", 'export type {X} from "../accumulate/point.ts";\n')).toEqual([]);
    expect(await lint("src/analysis/report/example.ts", 'export type {X} from "../gates/types.ts";\n')).toEqual([]);
    expect(await lint("src/analysis/ingest/example.ts", 'export {readFileSync} from "node:fs";\n')).toContain(
      "no-restricted-imports"
    );
  });
});
