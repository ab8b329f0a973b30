import {ESLint} from "eslint";
import {describe, expect, it} from "vitest";

/** The lint rules that keep src/analysis pure and the collector's imports one-way. */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, {filePath});
  return result!.messages.map((m) => m.ruleId);
};

describe("lint boundaries", () => {
  it("src/analysis may not use console, process, the wall clock, timers or Node built-ins", async () => {
    const rules = await lint(
      "src/analysis/example.ts",
      [
        'import {readFileSync} from "node:fs";',
        "export const a = () => console.log(process.env.X, Date.now(), readFileSync);",
        "export const b = () => setTimeout(() => performance.now(), 1);"
      ].join("\n")
    );
    expect(rules.filter((r) => r === "no-restricted-globals").length).toBeGreaterThanOrEqual(5);
    expect(rules).toContain("no-console");
    expect(rules).toContain("no-restricted-imports");
  });

  it("the same code is allowed at the edges", async () => {
    const rules = await lint(
      "src/io/example.ts",
      'import {readFileSync} from "node:fs";\nexport const a = () => readFileSync;\n'
    );
    expect(rules).toEqual([]);
  });

  it("collector capture code may import only the schema and stats of src/analysis, and src/io/hash.ts", async () => {
    expect(
      await lint("collector/run/example.ts", 'export {analyzeBundle} from "../../src/analysis/analyze.ts";\n')
    ).toContain("no-restricted-imports");
    expect(
      await lint("collector/run/example.ts", 'export {RequestRecord} from "../../src/analysis/schema/records.ts";\n')
    ).toEqual([]);
    expect(await lint("collector/run/example.ts", 'export {sha256Hex} from "../../src/io/hash.ts";\n')).toEqual([]);
    for (const spec of ["../../src/io/fsBundle.ts", "../../src/io/hash.ts.bak", "../../src/io/hashes.ts"])
      expect(await lint("collector/run/example.ts", `export {x} from "${spec}";\n`)).toContain("no-restricted-imports");
  });

  it("the collector captures answers raw: it cannot reach the scorers, only the util leaves (lines, zod issues)", async () => {
    expect(
      await lint("collector/cases/example.ts", 'export {scoreItem} from "../../src/analysis/quality/score.ts";\n')
    ).toContain("no-restricted-imports");
    expect(
      await lint("collector/cases/example.ts", 'export {LineSplitter} from "../../src/analysis/util/lines.ts";\n')
    ).toEqual([]);
  });
});

describe("collector floors (issue 12)", () => {
  const floorRule = "import-x/no-restricted-paths";

  it("a floor may not import a floor above it", async () => {
    // each line: a file of a lower floor importing one of a higher floor
    const upward: [string, string][] = [
      ["collector/effects.ts", "./http/stream.ts"],
      ["collector/http/example.ts", "../request/send.ts"],
      ["collector/request/example.ts", "../env/probe.ts"],
      ["collector/load/example.ts", "../writer/bundleWriter.ts"],
      ["collector/bundle/example.ts", "../cases/suite.ts"],
      ["collector/cases/example.ts", "../run/collect.ts"],
      ["collector/run/example.ts", "../commands/collect.ts"],
      ["collector/commands/example.ts", "../cli.ts"]
    ];
    for (const [file, spec] of upward)
      expect({file, spec, rules: await lint(file, `export * from "${spec}";\n`)}).toMatchObject({
        rules: expect.arrayContaining([floorRule])
      });
  });

  it("the same floor and the floors below are allowed", async () => {
    const allowed: [string, string][] = [
      ["collector/http/example.ts", "../effects.ts"],
      ["collector/request/example.ts", "../load/plan.ts"],
      ["collector/env/example.ts", "../request/send.ts"],
      ["collector/cases/example.ts", "../load/dispatch.ts"],
      ["collector/run/example.ts", "../cases/suite.ts"],
      ["collector/commands/example.ts", "../run/collect.ts"],
      ["collector/cli.ts", "./commands/collect.ts"]
    ];
    for (const [file, spec] of allowed)
      expect({file, rules: await lint(file, `export * from "${spec}";\n`)}).toEqual({file, rules: []});
  });

  it("an import cycle inside the collector is rejected", async () => {
    // collector/load/dispatch.ts imports control.ts: control.ts importing dispatch.ts closes a cycle
    const rules = await lint("collector/load/control.ts", 'export {runOpenLoop} from "./dispatch.ts";\n');
    expect(rules).toContain("import-x/no-cycle");
  });
});
