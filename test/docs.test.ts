import {readFileSync} from "node:fs";
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
