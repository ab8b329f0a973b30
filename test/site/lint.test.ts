import {ESLint} from "eslint";
import {describe, expect, it} from "vitest";

/** The lint rules of the site's .ts rooms (the arrows between all its files: layout.test.ts). */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, {filePath});
  return result!.messages.map((m) => m.ruleId);
};

describe("site lint boundaries", () => {
  it("site, i18n, island and chart modules may not read the environment or the file system", async () => {
    for (const file of [
      "src/site/example.ts",
      "src/i18n/example.ts",
      "src/islands/example.ts",
      "src/charts/example.ts"
    ]) {
      const rules = await lint(
        file,
        'import {readFileSync} from "node:fs";\nexport const a = () => [process.env.BASE_PATH, readFileSync];\n'
      );
      expect(rules, file).toContain("no-restricted-globals");
      expect(rules, file).toContain("no-restricted-imports");
    }
  });

  it("src/site/buildOptions.ts, the one reader of the build options, may read the environment", async () => {
    expect(await lint("src/site/buildOptions.ts", "export const a = () => process.env.BASE_PATH;\n")).toEqual([]);
  });

  it("the loaders may read files", async () => {
    expect(
      await lint(
        "src/loaders/example.ts",
        'import {readFileSync} from "node:fs";\nexport const a = () => readFileSync;\n'
      )
    ).toEqual([]);
  });
});
