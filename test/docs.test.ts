import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {Environment, Manifest, RECORD_SCHEMAS} from "../src/analysis/schema/index.ts";

const doc = readFileSync(join(import.meta.dirname, "..", "docs", "evidence-format.md"), "utf8");

function keysOf(schema: unknown): string[] {
  const shape = (schema as {shape?: Record<string, unknown>}).shape;
  if (shape) return Object.keys(shape);
  const options = (schema as {options?: unknown[]}).options;
  return options ? options.flatMap(keysOf) : [];
}

describe("docs/evidence-format.md", () => {
  const all: [string, string[]][] = [
    ["manifest", keysOf(Manifest)],
    ["environment", keysOf(Environment)],
    ...Object.entries(RECORD_SCHEMAS).map(([role, s]) => [role, keysOf(s)] as [string, string[]])
  ];
  for (const [name, keys] of all)
    it(`documents every ${name} field`, () => {
      expect(keys.length).toBeGreaterThan(2);
      const missing = keys.filter((k) => !doc.includes(`\`${k}\``));
      expect(missing).toEqual([]);
    });
});

describe("docs/exit-codes.md", () => {
  const doc = readFileSync(join(import.meta.dirname, "..", "docs", "exit-codes.md"), "utf8");
  it("documents every exit code and every command in one table", async () => {
    const {EXIT} = await import("../collector/cliError.ts");
    for (const code of Object.values(EXIT)) expect(doc, `code ${code}`).toMatch(new RegExp(`^\\| ${code} +\\|`, "m"));
    const {buildProgram} = await import("../collector/cli.ts");
    const program = await buildProgram();
    for (const c of program.commands) expect(doc, c.name()).toContain(`| \`${c.name()}\``);
  });
});

describe("version history", () => {
  it("every current contract version has an entry saying what it changed (the methodology page prints them)", async () => {
    const v = await import("../src/analysis/schema/versions.ts");
    const {VERSION_HISTORY} = await import("../src/analysis/versionHistory.ts");
    const current = {
      schema: String(v.SCHEMA_VERSION),
      measure: v.MEASURE_VERSION,
      analyzer: v.ANALYZER_VERSION,
      quality: v.QUALITY_VERSION
    };
    for (const [contract, version] of Object.entries(current)) {
      const entry = VERSION_HISTORY.find((h) => h.contract === contract && h.version === version);
      if (version === "1") continue; // the first version is the baseline, described by the docs themselves
      expect(entry, `${contract} ${version}`).toBeDefined();
      expect(entry!.changes.every((c) => c.en.length > 20 && c.zh.length > 10)).toBe(true);
    }
  });
});

describe("docs/architecture.md", () => {
  const arch = readFileSync(join(import.meta.dirname, "..", "docs", "architecture.md"), "utf8");
  it("names only paths that exist", () => {
    const root = join(import.meta.dirname, "..");
    const named = [...arch.matchAll(/`((?:src|collector|scripts|test)\/[^`\s]*)`/g)]
      .map((m) => m[1]!.replace(/\/$/, ""))
      .filter((p) => !/[<{*]/.test(p));
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter((p) => !existsSync(join(root, p)));
    expect(missing).toEqual([]);
  });
});
