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

  it("collector capture code may import only the schema and stats of src/analysis", async () => {
    expect(
      await lint("collector/run/example.ts", 'export {analyzeBundle} from "../../src/analysis/analyze.ts";\n')
    ).toContain("no-restricted-imports");
    expect(
      await lint("collector/run/example.ts", 'export {RequestRecord} from "../../src/analysis/schema/records.ts";\n')
    ).toEqual([]);
  });
});
