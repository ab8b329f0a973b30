import {readFileSync} from "node:fs";

import {ESLint} from "eslint";
import {globSync} from "glob";
import {describe, expect, it} from "vitest";

/** The size rules of docs/architecture.md: files of one concept under 400 lines, functions under 80 or saying why. */
const SOURCES = ["src/**/*.{ts,astro,mjs}", "collector/**/*.{ts,mjs}", "scripts/**/*.{ts,mjs}"];
const MAX_FILE_LINES = 400;

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("structure", () => {
  it(`no source file in src/, collector/ or scripts/ is over ${MAX_FILE_LINES} lines (.astro included)`, () => {
    const files = globSync(SOURCES, {nodir: true});
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({file, lines: lineCount(readFileSync(file, "utf8"))}))
      .filter((f) => f.lines > MAX_FILE_LINES);
    expect(over).toEqual([]);
  });

  it("every function over 80 lines gives its reason in the disable comment", () => {
    const files = globSync(SOURCES, {nodir: true});
    const bare: string[] = [];
    let exceptions = 0;
    for (const file of files) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (!/eslint-disable(-next-line)?\s+[^*]*max-lines-per-function/.test(line)) return;
          exceptions += 1;
          if (!/max-lines-per-function\s+--\s+\S.{10,}/.test(line)) bare.push(`${file}:${i + 1}`);
        });
    }
    expect(exceptions).toBeGreaterThan(0);
    expect(bare).toEqual([]);
  });

  it("the lint rules bite: a 401-line file and an 81-line function are errors", async () => {
    const eslint = new ESLint();
    const body = Array.from({length: 81}, (_, i) => `  const v${i} = ${i};`).join("\n");
    const fn = `export function long(): number {\n${body}\n  return v0;\n}\n`;
    const [longFn] = await eslint.lintText(fn, {filePath: "collector/example.ts"});
    expect(longFn!.messages.map((m) => m.ruleId)).toContain("max-lines-per-function");

    const lines = Array.from({length: 401}, (_, i) => `export const c${i} = ${i};`).join("\n") + "\n";
    const [longFile] = await eslint.lintText(lines, {filePath: "src/analysis/example.ts"});
    expect(longFile!.messages.map((m) => m.ruleId)).toContain("max-lines");

    const reasoned = `// eslint-disable-next-line max-lines-per-function -- reads as the table it maps\n${fn}`;
    const [allowed] = await eslint.lintText(reasoned, {filePath: "scripts/example.ts"});
    expect(allowed!.messages.map((m) => m.ruleId)).not.toContain("max-lines-per-function");
  });
});
